/// The files a build writes besides the pages: the glossary's exports and the files crawlers read.
public enum SiteExport: String, Sendable, CaseIterable {
    case json = "glossary.json"
    case csv = "glossary.csv"
    case tbx = "glossary.tbx"
    case sitemap = "sitemap.xml"
    case robots = "robots.txt"

    /// The file's path below the site root.
    public var path: String { rawValue }

    /// Whether a file of the same path in `content/` replaces it (the site's own `robots.txt` or sitemap) rather
    /// than being an error (the glossary's exports are glossary's).
    public var yieldsToContent: Bool { self == .sitemap || self == .robots }

    /// Whether it is made from the glossary's export model (`GlossaryExport`).
    var usesModel: Bool { self == .json || self == .csv || self == .tbx }
}
