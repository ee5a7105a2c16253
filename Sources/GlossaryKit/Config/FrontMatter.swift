/// Finds a page's YAML front matter: a first line `---`, up to the next line `---` or `...`.
///
/// Trailing spaces on the delimiter lines and a UTF-8 byte order mark before the first one are
/// allowed. Lines end at LF, CRLF or a lone CR — the breaks libyaml and cmark count too, so line
/// numbers agree across the stages. Works on the UTF-8 bytes: it runs for every page of every build.
public enum FrontMatter {
    /// - Throws: `front-matter-unclosed` at 1:1 when the opening `---` has no closing line.
    public static func split(_ source: String, file: String) throws(Diagnostic) -> FrontMatterSplit {
        var copy = source
        let found: FrontMatterSplit? = copy.withUTF8 { bytes in
            let start = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
            func text(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
            guard let opening = line(bytes, at: start), isDelimiter(bytes, opening.text, closing: false) else {
                return FrontMatterSplit(yaml: nil, body: text(start..<bytes.count), yamlFirstLine: 1, bodyFirstLine: 1)
            }
            var lineStart = opening.next
            var lineNumber = 2
            while let current = line(bytes, at: lineStart) {
                if isDelimiter(bytes, current.text, closing: true) {
                    return FrontMatterSplit(
                        yaml: text(opening.next..<lineStart), body: text(current.next..<bytes.count), yamlFirstLine: 2, bodyFirstLine: lineNumber + 1)
                }
                lineStart = current.next
                lineNumber += 1
            }
            return nil
        }
        guard let found else { throw Diagnostic(.frontMatterUnclosed, at: .start(of: file)) }
        return found
    }

    /// The line starting at `start` without its line break, and where the next line starts; nil at the end.
    private static func line(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> (text: Range<Int>, next: Int)? {
        guard start < bytes.count else { return nil }
        var index = start
        while index < bytes.count {
            switch bytes[index] {
            case 0x0A: return (start..<index, index + 1)
            case 0x0D: return (start..<index, index + 1 < bytes.count && bytes[index + 1] == 0x0A ? index + 2 : index + 1)
            default: index += 1
            }
        }
        return (start..<bytes.count, bytes.count)
    }

    /// `---` (or `...` when closing), then nothing but spaces and tabs.
    private static func isDelimiter(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>, closing: Bool) -> Bool {
        var end = line.upperBound
        while end > line.lowerBound && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
        guard end - line.lowerBound == 3 else { return false }
        let first = bytes[line.lowerBound]
        guard first == UInt8(ascii: "-") || (closing && first == UInt8(ascii: ".")) else { return false }
        return bytes[line.lowerBound + 1] == first && bytes[line.lowerBound + 2] == first
    }
}
