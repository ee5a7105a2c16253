/// One thing the site search finds: a content page, a generated section page or a term, with the three fields
/// the index holds (title, headings, text) and what a result shows.
public struct SearchDocument: Sendable, Equatable, Encodable {
    public enum Kind: Int, Sendable, Encodable {
        case page = 0
        case term = 1
    }

    public var kind: Kind
    public var title: String
    /// The URL path below the site root, percent-encoded (`guide/intro/`, `C%23/`): the search page puts the root's
    /// href before it as it is.
    public var urlPath: String
    /// Where it sits: the titles of the sections above it (`Guide › Linking`), or `Glossary` for a term.
    public var trail: String
    /// A line under the title: the page's description, the term's summary.
    public var summary: String?
    /// Headings a result can lead to (levels 2 and 3) with their ids.
    public var headings: [PageHeading]
    /// The headings field's text (for a term: its aliases).
    public var headingsText: String
    public var text: SearchTerms

    public init(
        kind: Kind, title: String, urlPath: String, trail: String, summary: String?, headings: [PageHeading], headingsText: String,
        text: SearchTerms
    ) {
        self.kind = kind
        self.title = title
        self.urlPath = urlPath
        self.trail = trail
        self.summary = summary
        self.headings = headings
        self.headingsText = headingsText
        self.text = text
    }
}
