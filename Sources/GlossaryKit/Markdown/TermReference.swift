/// A `[[word]]` or `[[shown text|word]]` found in a page's text.
public struct TermReference: Hashable, Sendable {
    /// The text the reader sees (escapes already decoded).
    public var shown: String
    /// The word as written after `|` (or the whole reference without one).
    public var word: String
    public var key: TermKey
    public var location: SourceLocation

    public init(shown: String, word: String, key: TermKey, location: SourceLocation) {
        self.shown = shown
        self.word = word
        self.key = key
        self.location = location
    }
}

/// A link or image destination written in markdown, kept so `glossary check` can verify internal ones.
public struct MarkdownLink: Hashable, Sendable {
    public var destination: String
    public var isImage: Bool
    public var location: SourceLocation
}
