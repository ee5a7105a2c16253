/// A piece of template source: a run of text or one tag.
struct MustacheToken {
    enum Kind {
        case text
        case variable
        case unescapedVariable
        case section
        case invertedSection
        case closing
        case comment
        case partial
        case parent
        case block
        case setDelimiters
    }

    let kind: Kind
    /// The literal text for `.text`, the trimmed name for tags.
    let content: String
    /// UTF-8 offset of the token in the source, for error positions.
    let offset: Int

    /// Text tokens end at the first line break, so only their last character can be one.
    var endsLine: Bool { kind == .text && content.utf8.last == UInt8(ascii: "\n") }

    /// Whether this is text made only of spaces and tabs, as found before a tag on its line.
    var isIndentation: Bool {
        kind == .text && content.utf8.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
    }

    /// Whether this is text holding nothing but whitespace up to and including its line break (if any).
    var isBlankLineRest: Bool {
        kind == .text
            && content.utf8.allSatisfy {
                $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n")
            }
    }

    /// The spaces and tabs this text starts with.
    var leadingIndentation: String {
        kind == .text ? String(content.prefix { $0 == " " || $0 == "\t" }) : ""
    }
}
