import Foundation
import GlossaryKit

struct BuildCommand: Command {
    static let name = "build"
    static let abstract = "Build the site into site/"
    static let discussion = "Builds the site in --source into --output. A failed build leaves the previous output untouched."

    static let output = Option.value("--output", "DIR", "Where to write the site (default: site/ in the source folder)", completion: .directory)
    static let refresh = Option.flag("--refresh", "Refetch every dictionary term, even fresh cache entries")
    static let strict = Option.flag("--strict", "Treat warnings as errors (exit 1; 69 when the API was unreachable)")
    static let drafts = Option.flag("--drafts", "Include pages marked 'draft: true'")
    static let jobs = Option.value("--jobs", "N", "Pages rendered in parallel (default: number of cores)")
    static let baseURL = Option.value("--base-url", "URL", "Override base_url, e.g. /docs/")
    static let quiet = Option.flag("--quiet", "Print only problems, no progress or summary")
    static let timings = Option.flag("--timings", "Print how long each stage of the build took")
    static let clean = Option.flag("--clean", "Forget what earlier builds left (the manifest in .glossary/build/) and render every file again")
    static let noWait = Option.flag("--no-wait", "Fail at once when another build of the site is running, instead of waiting for it")

    static let options =
        [OptionGroup.source, output, OptionGroup.offline, refresh, strict, drafts, OptionGroup.apiURL, jobs, baseURL, quiet, timings, clean, noWait]
        + OptionGroup.diagnostics

    static func run(_ parsed: ParsedArguments, context: CommandContext) async throws(UsageError) -> Int32 {
        try parsed.expectNoPositional()
        let outcome = try await build(parsed, context: context)
        let exitCode = outcome.exitCode
        // The built site goes on another thread, while the command ends.
        FreedMemory.release(outcome.result)
        return exitCode
    }

    /// What a build run by a command came to: its result and options, and the exit code it ends the command with.
    struct Outcome {
        var result: BuildResult
        var options: BuildOptions
        var exitCode: Int32
    }

    /// Builds the site as `glossary build` does with the options of `options` (which `deploy` declares too): reports
    /// the build's problems and summary, and stops it on Ctrl-C.
    static func build(_ parsed: ParsedArguments, context: CommandContext) async throws(UsageError) -> Outcome {
        var options = try buildOptions(parsed, context: context)
        options.output = parsed[Self.output].map { context.resolve($0) }
        options.strict = parsed.has(Self.strict)
        options.drafts = parsed.has(Self.drafts)
        options.refresh = parsed.has(Self.refresh)
        options.clean = parsed.has(Self.clean)
        if let baseURL = parsed[Self.baseURL] {
            guard SiteConfig.isBaseURL(baseURL) else {
                throw UsageError("--base-url must start with '/', 'http://' or 'https://', not '\(ParsedArguments.shown(baseURL))'")
            }
            options.baseURL = baseURL
        }
        if let jobs = try parsed.integer(Self.jobs, in: 1...256) { options.jobs = jobs }
        options.waitForOtherBuilds = !parsed.has(Self.noWait)
        let isQuiet = parsed.has(Self.quiet)
        var printer = try DiagnosticPrinter(parsed, context: context, root: options.source)
        printer.strict = options.strict

        let builder = SiteBuilder(
            options: options, makeFetcher: fetcherFactory(for: options, context: context), progress: progressPrinter(context: context, quiet: isQuiet))
        // Ctrl-C (or SIGTERM) stops the build at the next file and removes what it had written; a second one
        // quits at once (a later build removes the leftovers).
        let interruption = BuildInterruption()
        let termination = TerminationSignal(console: context.console, notice: "Interrupted; stopping the build (again to quit now).") { signal in
            interruption.interrupt(signal)
        }
        let build = Task {
            await builder.buildAndWrite { holder in
                interruption.waitingForLock()
                context.console.printError("Waiting for another build of this site to finish" + (holder.map { " (process \($0))" } ?? "") + "…")
            } locked: {
                interruption.lockTaken()
            }
        }
        interruption.started(build)
        let result = await build.value
        if result.interrupted, let signal = termination.received {
            context.console.printError("Build interrupted; \(Self.shownOutput(options))/ left unchanged")
            return Outcome(result: result, options: options, exitCode: 128 + signal)
        }
        report(result, options: options, printer: printer, quiet: isQuiet)
        if parsed.has(Self.timings) {
            for (stage, seconds) in result.stats.stageTimes {
                context.console.printError(String(format: "  %-8@ %8.3f s", stage, seconds))
            }
        }
        return Outcome(result: result, options: options, exitCode: result.exitCode(strict: options.strict))
    }

