import Foundation

/// The definition HTML the exports carry (a glossary entry's body as its term page shows it), made to stand on its
/// own elsewhere: its links absolute (or site-absolute, without an address), and its text as plain text.
///
/// The HTML is glossary's own (libcmark's output and the term links around references): tags with double-quoted
/// attributes, text escaped with `&amp;`, `&lt;`, `&gt;` and `&quot;`, raw HTML replaced by comments.
enum ExportHTML {
    /// `html` with each `href` and `src` that is not a full URL resolved against `page` (the path of the term
    /// page, `/docs/terms/kerning/`), then prefixed with `origin` (`https://example.org`, or nothing).
    static func absolutized(_ html: String, page: String, origin: String) -> String {
        var text = html
        // On bytes: every entry's HTML is looked at, and most have no link.
        let made: String? = text.withUTF8 { bytes in
            var result = ""
            var copied = 0
            while let (start, end) = nextURLAttribute(in: bytes, from: copied) {
                if copied == 0 { result.reserveCapacity(bytes.count + 64) }
                result += String(decoding: UnsafeBufferPointer(rebasing: bytes[copied..<start]), as: UTF8.self)
                result += resolved(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self), page: page, origin: origin)
                copied = end
            }
            guard copied > 0 else { return nil }
            return result + String(decoding: UnsafeBufferPointer(rebasing: bytes[copied...]), as: UTF8.self)
        }
        return made ?? html
    }

    private static let urlAttributes: [[UInt8]] = [Array(" href=\"".utf8), Array(" src=\"".utf8)]

    /// Where the value of the next ` href="…"` or ` src="…"` from `offset` starts and ends, in `bytes`.
    private static func nextURLAttribute(in bytes: UnsafeBufferPointer<UInt8>, from offset: Int) -> (start: Int, end: Int)? {
        var index = offset
        while let space = bytes[index...].firstIndex(of: UInt8(ascii: " ")) {
            index = space + 1
            guard let name = urlAttributes.first(where: { bytes[space...].starts(with: $0) }) else { continue }
            let start = space + name.count
            guard let end = bytes[start...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
            return (start, end)
        }
        return nil
    }

    /// A link target as written in the HTML (still entity-escaped), resolved.
    static func resolved(_ value: String, page: String, origin: String) -> String {
        if value.hasPrefix("//") || LinkRewriter.hasScheme(String(value.prefix { $0 != "/" && $0 != "?" && $0 != "#" })) { return value }
        if value.hasPrefix("/") { return origin + value }
        if value.hasPrefix("#") || value.hasPrefix("?") || value.isEmpty { return origin + page + value }
        let cut = value.firstIndex { $0 == "?" || $0 == "#" } ?? value.endIndex
        let path = value[..<cut]
        let trailing = path.hasSuffix("/") || path.hasSuffix("/.") || path.hasSuffix("/..") || path == "." || path == ".."
        let normalized = LinkRewriter.normalize(String(page.dropFirst()) + path)
        return origin + "/" + normalized + (trailing && !normalized.isEmpty ? "/" : "") + value[cut...]
    }

    /// The text of `html`: one line per block (paragraph, list item, heading, quote, table row), inline markup
    /// dropped, runs of white space made one space, code blocks kept line for line.
    static func plainText(_ html: String) -> String {
        var html = html
        return html.withUTF8 { HTMLPlainText($0).text }
    }
    static let blockNames: Set<String> = [
        "p", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "hr", "br", "table", "thead", "tbody", "tr", "div", "dl", "dt", "dd",
        "section", "aside", "figure", "figcaption",
    ]

    /// The character a reference names (`amp`, `#39`, `#x27`): the named ones of escaping, and numeric ones.
    static func reference(_ name: Substring) -> Unicode.Scalar? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        case "nbsp": return "\u{A0}"
        default:
            guard name.hasPrefix("#") else { return nil }
            let digits = name.dropFirst()
            let value = digits.hasPrefix("x") || digits.hasPrefix("X") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            return value.flatMap(Unicode.Scalar.init).flatMap { $0.value == 0 ? nil : $0 }
        }
    }
}

/// `ExportHTML.plainText`'s reading of the HTML, a byte at a time: tags end lines or are dropped, character references
/// are decoded, white space (`Character.isWhitespace`'s, with the marks a space carries) collapses outside `<pre>`.
private struct HTMLPlainText {
    private var lines: [String] = []
    private var line: [UInt8] = []
    private var pendingSpace = false
    private var preformatted = 0

