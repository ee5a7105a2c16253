/// Finds a page's YAML front matter: a first line `---`, up to the next line `---` or `...`.
///
/// Trailing spaces on the delimiter lines and a UTF-8 byte order mark before the first one are
/// allowed. Lines end at LF, CRLF or a lone CR — the breaks libyaml and cmark count too, so line
/// numbers agree across the stages.
public enum FrontMatter {
    /// - Throws: `front-matter-unclosed` at 1:1 when the opening `---` has no closing line.
    public static func split(_ source: String, file: String) throws(Diagnostic) -> FrontMatterSplit {
        let utf8 = source.utf8
        let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
        let start = utf8.starts(with: byteOrderMark) ? utf8.index(utf8.startIndex, offsetBy: 3) : utf8.startIndex

        guard let opening = line(of: source, at: start), isDelimiter(opening.text, closing: false) else {
            return FrontMatterSplit(yaml: nil, body: String(source[start...]), yamlFirstLine: 1, bodyFirstLine: 1)
        }
        let yamlStart = opening.next
        var lineStart = yamlStart
        var lineNumber = 2
        while let current = line(of: source, at: lineStart) {
            if isDelimiter(current.text, closing: true) {
                return FrontMatterSplit(
                    yaml: String(source[yamlStart..<lineStart]),
                    body: String(source[current.next...]),
                    yamlFirstLine: 2,
                    bodyFirstLine: lineNumber + 1)
            }
            lineStart = current.next
            lineNumber += 1
        }
        throw Diagnostic(.frontMatterUnclosed, at: .start(of: file))
    }

    /// The line starting at `start` without its line break, and where the next line starts; nil at
    /// the end of the text.
    private static func line(of source: String, at start: String.Index) -> (text: Substring, next: String.Index)? {
        let utf8 = source.utf8
        guard start < utf8.endIndex else { return nil }
        var index = start
        while index < utf8.endIndex {
            let byte = utf8[index]
            let after = utf8.index(after: index)
            if byte == UInt8(ascii: "\n") {
                return (source[start..<index], after)
            }
            if byte == UInt8(ascii: "\r") {
                let next = after < utf8.endIndex && utf8[after] == UInt8(ascii: "\n") ? utf8.index(after: after) : after
                return (source[start..<index], next)
            }
            index = after
        }
        return (source[start...], utf8.endIndex)
    }

    /// On bytes: every line of an unclosed front matter is checked, and building a trimmed `String` of each
    /// took most of the time of reading such a page.
    private static func isDelimiter(_ line: Substring, closing: Bool) -> Bool {
        var bytes = line.utf8[...]
        while let last = bytes.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { bytes = bytes.dropLast() }
        return bytes.elementsEqual("---".utf8) || (closing && bytes.elementsEqual("...".utf8))
    }
}
