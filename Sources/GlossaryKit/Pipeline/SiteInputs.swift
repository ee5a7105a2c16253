import Foundation

/// Step: the site's folder scanned, and the configuration and the theme it names read, with their problems.
struct SiteInputs: Sendable {
    var source: SiteSource
    /// Nil when the site has no glossary.yml.
    var config: SiteConfig?
    /// glossary.yml had errors (a value of the wrong type or out of range): the build stops before resolving.
    var configHasErrors = false
    var theme: Theme?
    var problems: [Diagnostic]

    /// What a preview knows as a build starts: the inputs its last good build read, brought up to date, and the markdown
    /// files (paths below `content/`) that alone may have changed since of all the files below the watched paths.
    struct Known: Sendable {
        var inputs: SiteInputs
        var changedPages: Set<String>
        /// The absolute paths of the files and folders its watcher sees every change in, each with a `/` after it.
        var watched: [String]

        /// Whether the file at `path` (absolute) is a watched path or below one.
        func sees(_ path: String) -> Bool {
            watched.contains { path.hasPrefix($0) || ($0.utf8.count == path.utf8.count + 1 && $0.hasPrefix(path)) }
        }
    }

    /// These inputs once the markdown files at `paths` (relative to the site's folder, as a watcher of `watched` reports
    /// them) alone changed; nil when the paths may be anything else (`SiteSource.refreshed`). The configuration and the
    /// theme are as they were: their files are not among the paths.
    func refreshed(_ paths: Set<String>, watched: [String]) -> Known? {
        guard let source = source.refreshed(paths) else { return nil }
        var inputs = self
        inputs.source = source
        let root = source.root.standardizedFileURL.path
        return Known(
            inputs: inputs, changedPages: Set(paths.map { String($0.dropFirst("content/".count)) }),
            watched: watched.map { root + (root.hasSuffix("/") ? "" : "/") + $0 + "/" })
    }

    static func read(options: BuildOptions) -> SiteInputs {
        let (source, scanProblems) = SiteSource.scan(root: options.source)
        var inputs = SiteInputs(source: source, problems: scanProblems)
        guard let text = source.configText else { return inputs }
        var (config, configProblems) = SiteConfig.load(yaml: text, file: "glossary.yml")
        if let baseURL = options.baseURL { config.baseURL = baseURL.hasSuffix("/") ? baseURL : baseURL + "/" }
        if let apiURL = options.apiURL { config.dictionary.api = apiURL }
        let (theme, themeProblems) = Theme.load(
            name: config.theme, siteRoot: options.source, location: config.locations["theme"],
            displayPath: { SiteBuilder.relativePath($0, root: options.source) })
        inputs.config = config
        inputs.configHasErrors = configProblems.contains { $0.severity == .error }
        inputs.theme = theme
        inputs.problems += configProblems + themeProblems
        if let theme {
            let location = config.locations["languages"] ?? config.locations["language"]
            inputs.problems += theme.strings.missingDiagnostics(config.siteLanguages.codes, at: location)
        }
        return inputs
    }
}
