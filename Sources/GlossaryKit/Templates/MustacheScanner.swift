/// Splits template source into text and tags, following `{{=<% %>=}}` delimiter changes.
///
/// Works on UTF-8 bytes: delimiters are matched byte for byte, which is exact for any UTF-8 delimiter.
struct MustacheScanner {
    private let bytes: [UInt8]
    private let templateName: String
    private var openingDelimiter = Array("{{".utf8)
    private var closingDelimiter = Array("}}".utf8)
    private var tokens: [MustacheToken] = []

    private init(bytes: [UInt8], templateName: String) {
        self.bytes = bytes
        self.templateName = templateName
    }

    static func tokens(in bytes: [UInt8], templateName: String) throws(MustacheError) -> [MustacheToken] {
        var scanner = MustacheScanner(bytes: bytes, templateName: templateName)
        try scanner.scan()
        return scanner.tokens
    }

    private mutating func scan() throws(MustacheError) {
        var textStart = 0
        var index = 0
        while index < bytes.count {
            if bytes[index] == openingDelimiter[0], matches(openingDelimiter, at: index) {
                appendText(textStart..<index)
                index = try scanTag(at: index)
                textStart = index
            } else {
                index += 1
            }
        }
        appendText(textStart..<bytes.count)
    }

    /// Adds text as one token per line, so standalone-line checks only ever look at neighbouring tokens.
    private mutating func appendText(_ range: Range<Int>) {
        var lineStart = range.lowerBound
        for index in range where bytes[index] == UInt8(ascii: "\n") {
            tokens.append(MustacheToken(kind: .text, content: string(lineStart..<index + 1), offset: lineStart))
            lineStart = index + 1
        }
        if lineStart < range.upperBound {
            tokens.append(MustacheToken(kind: .text, content: string(lineStart..<range.upperBound), offset: lineStart))
        }
    }

    /// Reads the tag starting at `start` and returns the offset just past it.
    private mutating func scanTag(at start: Int) throws(MustacheError) -> Int {
        let contentStart = start + openingDelimiter.count
        let sigil = contentStart < bytes.count ? bytes[contentStart] : 0
        if sigil == UInt8(ascii: "{") || sigil == UInt8(ascii: "=") {
            // `{{{name}}}` and `{{=<% %>=}}` end with their sigil's partner right before the closing delimiter.
            let partner = sigil == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "=")
            let contentEnd = try find([partner] + closingDelimiter, from: contentStart + 1, tagStart: start)
            let end = contentEnd + 1 + closingDelimiter.count
            if sigil == UInt8(ascii: "=") {
                try setDelimiters(from: contentStart + 1..<contentEnd, tagStart: start)
                tokens.append(MustacheToken(kind: .setDelimiters, content: "", offset: start))
            } else {
                let name = try tagName(contentStart + 1..<contentEnd, tagStart: start)
                tokens.append(MustacheToken(kind: .unescapedVariable, content: name, offset: start))
            }
            return end
        }

        let contentEnd = try find(closingDelimiter, from: contentStart, tagStart: start)
        let kind: MustacheToken.Kind
        switch sigil {
        case UInt8(ascii: "#"): kind = .section
        case UInt8(ascii: "^"): kind = .invertedSection
        case UInt8(ascii: "/"): kind = .closing
        case UInt8(ascii: ">"): kind = .partial
        case UInt8(ascii: "<"): kind = .parent
        case UInt8(ascii: "$"): kind = .block
        case UInt8(ascii: "&"): kind = .unescapedVariable
        case UInt8(ascii: "!"): kind = .comment
        default: kind = .variable
        }
        let nameStart = kind == .variable ? contentStart : contentStart + 1
        let name = kind == .comment ? "" : try tagName(nameStart..<contentEnd, tagStart: start)
        tokens.append(MustacheToken(kind: kind, content: name, offset: start))
        return contentEnd + closingDelimiter.count
    }

    private func tagName(_ range: Range<Int>, tagStart: Int) throws(MustacheError) -> String {
        let name = string(range).trimmed()
        if name.isEmpty {
            throw error("tag has no name", at: tagStart)
        }
        if name.contains(where: \.isWhitespace) {
            throw error("tag name '\(name)' contains whitespace", at: tagStart)
        }
        return name
    }

    private mutating func setDelimiters(from range: Range<Int>, tagStart: Int) throws(MustacheError) {
        let parts = string(range).split(whereSeparator: \.isWhitespace)
        guard parts.count == 2, !parts.contains(where: { $0.contains("=") }) else {
            throw error("set-delimiters tag needs two delimiters without '=', such as {{=<% %>=}}", at: tagStart)
        }
        openingDelimiter = Array(parts[0].utf8)
        closingDelimiter = Array(parts[1].utf8)
    }

    private func find(_ needle: [UInt8], from start: Int, tagStart: Int) throws(MustacheError) -> Int {
        var index = start
        while index + needle.count <= bytes.count {
            if matches(needle, at: index) { return index }
            index += 1
        }
        let closing = String(decoding: needle, as: UTF8.self)
        throw error("tag is never closed: no '\(closing)' follows", at: tagStart)
    }

    private func matches(_ needle: [UInt8], at index: Int) -> Bool {
        guard index + needle.count <= bytes.count else { return false }
        for offset in needle.indices where bytes[index + offset] != needle[offset] {
            return false
        }
        return true
    }

    private func string(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    private func error(_ message: String, at offset: Int) -> MustacheError {
        MustacheError(message, at: offset, in: bytes, templateName: templateName)
    }
}

extension String {
    fileprivate func trimmed() -> String {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map(index(after:)) ?? start
        return String(self[start..<end])
    }
}
