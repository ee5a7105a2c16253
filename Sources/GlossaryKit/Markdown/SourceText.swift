/// Inline markdown cut out of a source file (a table cell, or the paragraph text before a table), with the file
/// position of each of its bytes, so term references found in it are reported where they really stand.
///
/// The text is not a plain copy of the source: `\|` was un-escaped to `|` and, across lines, the container
/// prefixes and leading whitespace were left out; `location(atUTF8Offset:)` undoes both.
public struct SourceText: Hashable, Sendable {
    /// The inline markdown, lines joined with `\n`.
    public var text: String
    /// Where the first byte of `text` stands in the file (for empty text: where it would stand).
    public var location: SourceLocation { location(atUTF8Offset: 0) }

    /// One source line's part of `text`.
    struct Segment: Hashable, Sendable {
        /// UTF-8 offset in `text` where this line's part starts.
        var textOffset: Int
        var line: Int
        /// 1-based column (Unicode scalars) in the file of the segment's first byte.
        var column: Int
        /// UTF-8 offsets in `text` of each `|` whose escaping backslash was removed, ascending.
        var unescapedPipes: [Int]
    }

    let file: String
    let segments: [Segment]

    init(text: String, file: String, segments: [Segment]) {
        self.text = text
        self.file = file
        self.segments = segments
    }

    /// The file position of the byte at UTF-8 offset `offset` of `text` (the end of the text for larger offsets).
    public func location(atUTF8Offset offset: Int) -> SourceLocation {
        guard let segment = segments.last(where: { $0.textOffset <= offset }) ?? segments.first else {
            return SourceLocation(file: file, line: 0, column: 0)
        }
        let utf8 = text.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: min(segment.textOffset, utf8.count))
        let end = utf8.index(utf8.startIndex, offsetBy: min(max(offset, segment.textOffset), utf8.count))
        // Every byte that is not a UTF-8 continuation byte starts a scalar; each removed backslash was one more.
        let scalars = utf8[start..<end].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        let backslashes = segment.unescapedPipes.prefix { $0 <= offset }.count
        return SourceLocation(file: file, line: segment.line, column: segment.column + scalars + backslashes)
    }
}
