/// Text and attribute values for the XML files glossary writes (the TBX export, the sitemap).
enum XMLText {
    /// `text` escaped for element content, or for a double-quoted attribute when `attribute`; characters XML 1.0
    /// does not allow (most control characters, U+FFFE, U+FFFF) become U+FFFD, so the document stays well-formed
    /// whatever the text.
    static func escaped(_ text: String, attribute: Bool = false) -> String {
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
}
