/// Escaping for text placed in HTML attributes or text by Swift code (templates escape on their own, alike).
public enum HTML {
    public static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.unicodeScalars.append(isHidden(character) ? "\u{FFFD}" : character)
            }
        }
        return result
    }

    /// Characters text from outside must not bring into a page: control characters (but tab, LF and CR), which HTML
    /// forbids, and the bidirectional overrides (U+202D, U+202E), which make text read otherwise than it is stored.
    /// Escaped text shows each as U+FFFD.
    public static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x08, 0x0B, 0x0C, 0x0E...0x1F, 0x7F...0x9F, 0x202D, 0x202E: true
        default: false
        }
    }

    /// The length of the hidden character (`isHidden`) starting with the lead byte 0xC2 or 0xE2 at `index` of UTF-8
    /// `bytes`, 0 when it starts none.
    static func hiddenWidth(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        guard index + 1 < bytes.count else { return 0 }
        if bytes[index] == 0xC2 { return (0x80...0x9F).contains(bytes[index + 1]) ? 2 : 0 }
        guard index + 2 < bytes.count, bytes[index + 1] == 0x80 else { return 0 }
        return bytes[index + 2] == 0xAD || bytes[index + 2] == 0xAE ? 3 : 0
    }
}
