/// Text and attribute values for the XML files glossary writes (the TBX export, the sitemap).
enum XMLText {
    /// `text` escaped for element content, or for a double-quoted attribute when `attribute`; characters XML 1.0
    /// does not allow (most control characters, U+FFFE, U+FFFF) become U+FFFD, so the document stays well-formed
    /// whatever the text.
    static func escaped(_ text: String, attribute: Bool = false) -> String {
        guard needsEscape(text, attribute: attribute) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            // In attributes, references keep value normalisation from turning them into spaces; a CR anywhere
            // would be read as a line end.
            case "\t": result += attribute ? "&#9;" : "\t"
            case "\n": result += attribute ? "&#10;" : "\n"
            case "\r": result += "&#13;"
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    result += "\u{FFFD}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// Whether `escaped` changes `text`, on bytes (most text has nothing to escape, and is then returned as it is).
    static func needsEscape(_ text: String, attribute: Bool) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            for (index, byte) in bytes.enumerated() {
                switch byte {
                case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "\r"): return true
                case UInt8(ascii: "\t"), UInt8(ascii: "\n"): if attribute { return true }
                case ..<0x20: return true
                // U+FFFE and U+FFFF: EF BF BE and EF BF BF.
                case 0xEF where index + 2 < bytes.count && bytes[index + 1] == 0xBF && bytes[index + 2] >= 0xBE: return true
                default: continue
                }
            }
            return false
        }
    }
}
