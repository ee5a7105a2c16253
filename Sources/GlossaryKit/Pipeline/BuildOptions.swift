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
    /// WordNet's data folder; nil for where libwordnet looks by itself (`WNSEARCHDIR`, else Debian's).
    public var wordNetFolder: String?
    public var baseURL: String?
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    /// Wait for another build of the same site to finish (false: fail at once with `build-locked`).
    public var waitForOtherBuilds = true
    /// Forget what earlier builds left (the build manifest) and build everything again.
    public var clean = false
    /// HTML injected before `</body>` of every page (the preview server's live-reload script); never set by `build`.
    public var bodySuffix: String?
    /// The build's clock: what decides whether a cached definition is older than `max_age_days`, whether an earlier
    /// build's results are still good, and when a failed fetch may be tried again. The wall clock but in tests.
    public var now: @Sendable () -> Date = Date.init

    /// Tests' hook: called with each template's output path and context before the file is fingerprinted and rendered,
    /// which it may change (`IncrementalBuildTests` perturbs every value of every context with it).
    var contextHook: (@Sendable (_ path: String, _ context: inout MustacheValue) -> Void)?
    /// The most URLs one sitemap file lists: the protocol's limit, which tests lower to see a sitemap index.
    var sitemapLimit = Sitemap.maximumURLs
    /// Where the term indexes the browser reads are cut into shards: lowered by tests to see shards in a small site.
    var termShards = TermShards.Limits.standard
    /// The sizes the site search's shards are cut to (`SearchIndex.ShardSizes`); smaller in tests.
    var searchShards = SearchIndex.ShardSizes.standard

    public init(source: URL) {
        self.source = source
    }

    public var outputDirectory: URL { output ?? source.appendingPathComponent("site", isDirectory: true) }
}
