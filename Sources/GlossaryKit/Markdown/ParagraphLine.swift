/// One source line of a paragraph as cmark parsed it: what `PipeTable.split` reads.
///
/// `ParagraphLine.lines(in:…)` builds them from cmark's node positions; tests may build them by hand.
public struct ParagraphLine: Hashable, Sendable {
    /// The line's number in the file.
    public let number: Int
    /// The whole source line, without its line ending.
    public let bytes: [UInt8]
    /// 1-based byte column where the paragraph's content starts on this line, after its container prefix (the
    /// `>` of block quotes, a list item's indentation). Leading whitespace after it does not matter, except on
    /// lazy lines.
    public let contentColumn: Int
    /// A lazy continuation line lacks part of its container prefix (`> a` then `b`). cmark-gfm keeps its leading
    /// whitespace in the paragraph text and never lets a table row be lazy.
    public let isLazy: Bool
    /// 0-based visual column (tabs stop at multiples of 4) at `contentColumn`: it differs from the byte column
    /// when a container's prefix consumed part of a tab.
    let contentWidth: Int

    public init(number: Int, bytes: [UInt8], contentColumn: Int, isLazy: Bool = false) {
        let bytes = bytes.last == UInt8(ascii: "\r") ? Array(bytes.dropLast()) : bytes
        let start = min(max(contentColumn - 1, 0), bytes.count)
        self.init(number: number, bytes: bytes, contentStart: start, contentWidth: Self.width(of: bytes[..<start]), isLazy: isLazy)
    }

    init(number: Int, bytes: [UInt8], contentStart: Int, contentWidth: Int, isLazy: Bool) {
        self.number = number
        self.bytes = bytes
        self.contentColumn = contentStart + 1
        self.isLazy = isLazy
        self.contentWidth = contentWidth
    }

    /// 0-based byte offset of the content start.
    var contentStart: Int { contentColumn - 1 }

    /// The visual width of `bytes` from the line start, as cmark counts columns (a tab advances to the next
    /// multiple of 4; every other byte counts one).
    static func width(of bytes: ArraySlice<UInt8>, from column: Int = 0) -> Int {
        bytes.reduce(column) { column, byte in byte == UInt8(ascii: "\t") ? column + 4 - column % 4 : column + 1 }
    }

    /// The first byte at or after the content start that is not a space or tab, and its indentation (visual
    /// columns) relative to the content start, as cmark's `first_nonspace` finds it.
    var firstNonSpace: (offset: Int, indent: Int) {
        var offset = contentStart
        var column = contentWidth
        while offset < bytes.count {
            switch bytes[offset] {
            case UInt8(ascii: " "): column += 1
            case UInt8(ascii: "\t"): column += 4 - column % 4
            default: return (offset, column - contentWidth)
            }
            offset += 1
        }
        return (offset, column - contentWidth)
    }
}