    init(_ html: UnsafeBufferPointer<UInt8>) {
        var index = 0
        while index < html.count {
            let byte = html[index]
            if byte == UInt8(ascii: "<") {
                index = tag(html, at: index)
            } else if byte == UInt8(ascii: "&"), let (scalar, end) = Self.reference(html, at: index) {
                var utf8 = [UInt8]()
                utf8.append(contentsOf: String(Character(scalar)).utf8)
                add(scalar, utf8[...])
                index = end
            } else {
                let length = byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
                let end = min(html.count, index + length)
                let bytes = html[index..<end]
                let scalar = byte < 0x80 ? Unicode.Scalar(byte) : String(decoding: bytes, as: UTF8.self).unicodeScalars.first ?? "\u{FFFD}"
                add(scalar, bytes)
                index = end
            }
        }
        endLine()
    }

    var text: String { lines.joined(separator: "\n") }

    /// True after a white-space scalar outside `<pre>`: the marks that follow it belong to it, and go with it.
    private var inSpace = false

    private mutating func add(_ scalar: Unicode.Scalar, _ bytes: some Collection<UInt8>) {
        if preformatted > 0 {
            if scalar == "\n" { endLine() } else { line.append(contentsOf: bytes) }
            return
        }
        let space = scalar.value < 0x80 ? (0x09...0x0D).contains(scalar.value) || scalar == " " : scalar.properties.isWhitespace
        if space || (inSpace && scalar.value >= 0x300 && (scalar.properties.isGraphemeExtend || scalar == "\u{200D}")) {
            pendingSpace = !line.isEmpty
            inSpace = true
            return
        }
        inSpace = false
        if pendingSpace { line.append(UInt8(ascii: " ")) }
        pendingSpace = false
        line.append(contentsOf: bytes)
    }

    private mutating func endLine() {
        // Only a line that starts or ends in a space, a tab or a non-ASCII character may have anything to trim.
        let mayTrim = { (byte: UInt8?) in byte.map { $0 == 0x20 || $0 == 0x09 || $0 >= 0x80 } ?? false }
        let text = String(decoding: line, as: UTF8.self)
        let trimmed = mayTrim(line.first) || mayTrim(line.last) ? text.trimmingCharacters(in: .whitespaces) : text
        if !trimmed.isEmpty { lines.append(trimmed) }
        line.removeAll(keepingCapacity: true)
        pendingSpace = false
        inSpace = false
    }

    /// Reads the tag or comment at `start` (a `<`); returns where the text after it starts.
    private mutating func tag(_ html: UnsafeBufferPointer<UInt8>, at start: Int) -> Int {
        if Self.matches(html, at: start, "<!--") {
            var index = start + 2  // `<!-->` and `<!--->` are whole comments
            while index < html.count && !Self.matches(html, at: index, "-->") { index += 1 }
            return min(html.count, index + 3)
        }
        var close = start + 1
        while close < html.count && html[close] != UInt8(ascii: ">") { close += 1 }
        let end = min(html.count, close + 1)
        var nameEnd = start + 1
        while nameEnd < close, Self.isNameByte(html[nameEnd]) { nameEnd += 1 }
        // A name that goes on in non-ASCII letters is no HTML element's.
        guard nameEnd == close || html[nameEnd] < 0x80 else { return end }
        let tag = String(decoding: html[(start + 1)..<nameEnd], as: UTF8.self).lowercased()
        let closing = tag.hasPrefix("/")
        let name = closing ? String(tag.dropFirst()) : tag
        if name == "pre" { preformatted += closing ? -1 : 1 }
        if name == "pre" || ExportHTML.blockNames.contains(name) {
            endLine()
        } else if (name == "td" || name == "th") && closing {
            pendingSpace = !line.isEmpty
        }
        return end
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == UInt8(ascii: "/")
    }

    private static func matches(_ html: UnsafeBufferPointer<UInt8>, at index: Int, _ text: StaticString) -> Bool {
        guard index + text.utf8CodeUnitCount <= html.count else { return false }
        for offset in 0..<text.utf8CodeUnitCount where html[index + offset] != text.utf8Start[offset] { return false }
        return true
    }

    /// The character reference at `start` (an `&`) with where it ends, when `ExportHTML.reference` knows it (at most 12 bytes to its `;`).
    private static func reference(_ html: UnsafeBufferPointer<UInt8>, at start: Int) -> (Unicode.Scalar, Int)? {
        var semicolon = start + 1
        while semicolon < html.count && semicolon <= start + 12 && html[semicolon] != UInt8(ascii: ";") { semicolon += 1 }
        guard semicolon < html.count, html[semicolon] == UInt8(ascii: ";") else { return nil }
        let name = String(decoding: html[(start + 1)..<semicolon], as: UTF8.self)
        return ExportHTML.reference(Substring(name)).map { ($0, semicolon + 1) }
    }
}
