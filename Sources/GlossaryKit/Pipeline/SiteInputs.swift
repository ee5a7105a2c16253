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
