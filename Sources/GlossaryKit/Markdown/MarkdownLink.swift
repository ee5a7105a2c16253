/// A link or image destination written in markdown, kept so `glossary check` can verify internal ones.
public struct MarkdownLink: Hashable, Sendable {
    public var destination: String
    public var isImage: Bool
    public var location: SourceLocation
}
