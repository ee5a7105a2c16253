/// The site's settings from `glossary.yml`, with defaults for everything left out.
public struct SiteConfig: Sendable, Equatable {
    public var title: String = "Glossary"
    /// Where the site is deployed; always ends with `/`.
    public var baseURL: String = "/"
    /// The default language: `language:`, or the first of `languages:`.
    public var language: String = "en"
    /// `languages:`, every language of a multilingual site, the default first; empty for a site in one language.
    public var languages: [String] = []
    /// Whether the default language's pages are at the root of `content/` (`default_language_at_root`, the default)
    /// rather than in `content/<lang>/`, like the others'.
    public var defaultLanguageAtRoot = true
    /// Whether a concept without an entry in one of the site's languages is a warning (`require_all_languages`)
    /// rather than a note.
    public var requireAllLanguages = false
    /// Whether a card on a page in another language shows its concept's term in the default language
    /// (`cards: {show_source_term: true}`).
    public var cardsShowSourceTerm = false
    /// Folder name under `themes/`.
    public var theme: String = "default"
    public var description: String?
    /// `site:`, where the site is served from; see `address` for the one the build uses.
    public var site: SiteAddress?
    public var dictionary = DictionaryConfig()
    /// `nav:`, the navigation's order and sections; nil makes them from the folders of `content/`.
    public var nav: [NavEntry]?
    /// Which plain occurrences of the team's terms pages link (`autolink:`; a page's front matter may say otherwise).
    public var autolink: AutolinkMode = .off
    /// Whether auto-linking also links every term the site's pages reference, not only the team's.
    public var autolinkDictionary = false
    /// Which files for language models the build writes (`llms:`): `llms.txt` and `llms-full.txt` unless turned off.
    public var llms: LLMsMode = .files
    /// The most bytes of text `llms-full.txt` holds (`llms_full_max_bytes`); what doesn't fit is left out, with a note.
    public var llmsFullMaxBytes = 10_000_000
    /// The most entries one page of the A–Z index lists (`terms_per_page`); a bigger glossary's index is paged by letter.
    public var termsPerPage = 500
    /// Where each top-level key's value starts in glossary.yml (`theme`), so later stages can point at it.
    public var locations: [String: SourceLocation] = [:]

    public init() {}

    /// Where the site is served from, when known: `site:`, else the scheme and host of a full URL in `base_url`.
    public var address: SiteAddress? { site ?? SiteAddress(baseURL: baseURL) }

    /// Whether `baseURL` may be a site's `base_url` (or `--base-url`): a path from the root, or an http(s) URL.
    public static func isBaseURL(_ baseURL: String) -> Bool {
        baseURL.hasPrefix("/") || baseURL.hasPrefix("http://") || baseURL.hasPrefix("https://")
    }

    /// Two configurations are equal when their settings are: where they were written doesn't matter.
    public static func == (lhs: SiteConfig, rhs: SiteConfig) -> Bool {
        (lhs.title, lhs.baseURL, lhs.language, lhs.theme, lhs.description) == (rhs.title, rhs.baseURL, rhs.language, rhs.theme, rhs.description)
            && lhs.site == rhs.site && lhs.dictionary == rhs.dictionary && lhs.nav == rhs.nav && lhs.autolink == rhs.autolink
            && lhs.languages == rhs.languages && lhs.defaultLanguageAtRoot == rhs.defaultLanguageAtRoot
            && lhs.requireAllLanguages == rhs.requireAllLanguages && lhs.cardsShowSourceTerm == rhs.cardsShowSourceTerm
            && lhs.autolinkDictionary == rhs.autolinkDictionary && lhs.llms == rhs.llms && lhs.llmsFullMaxBytes == rhs.llmsFullMaxBytes
            && lhs.termsPerPage == rhs.termsPerPage
    }

    static let keys = [
        "title", "base_url", "site", "language", "languages", "default_language_at_root", "theme", "description", "dictionary", "nav", "autolink",
        "autolink_dictionary", "llms", "llms_full_max_bytes", "require_all_languages", "cards", "terms_per_page",
    ]

    /// Whether `code` can name a language: it becomes a folder name (`content/fr/`, `i18n/fr.yml`).
    static func isLanguageCode(_ code: String) -> Bool {
        !(code.isEmpty || code.hasPrefix(".") || code.contains(where: { $0.isWhitespace || $0 == "/" || $0 == "\\" }))
    }

    /// The site's languages and where each one's pages are.
    public var siteLanguages: SiteLanguages {
        SiteLanguages(codes: languages.isEmpty ? [language] : languages, defaultAtRoot: defaultLanguageAtRoot)
    }

