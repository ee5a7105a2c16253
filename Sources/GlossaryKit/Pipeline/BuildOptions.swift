import Foundation

/// What the user asked of a build (the command line's flags).
public struct BuildOptions: Sendable {
    public var source: URL
    /// Defaults to `site/` in the source folder.
    public var output: URL?
    public var offline = false
    public var refresh = false
    public var strict = false
    public var drafts = false
    /// Overrides `dictionary.api` (from `--api-url` or `GLOSSARY_API_URL`).
    public var apiURL: String?
    public var baseURL: String?
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    /// Wait for another build of the same site to finish (false: fail at once with `build-locked`).
    public var waitForOtherBuilds = true
    /// HTML injected before `</body>` of every page (the preview server's live-reload script); never set by `build`.
    public var bodySuffix: String?

    public init(source: URL) {
        self.source = source
    }

    public var outputDirectory: URL { output ?? source.appendingPathComponent("site", isDirectory: true) }
}

/// Counts and timings of one build, for the summary line.
public struct BuildStats: Sendable {
    public var pages = 0
    public var terms = 0
    public var unresolved = 0
    public var local = 0
    public var cached = 0
    public var fetched = 0
    public var files = 0
    /// Seconds per stage, in the order they ran.
    public var stageTimes: [(name: String, seconds: Double)] = []
    public var totalSeconds = 0.0
}

public struct BuildResult: Sendable {
    public var diagnostics: [Diagnostic]
    /// The built site, or nil when errors stopped the build before writing.
    public var output: SiteOutput?
    public var stats: BuildStats
    public var apiUnreachable = false
    public var config: SiteConfig?
    /// The pages' references and links, for `glossary check` and the preview server.
    public var site: BuiltSite?

    public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
    public var warnings: [Diagnostic] { diagnostics.filter { $0.severity == .warning } }

    /// DESIGN.md's exit codes: 0 fine; 1 errors (or warnings under `--strict`); 69 API unreachable, nothing cached, strict.
    public func exitCode(strict: Bool) -> Int32 {
        if strict && apiUnreachable && stats.unresolved > 0 { return 69 }
        if !errors.isEmpty || (strict && !warnings.isEmpty) { return 1 }
        return 0
    }
}
