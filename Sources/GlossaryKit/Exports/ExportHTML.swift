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
        guard html.contains(" href=\"") || html.contains(" src=\"") else { return html }
        var result = ""
        result.reserveCapacity(html.utf8.count + 64)
        var rest = Substring(html)
        while let attribute = nextURLAttribute(in: rest) {
            result += rest[..<attribute.valueStart]
            let value = rest[attribute.valueStart..<attribute.valueEnd]
            result += resolved(String(value), page: page, origin: origin)
            rest = rest[attribute.valueEnd...]
        }
        result += rest
        return result
    }

    /// Where the next ` href="…"` or ` src="…"` value starts and ends.
    private static func nextURLAttribute(in text: Substring) -> (valueStart: String.Index, valueEnd: String.Index)? {
        let href = text.range(of: " href=\"")
        let src = text.range(of: " src=\"")
        guard let open = [href, src].compactMap({ $0 }).min(by: { $0.lowerBound < $1.lowerBound }) else { return nil }
        guard let close = text[open.upperBound...].firstIndex(of: "\"") else { return nil }
        return (open.upperBound, close)
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
        var lines: [String] = []
        var line = ""
        var pendingSpace = false
        var preformatted = 0
        func endLine() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if !trimmed.isEmpty { lines.append(trimmed) }
            line = ""
            pendingSpace = false
        }
        func append(_ text: Substring) {
            for character in decoded(text) {
                if preformatted > 0 {
                    if character == "\n" { endLine() } else { line.append(character) }
                } else if character.isWhitespace {
                    pendingSpace = !line.isEmpty
                } else {
                    if pendingSpace { line.append(" ") }
                    pendingSpace = false
                    line.append(character)
                }
            }
        }
        var rest = Substring(html)
        while let open = rest.firstIndex(of: "<") {
            append(rest[..<open])
            if rest[open...].hasPrefix("<!--") {
                let end = rest[open...].range(of: "-->")?.upperBound ?? rest.endIndex
                rest = rest[end...]
                continue
            }
            let close = rest[open...].firstIndex(of: ">").map { rest.index(after: $0) } ?? rest.endIndex
            let tag = rest[rest.index(after: open)..<close].prefix { $0.isLetter || $0.isNumber || $0 == "/" }.lowercased()
            let name = tag.hasPrefix("/") ? String(tag.dropFirst()) : tag
            if name == "pre" { preformatted += tag.hasPrefix("/") ? -1 : 1 }
            if name == "pre" || blockNames.contains(name) {
                endLine()
            } else if name == "td" || name == "th" {
                if tag.hasPrefix("/") { pendingSpace = !line.isEmpty }
            }
            rest = rest[close...]
        }
        append(rest)
        endLine()
        return lines.joined(separator: "\n")
    }

    private static let blockNames: Set<String> = [
        "p", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "hr", "br", "table", "thead", "tbody", "tr", "div", "dl", "dt", "dd",
        "section", "aside", "figure", "figcaption",
    ]

    /// Text with the character references HTML writers use decoded: the named ones of escaping, and numeric ones.
    static func decoded(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        var result = ""
        var rest = text
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            let afterAmp = rest.index(after: amp)
            if let semicolon = rest[afterAmp...].prefix(12).firstIndex(of: ";"), let scalar = reference(rest[afterAmp..<semicolon]) {
                result.unicodeScalars.append(scalar)
                rest = rest[rest.index(after: semicolon)...]
            } else {
                result.append("&")
                rest = rest[afterAmp...]
            }
        }
        return result + rest
    }

    private static func reference(_ name: Substring) -> Unicode.Scalar? {
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
