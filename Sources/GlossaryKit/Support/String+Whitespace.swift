import Foundation

extension String {
    /// `trimmingCharacters(in: .whitespacesAndNewlines)`, without Foundation's bridging when nothing needs
    /// trimming at either end (nearly every string read from the dictionary's JSON).
    var trimmingWhitespace: String {
        let bytes = utf8
        guard let first = bytes.first, let last = bytes.last else { return self }
        if Self.isPlainASCII(first) && Self.isPlainASCII(last) { return self }
        return trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether the string is empty or only white space (Unicode's, as Foundation's set has it).
    var isBlank: Bool {
        for byte in utf8 {
            if Self.isPlainASCII(byte) { return false }
            if byte >= 0x80 { return trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
        }
        return true
    }

    /// An ASCII byte that is not white space: in ASCII, Foundation's set is the space and tab to carriage return.
    private static func isPlainASCII(_ byte: UInt8) -> Bool { byte < 0x80 && byte != 0x20 && !(0x09...0x0D).contains(byte) }
}
