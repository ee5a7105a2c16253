/// The files a build writes besides the pages: the glossary's exports and the files crawlers read.
public enum SiteExport: String, Sendable, CaseIterable {
    case json = "glossary.json"
    case csv = "glossary.csv"
    case tbx = "glossary.tbx"
    case sitemap = "sitemap.xml"
    case robots = "robots.txt"
    /// The site's map for language models (llmstxt.org).
    case llms = "llms.txt"
    /// Every page's and every term's text in one file, for language models.
    case llmsFull = "llms-full.txt"

    /// The file's path below the site root.
    public var path: String { rawValue }

    /// Whether a file of the same path in `content/` replaces it (the site's own `robots.txt`, sitemap or llms files)
    /// rather than being an error (the glossary's exports are glossary's).
    public var yieldsToContent: Bool { self == .sitemap || self == .robots || isForLanguageModels }

    /// `llms.txt` and `llms-full.txt`, written unless `llms: false`.
    public var isForLanguageModels: Bool { self == .llms || self == .llmsFull }

    /// Whether it is made from the glossary's export model (`GlossaryExport`).
    var usesModel: Bool { self == .json || self == .csv || self == .tbx || isForLanguageModels }
}
