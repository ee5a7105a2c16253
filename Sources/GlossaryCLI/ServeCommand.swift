import Foundation
import GlossaryKit
import GlossaryServer

struct ServeCommand: Command {
    static let name = "serve"
    static let abstract = "Build, serve and live-reload the site while you write"
    static let discussion = """
        Builds the site into a temporary folder and serves it, rebuilding whenever something in content/, themes/ or
        glossary.yml changes: open pages reload by themselves (a stylesheet change applies without a reload).
        A failed build keeps the last good site served and shows its errors over the page. Nothing is
        written to site/. Stop with Ctrl-C.

        Changes are noticed with inotify; when it can't be used (for example, the system's limit on watches
        is reached) serve says so and checks the files every 500 ms instead. Inside Docker or WSL on the
        host's files, or on a network drive, inotify hears nothing: use --poll there.
        """
    static let host = Option.value("--host", "ADDRESS", "Address to listen on: an IP address or localhost (default: 127.0.0.1)")
    static let port = Option.value("--port", "N", "Port to listen on (default: 8080; 0 picks a free one)")
    static let poll = Option.optionalValue(
        "--poll", "MS", "Check the files for changes every MS milliseconds (default 500) instead of using inotify; the value only after '='")
    static let timings = Option.flag("--timings", "After each build, print how long each of its stages took")
    static let options = [OptionGroup.source, host, port, poll, OptionGroup.offline, OptionGroup.apiURL, timings] + OptionGroup.diagnostics

    static func run(_ parsed: ParsedArguments, context: CommandContext) async throws(UsageError) -> Int32 {
        if parsed.has(Self.poll), parsed[Self.poll] == nil, let next = parsed.positional.first, Int(next) != nil {
            throw UsageError("--poll takes its interval after '=': --poll=\(next)")
        }
        try parsed.expectNoPositional()
        let pollMilliseconds = try parsed.integer(Self.poll, in: 50...60_000)
        let hostName = parsed[Self.host] ?? "127.0.0.1"
        let portNumber = try parsed.integer(Self.port, in: 0...65535) ?? 8080
        guard let address = ListenAddress(host: hostName, port: UInt16(portNumber)) else {
            throw UsageError("--host must be an IP address or localhost, not '\(ParsedArguments.shown(hostName))'")
        }
        let options = try BuildCommand.buildOptions(parsed, context: context)
        let diagnostics = try DiagnosticPrinter(parsed, context: context, root: options.source)
        if !address.isLoopback {
            context.console.printError(
                "warning: listening on \(address), which other machines can reach; the preview server is meant for this machine only (--host 127.0.0.1)")
        }

        // Signals are caught from here on: one stops cleanly (after the build in progress), a second quits at once.
        let termination = TerminationSignal(console: context.console, notice: "Stopping once the build in progress is done (again to quit now).")
        let printer = RebuildPrinter(context: context, options: options, diagnostics: diagnostics, timings: parsed.has(Self.timings))
        var configuration = PreviewServer.Configuration(options: options, address: address)
        if parsed.has(Self.poll) {
            configuration.watchMode = .polling
            configuration.pollInterval = pollMilliseconds.map { TimeInterval($0) / 1000 } ?? configuration.pollInterval
        }
        let server = PreviewServer(
            configuration: configuration,
            makeFetcher: BuildCommand.fetcherFactory(for: options, context: context),
            progress: BuildCommand.progressPrinter(context: context, quiet: false),
            report: printer.print)
        let first: IncrementalBuild
        do {
            first = try await server.start()
        } catch {
            context.console.printError("error: \(error)")
            return ExitCode.failure
        }
        // Without a configuration or content there is nothing to watch or serve.
        if first.result.diagnostics.contains(where: { $0.code == .configMissing || $0.code == .contentMissing }) {
            await server.stop()
            return ExitCode.failure
        }
        if termination.received == nil {
            let title = first.result.config?.title ?? "the site"
            context.console.print("Serving \(title) at \(server.url) (Ctrl-C to stop)")
        }
        let signal = await termination.wait()
        context.console.printError("\(signal == SIGINT ? "Interrupted" : "Terminated"); stopping the server.")
        await server.stop()
        return ExitCode.success
    }
}

/// Prints each build: the first in full like `glossary build`, later ones as one line plus problems not
/// already shown by the build before.
private final class RebuildPrinter: @unchecked Sendable {
    let context: CommandContext
    let options: BuildOptions
    let diagnostics: DiagnosticPrinter
    /// Whether each build's stage times follow it (`--timings`), on one line.
    let timings: Bool
    private let lock = NSLock()
    private var shown: Set<Diagnostic> = []
    private var changes: Set<String> = []
    private var builds = 0
    private var served = false

    init(context: CommandContext, options: BuildOptions, diagnostics: DiagnosticPrinter, timings: Bool) {
        self.context = context
        self.options = options
        self.diagnostics = diagnostics
        self.timings = timings
    }

    @Sendable func print(_ report: PreviewServer.Report) {
        lock.withLock {
            switch report {
            case .warning(let diagnostic):
                diagnostics.print(diagnostic)
            case .changed(let paths):
                changes.formUnion(paths)
            case .built(let build, let buildID):
                builds += 1
                defer { served = served || buildID != nil }
                let result = build.result
                if builds == 1 && buildID != nil {
                    BuildCommand.report(result, options: options, printer: diagnostics, quiet: false)
                } else if builds == 1 {
                    diagnostics.print(result.diagnostics)
                    let errors = result.errors.count
                    context.console.printError("Build failed: \(errors) error\(errors == 1 ? "" : "s"); pages show them until a build succeeds")
                } else {
                    diagnostics.print(result.diagnostics.filter { $0.severity == .error || !shown.contains($0) })
                    let time = String(format: "%.2f", result.stats.totalSeconds)
                    let cause = changes.contains("*") || changes.isEmpty ? "" : " after " + Self.describe(changes)
                    if buildID != nil {
                        let count = build.changedPaths?.count ?? 0
                        context.console.printError("Rebuilt\(cause) in \(time) s: \(count) file\(count == 1 ? "" : "s") changed")
                    } else {
                        let errors = result.errors.count
                        let serving = served ? "still serving the last good build" : "pages show them until a build succeeds"
                        context.console.printError("Build failed\(cause): \(errors) error\(errors == 1 ? "" : "s"); \(serving)")
                    }
                }
                if timings {
                    let stages = result.stats.stageTimes.map { String(format: "%@ %.3f s", $0.0, $0.1) }
                    context.console.printError("  stages: " + stages.joined(separator: ", "))
                }
                shown = Set(result.diagnostics)
                changes = []
            }
        }
    }

    static func describe(_ paths: Set<String>) -> String {
        let sorted = paths.sorted()
        return sorted.count == 1 ? "\(sorted[0]) changed" : "\(sorted[0]) and \(sorted.count - 1) more changed"
    }
}
