/// What a build came to: its problems, what it wrote, its counts.
public struct BuildResult: Sendable {
    public var diagnostics: [Diagnostic]
    /// The built site when built into memory (`SiteOutput`); nil otherwise, or when errors stopped the build.
    public var output: SiteOutput?
    /// The files of the built site and which of them this build changed; nil when errors stopped the build
    /// before anything was written.
    public var outputs: OutputChanges?
    public var stats: BuildStats
    public var apiUnreachable = false
    /// The build's task was cancelled (Ctrl-C): it stopped early and wrote nothing.
    public var interrupted = false
    public var config: SiteConfig?
    /// The pages' references and links, for `glossary check`; nil after a build that took a shortcut.
    public var site: BuiltSite?
    /// The site's root path (`/`, `/docs/`), which its URLs start with.
    public var rootPath: String?
    /// The auto-linking the pages were read with, for reading one again alike (the language server).
    public var autolink: AutolinkSettings?
    /// Every file the site would have, when the build got as far as planning them: what internal links are checked
    /// against.
    public var outputPaths: Set<String>?

    public init(diagnostics: [Diagnostic], stats: BuildStats = BuildStats()) {
        self.diagnostics = diagnostics
        self.stats = stats
    }

    public var succeeded: Bool { outputs != nil }
    public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
    public var warnings: [Diagnostic] { diagnostics.filter { $0.severity == .warning } }

    /// DESIGN.md's exit codes: 0 fine; 1 errors (or warnings under `--strict`); 69 API unreachable, nothing cached, strict.
    public func exitCode(strict: Bool) -> Int32 {
        if strict && apiUnreachable && stats.unresolved > 0 { return 69 }
        if !errors.isEmpty || (strict && !warnings.isEmpty) { return 1 }
        return 0
    }
}