    /// The options of `OptionGroup.site`, shared by every command that builds: --source, --offline, --api-url.
    static func buildOptions(_ parsed: ParsedArguments, context: CommandContext) throws(UsageError) -> BuildOptions {
        let source = context.resolve(parsed[OptionGroup.source])
        var options = BuildOptions(source: source)
        options.offline = parsed.has(OptionGroup.offline)
        options.apiURL = parsed[OptionGroup.apiURL] ?? context.environment["GLOSSARY_API_URL"]
        if let apiURL = options.apiURL, !(apiURL.contains("{word}")) {
            throw UsageError("the API URL '\(ParsedArguments.shown(apiURL))' must contain {word}")
        }
        return options
    }

    /// The dictionary client for a build's configuration: the real one unless a test substituted it.
    static func fetcherFactory(for options: BuildOptions, context: CommandContext) -> FetcherFactory {
        { config in context.makeFetcher(config, options) }
    }

    /// A live line on a terminal; elsewhere (a CI log, a pipe) one line when fetching starts and one when it ends,
    /// so a slow dictionary is never a silent wait.
    static func progressPrinter(context: CommandContext, quiet: Bool) -> @Sendable (FetchProgress) -> Void {
        guard !quiet else { return { _ in } }
        guard context.console.errIsTerminal else {
            return { progress in
                let from = progress.host.isEmpty ? "" : " from \(ParsedArguments.shown(progress.host))"
                let noun = progress.total == 1 ? "definition" : "definitions"
                if progress.done == 0 { context.console.printError("Fetching \(progress.total) \(noun)\(from)…") }
                if progress.done == progress.total {
                    let failures = progress.failed > 0 ? " (\(progress.failed) failed)" : ""
                    context.console.printError("Fetched \(progress.total - progress.failed) of \(progress.total) \(noun)\(from)\(failures)")
                }
            }
        }
        return { progress in
            let failures = progress.failed > 0 ? ", \(progress.failed) failed" : ""
            let line = "Fetching definitions: \(progress.done)/\(progress.total)\(failures), \(String(format: "%.1f", progress.requestsPerSecond)) req/s"
            context.console.err("\r\u{1B}[2K" + line + (progress.done == progress.total ? "\n" : ""))
        }
    }

    static func report(_ result: BuildResult, options: BuildOptions, printer: DiagnosticPrinter, quiet: Bool) {
        printer.print(result.diagnostics)
        guard !quiet || !result.succeeded else { return }
        printer.console.printError(summary(result, options: options))
    }

    /// The output folder as the summary names it: below the site's folder, or its whole path when it is elsewhere.
    static func shownOutput(_ options: BuildOptions) -> String {
        SiteBuilder.relativePath(options.outputDirectory, root: options.source)
    }

    static func summary(_ result: BuildResult, options: BuildOptions) -> String {
        let stats = result.stats
        let time = String(format: "%.2f", stats.totalSeconds)
        let counts =
            "\(stats.pages) pages, \(stats.terms) terms (\(stats.local) local, \(stats.cached) cached, \(stats.fetched) fetched, \(stats.fromWordNet) from WordNet), \(stats.unresolved) unresolved"
        let errors = result.errors.count + (options.strict ? result.warnings.count : 0)
        let warnings = options.strict ? 0 : result.warnings.count
        let problems = [errors > 0 ? "\(errors) error\(errors == 1 ? "" : "s")" : nil, warnings > 0 ? "\(warnings) warning\(warnings == 1 ? "" : "s")" : nil]
            .compactMap { $0 }
        let problemText = problems.isEmpty ? "" : ", " + problems.joined(separator: ", ")
        if !result.succeeded {
            // Stopped before resolving the site's terms (no configuration or one with errors, a busy lock, a bad output
            // folder): no counts.
            let what = result.site == nil ? problems.joined(separator: ", ") : "\(counts)\(problemText) in \(time) s"
            return "Build failed: \(what); \(shownOutput(options))/ left unchanged"
        }
        return "Built \(counts)\(problemText) in \(time) s"
    }
}
