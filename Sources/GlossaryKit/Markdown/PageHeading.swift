/// A heading of a page's markdown: its level, its plain text and the `id` it gets in the HTML (see
/// `HeadingAnchors`), which the table of contents, the search index and `#anchor` links rely on.
public struct PageHeading: Hashable, Sendable, Encodable {
    /// 1 to 6, as in `<h1>`…`<h6>`.
    public var level: Int
    /// The heading's text without markup (code spans and term references as their text).
    public var text: String
    public var id: String

    public init(level: Int, text: String, id: String) {
        self.level = level
        self.text = text
        self.id = id
    }
}
