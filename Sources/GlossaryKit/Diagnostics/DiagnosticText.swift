/// How text from outside (words, paths, URLs, answers) appears inside a message: control characters
/// escaped, so it can't break a line or move the cursor, and long text shortened, so a 100,000-character
/// term doesn't flood the terminal.
public enum DiagnosticText {
    /// At most this many characters of an outside value are shown.
    public static let maximumLength = 80

    /// `text` in single quotes, escaped and shortened.
    public static func quoted(_ text: String) -> String {
        "'" + shortened(escaped(text)) + "'"
    }

    /// `text` with every control character written as an escape (`\n`, `\t`, `\u{1B}`).
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if isControl(scalar) {
                    result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// The first `maximumLength` characters and `…` when the text is longer.
    public static func shortened(_ text: String, to limit: Int = maximumLength) -> String {
        guard text.count > limit else { return text }
        return text.prefix(limit - 1) + "…"
    }

    /// C0 and C1 controls, DEL, the line and paragraph separators and the bidirectional overrides (which
    /// could make a terminal show text in another order than it is).
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F..<0xA0, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
