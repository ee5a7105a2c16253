import Foundation

extension String {
    /// `trimmingCharacters(in: .whitespacesAndNewlines)`, without Foundation's bridging when only ASCII white space
    /// needs trimming at either end (nearly every string read from the dictionary's JSON, every page's text).
    var trimmingWhitespace: String {
        let bytes = utf8
        guard let first = bytes.first, let last = bytes.last else { return self }
        if Self.isPlainASCII(first) && Self.isPlainASCII(last) { return self }
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, Self.isASCIISpace(bytes[start]) { start = bytes.index(after: start) }
        while start < end, Self.isASCIISpace(bytes[bytes.index(before: end)]) { end = bytes.index(before: end) }
        if start == end { return "" }
        guard Self.isPlainASCII(bytes[start]) && Self.isPlainASCII(bytes[bytes.index(before: end)]) else {
            return trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return String(self[start..<end])
    }

    /// Whether the string is empty or only white space (Unicode's, as Foundation's set has it).
    var isBlank: Bool {
        for byte in utf8 {
            if Self.isPlainASCII(byte) { return false }
            if byte >= 0x80 { return trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
        }
        return true
    }

    private static func isASCIISpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

    /// An ASCII byte that is not white space: in ASCII, Foundation's set is the space and tab to carriage return.
    private static func isPlainASCII(_ byte: UInt8) -> Bool { byte < 0x80 && byte != 0x20 && !(0x09...0x0D).contains(byte) }
}
