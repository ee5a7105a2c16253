import Foundation
import GlossaryKit

struct BuildCommand: Command {
    static let name = "build"
    static let usage = """
        USAGE: glossary build [options]

        Builds the site in --source into --output. A failed build leaves the previous output untouched.

        OPTIONS:
          --source DIR        The site's folder, holding glossary.yml (default: current folder)
          --output DIR        Where to write the site (default: site/ in the source folder)
          --offline           Never contact the dictionary API; use the team's entries and the cache
          --refresh           Refetch every dictionary term, even fresh cache entries
          --strict            Treat warnings as errors (exit 1; 69 when the API was unreachable)
          --drafts            Include pages marked 'draft: true'
          --api-url TEMPLATE  Dictionary API URL with {lang} and {word} (also GLOSSARY_API_URL)
          --jobs N            Pages rendered in parallel (default: number of cores)
          --base-url URL      Override base_url, e.g. /docs/
          --quiet             Print only problems, no progress or summary
          --timings           Print how long each stage of the build took
          -h, --help          Show this help
        """

    static func run(_ arguments: [String], context: CommandContext) async throws(UsageError) -> Int32 {
        let parsed = try Arguments(
            arguments, flags: ["--offline", "--refresh", "--strict", "--drafts", "--quiet", "--timings"],
            options: ["--source", "--output", "--api-url", "--jobs", "--base-url"])
        guard parsed.positional.isEmpty else { throw UsageError("unexpected argument '\(parsed.positional[0])'") }
        var options = try buildOptions(parsed, context: context)
        options.output = parsed["--output"].map { context.resolve($0) }
        options.strict = parsed.has("--strict")
        options.drafts = parsed.has("--drafts")
        options.refresh = parsed.has("--refresh")
        if let baseURL = parsed["--base-url"] { options.baseURL = baseURL }
        if let jobs = try parsed.integer("--jobs", in: 1...256) { options.jobs = jobs }
        let quiet = parsed.has("--quiet")

        let builder = SiteBuilder(options: options, makeFetcher: fetcherFactory(for: options, context: context), progress: progressPrinter(context: context, quiet: quiet))
        let result = await builder.buildAndWrite()
        report(result, options: options, context: context, quiet: quiet)
        if parsed.has("--timings") {
            for (stage, seconds) in result.stats.stageTimes {
                context.console.printError(String(format: "  %-8@ %8.3f s", stage, seconds))
            }
        }
        return result.exitCode(strict: options.strict)
    }

    /// Options shared by every command that builds: --source, --offline, --api-url.
    static func buildOptions(_ parsed: Arguments, context: CommandContext) throws(UsageError) -> BuildOptions {
        let source = context.resolve(parsed["--source"])
        var options = BuildOptions(source: source)
        options.offline = parsed.has("--offline")
        options.apiURL = parsed["--api-url"] ?? context.environment["GLOSSARY_API_URL"]
        if let apiURL = options.apiURL, !(apiURL.contains("{word}")) {
            throw UsageError("the API URL '\(apiURL)' must contain {word}")
        }
        return options
    }

    /// The dictionary client for a build's configuration: the real one unless a test substituted it.
    static func fetcherFactory(for options: BuildOptions, context: CommandContext) -> FetcherFactory {
        { config in context.makeFetcher(config, options) }
    }

    static func progressPrinter(context: CommandContext, quiet: Bool) -> @Sendable (FetchProgress) -> Void {
        guard context.console.errIsTerminal, !quiet else { return { _ in } }
        return { progress in
            let failures = progress.failed > 0 ? ", \(progress.failed) failed" : ""
            let line = "Fetching definitions: \(progress.done)/\(progress.total)\(failures), \(String(format: "%.1f", progress.requestsPerSecond)) req/s"
            context.console.err("\r\u{1B}[2K" + line + (progress.done == progress.total ? "\n" : ""))
        }
    }

    static func report(_ result: BuildResult, options: BuildOptions, context: CommandContext, quiet: Bool) {
        for diagnostic in result.diagnostics {
            var shown = diagnostic
            if options.strict && shown.severity == .warning { shown.severity = .error }
            context.console.printError(shown.description)
        }
        guard !quiet || result.output == nil else { return }
        context.console.printError(summary(result, options: options))
    }

    static func summary(_ result: BuildResult, options: BuildOptions) -> String {
        let stats = result.stats
        let time = String(format: "%.2f", stats.totalSeconds)
        let counts = "\(stats.pages) pages, \(stats.terms) terms (\(stats.local) local, \(stats.cached) cached, \(stats.fetched) fetched), \(stats.unresolved) unresolved"
        let errors = result.errors.count + (options.strict ? result.warnings.count : 0)
        let warnings = options.strict ? 0 : result.warnings.count
        let problems = [errors > 0 ? "\(errors) error\(errors == 1 ? "" : "s")" : nil, warnings > 0 ? "\(warnings) warning\(warnings == 1 ? "" : "s")" : nil].compactMap { $0 }
        let problemText = problems.isEmpty ? "" : ", " + problems.joined(separator: ", ")
        if result.output == nil {
            return "Build failed: \(counts)\(problemText) in \(time) s; \(options.outputDirectory.lastPathComponent)/ left unchanged"
        }
        return "Built \(counts)\(problemText) in \(time) s"
    }
}
