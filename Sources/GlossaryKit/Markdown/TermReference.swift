/// A `[[word]]` or `[[shown text|word]]` found in a page's text, or a plain occurrence of a term auto-linking found.
public struct TermReference: Hashable, Sendable {
    /// The text the reader sees (escapes already decoded).
    public var shown: String
    /// The word as written after `|` (or the whole reference without one).
    public var word: String
    public var key: TermKey
    public var location: SourceLocation
    /// Whether auto-linking found it (a plain occurrence of a term), rather than the writer marking it.
    public var isAutomatic: Bool

    public init(shown: String, word: String, key: TermKey, location: SourceLocation, isAutomatic: Bool = false) {
        self.shown = shown
        self.word = word
        self.key = key
        self.location = location
        self.isAutomatic = isAutomatic
    }
}
