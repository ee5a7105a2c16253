import GlossaryKit

/// An open document's unsaved text as UTF-8 bytes, with the LSP's positions (0-based lines, UTF-16 code units) and
/// glossary's (1-based lines, columns in Unicode scalars) converted both ways.
struct TextDocument: Sendable {
    var uri: String
    var version: Int
    private(set) var bytes: [UInt8]
    /// Where each line starts, made when first needed after a change.
    private var lineStarts: [Int]

    init(uri: String, version: Int, text: String) {
        self.uri = uri
        self.version = version
        bytes = Array(text.utf8)
        lineStarts = Self.lineStarts(bytes)
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }
    var lineCount: Int { lineStarts.count }

    /// Where each line starts: after `\n`, `\r\n` or a `\r` alone, the line breaks of the LSP (and of cmark, which
    /// gives glossary's lines).
    static func lineStarts(_ bytes: [UInt8]) -> [Int] {
        var starts = [0]
        bytes.withUnsafeBufferPointer { buffer in
            for index in buffer.indices where buffer[index] == 10 || (buffer[index] == 13 && (index + 1 == buffer.count || buffer[index + 1] != 10)) {
                starts.append(index + 1)
            }
        }
        return starts
    }

    /// The bytes of line `line` (0-based) without its line break (`\r\n` whole).
    func line(_ line: Int) -> ArraySlice<UInt8> {
        guard line >= 0 && line < lineStarts.count else { return [] }
        var end = line + 1 < lineStarts.count ? lineStarts[line + 1] - 1 : bytes.count
        if end > lineStarts[line] && bytes[end - 1] == 13 { end -= 1 }
        return bytes[lineStarts[line]..<max(end, lineStarts[line])]
    }

    func lineText(_ number: Int) -> String { String(decoding: line(number), as: UTF8.self) }

    /// The byte offset of an LSP position; a character past the line's end stands for its end.
    func offset(line: Int, character: Int) -> Int {
        guard line < lineStarts.count else { return bytes.count }
        let slice = self.line(max(0, line))
        var units = 0
        var index = slice.startIndex
        while index < slice.endIndex && units < character {
            let byte = slice[index]
            let length = byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
            units += length == 4 ? 2 : 1
            index += length
        }
        return min(index, slice.endIndex)
    }

    /// The LSP position of a byte offset.
    func position(ofOffset offset: Int) -> (line: Int, character: Int) {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return (low, utf16Count(lineStarts[low]..<min(offset, bytes.count)))
    }

    /// The byte offset of glossary's `line:column` (1-based, the column in Unicode scalars).
    func offset(ofSourceLine line: Int, column: Int) -> Int {
        let slice = self.line(line - 1)
        var index = slice.startIndex
        var scalars = 1
        while index < slice.endIndex && scalars < column {
            let byte = slice[index]
            index += byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
            scalars += 1
        }
        return min(index, slice.endIndex)
    }

    func utf16Count(_ range: Range<Int>) -> Int {
        var units = 0
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            let length = byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
            units += length == 4 ? 2 : 1
            index += length
        }
        return units
    }

    /// Applies one change of `textDocument/didChange`: a range replaced, or (without a range) the whole text.
    mutating func apply(range: (start: (Int, Int), end: (Int, Int))?, text: String) {
        guard let range else {
            bytes = Array(text.utf8)
            lineStarts = Self.lineStarts(bytes)
            return
        }
        let start = offset(line: range.start.0, character: range.start.1)
        let end = max(start, offset(line: range.end.0, character: range.end.1))
        bytes.replaceSubrange(start..<end, with: text.utf8)
        lineStarts = Self.lineStarts(bytes)
    }

    /// The text of a byte range.
    func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
}