    /// Reads glossary.yml over the defaults, never failing: a value with a problem keeps its
    /// default and the problem is returned, so one run reports all of them.
    ///
    /// Diagnostics: `yaml-syntax`/`yaml-alias` (unreadable YAML), `unknown-key` and `duplicate-key`
    /// warnings, `config-type` (wrong type) and `config-value` (out of range) errors.
    public static func load(yaml: String, file: String) -> (SiteConfig, [Diagnostic]) {
        var config = SiteConfig()
        let root: YAMLNode?
        do {
            root = try YAMLNode.parse(yaml, file: file)
        } catch {
            return (config, [error])
        }
        guard let root else { return (config, []) }
        guard let pairs = root.pairs else {
            return (config, [Diagnostic(.fileNotMapping(file: "glossary.yml", found: root.foundDescription), at: root.location)])
        }
        var fields = KeyedMapping(pairs, known: keys, context: "in glossary.yml")

        if let title = fields.string("title") {
            config.title = title
        }
        if let baseURL = fields.string("base_url"), let node = fields["base_url"] {
            if Self.isBaseURL(baseURL) {
                config.baseURL = baseURL.hasSuffix("/") ? baseURL : baseURL + "/"
            } else {
                fields.report(node.valueError("base_url", "must start with '/', 'http://' or 'https://'"))
            }
        }
        if let language = fields.string("language"), let node = fields["language"] {
            if !Self.isLanguageCode(language) {
                fields.report(node.valueError("language", "must be a language code like 'en'"))
            } else {
                config.language = language
            }
        }
        if let languages = fields.stringList("languages"), let node = fields["languages"] {
            // A problem is shown at the item it is in (a scalar is a list of one).
            let items = node.items ?? [node]
            let at = { (index: Int) in items.indices.contains(index) ? items[index] : node }
            let repeated = languages.indices.first { languages[..<$0].contains(languages[$0]) }
            if languages.isEmpty {
                fields.report(node.valueError("languages", "must list language codes like 'en', the default first"))
            } else if let bad = languages.firstIndex(where: { !Self.isLanguageCode($0) }) {
                fields.report(at(bad).valueError("languages", "must list language codes like 'en', the default first"))
            } else if let repeated {
                fields.report(at(repeated).valueError("languages", "must name each language once"))
            } else if fields["language"] != nil, config.language != languages[0] {
                fields.report(node.valueError("languages", "must start with the default language, '\(config.language)' (language:)"))
            } else {
                config.languages = languages.count > 1 ? languages : []
                config.language = languages[0]
            }
        }
        if let atRoot = fields.bool("default_language_at_root") { config.defaultLanguageAtRoot = atRoot }
        if let required = fields.bool("require_all_languages") { config.requireAllLanguages = required }
        if let theme = fields.string("theme"), let node = fields["theme"] {
            // The name becomes a path component under themes/, so it must not climb out of it.
            if theme.isEmpty || theme == "." || theme == ".." || theme.contains("/") || theme.contains("\\") {
                fields.report(node.valueError("theme", "must be the name of a folder in themes/"))
            } else {
                config.theme = theme
            }
        }
        if let description = fields.string("description") {
            config.description = description
        }
        if let site = fields.string("site"), let node = fields["site"] {
            if let address = SiteAddress(site) {
                if let other = SiteAddress(baseURL: config.baseURL), other != address {
                    fields.report(node.valueError("site", "must be the address base_url gives ('\(other)') when base_url is a full URL"))
                } else {
                    config.site = address
                }
            } else {
                fields.report(node.valueError("site", "must be the site's address: http:// or https://, a host and no path, like 'https://example.org'"))
            }
        }
        if let mode = fields.autolinkMode("autolink") { config.autolink = mode }
        if let linksDictionary = fields.bool("autolink_dictionary") { config.autolinkDictionary = linksDictionary }
        if let mode = fields.read("llms", { node in { name throws(Diagnostic) in try LLMsMode.read(node, name: name) } }) { config.llms = mode }
        if let maxBytes = fields.int("llms_full_max_bytes"), let node = fields["llms_full_max_bytes"] {
            if maxBytes >= 100 {
                config.llmsFullMaxBytes = maxBytes
            } else {
                fields.report(node.valueError("llms_full_max_bytes", "must be at least 100"))
            }
        }
        if let perPage = fields.int("terms_per_page"), let node = fields["terms_per_page"] {
            if perPage >= 1 {
                config.termsPerPage = perPage
            } else {
                fields.report(node.valueError("terms_per_page", "must be at least 1"))
            }
        }
        for key in keys {
            if let node = fields[key] { config.locations[key] = node.location }
        }
        var diagnostics = fields.diagnostics
        if let node = fields["nav"] {
            let (nav, navDiagnostics) = NavEntry.decode(node)
            config.nav = nav
            diagnostics += navDiagnostics
        }
        if let node = fields["cards"] {
            guard let pairs = node.pairs else {
                return (config, (diagnostics + [node.typeError("cards", "must be a mapping of keys to values")]).inDocumentOrder())
            }
            var cards = KeyedMapping(pairs, known: ["show_source_term"], context: "under 'cards' in glossary.yml")
            if let shows = cards.bool("show_source_term") { config.cardsShowSourceTerm = shows }
            diagnostics += cards.diagnostics
        }
        if let node = fields["dictionary"] {
            let (dictionary, dictionaryDiagnostics) = DictionaryConfig.decode(node)
            config.dictionary = dictionary
            diagnostics += dictionaryDiagnostics
        }
        return (config, diagnostics.inDocumentOrder())
    }
}
