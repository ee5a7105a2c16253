/// Term summaries made safe and short for other sites (the term API): HTML keeps only an allow-list of inline
/// elements, and text is cut after a number of characters.
///
/// The HTML it reads is cmark's (well-formed, attributes double-quoted, text escaped); anything else it meets is
/// still made safe: an element off the list leaves its text (a `script`, `style`, `iframe`, `object`, `svg`, `math`
/// or `template` not even that), every attribute but a link's `href` is dropped, and an `href` stays only when it is
/// `http:`, `https:`, `mailto:` or has no scheme, and holds no character reference but `&amp;`.
public enum SummarySanitizer {
    static let kept: Set<String> = ["em", "strong", "code", "del", "br", "a"]
    static let dropped: Set<String> = ["script", "style", "iframe", "object", "svg", "math", "template", "textarea", "title"]

    /// `text` cut after `limit` characters, at a space when one is near, with `…` after a cut.
    public static func plain(_ text: String, limit: Int) -> String {
        guard text.count > limit else { return text }
        var cut = String(text.prefix(limit))
        if let space = cut.lastIndex(of: " "), cut.distance(from: space, to: cut.endIndex) < 40 { cut = String(cut[..<space]) }
        return cut + "…"
    }

    /// `html` with only the allowed elements, its text cut after `limit` characters (an entity counts as one).
    public static func html(_ html: String, limit: Int) -> String {
        // Text without markup or entities, short enough, is kept as it is (most summaries).
        if !html.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "&") }),
            html.utf8.count <= limit || html.count <= limit
        {
            return html.trimmingSpaces
        }
        var out = ""
        var open: [String] = []
        var skipping: String?
        var count = 0
        var index = html.startIndex
        while index < html.endIndex {
            let character = html[index]
            if character == "<", let end = html[index...].firstIndex(of: ">") {
                let tag = Tag(html[html.index(after: index)..<end])
                index = html.index(after: end)
                if let skip = skipping {
                    if tag.closing && tag.name == skip { skipping = nil }
                    continue
                }
                if dropped.contains(tag.name) && !tag.closing && !tag.selfClosing {
                    skipping = tag.name
                    continue
                }
                guard kept.contains(tag.name) else { continue }
                if tag.closing {
                    guard let last = open.lastIndex(of: tag.name) else { continue }
                    for name in open[last...].reversed() { out += "</\(name)>" }
                    open.removeSubrange(last...)
                } else if tag.name == "br" {
                    out += "<br />"
                } else if tag.name == "a" {
                    out += tag.href.flatMap(safeHref).map { "<a href=\"\($0)\">" } ?? "<a>"
                    open.append("a")
                } else {
                    out += "<\(tag.name)>"
                    open.append(tag.name)
                }
                continue
            }
            if skipping != nil {
                index = html.index(after: index)
                continue
            }
            if count == limit {
                out += "…"
                break
            }
            if character == "&", let end = html[index...].prefix(12).firstIndex(of: ";") {
                out += html[index...end]
                index = html.index(after: end)
            } else {
                // A stray `<` or `>` (not from cmark) is written escaped.
                out += character == "<" ? "&lt;" : character == ">" ? "&gt;" : String(character)
                index = html.index(after: index)
            }
            count += 1
        }
        for name in open.reversed() { out += "</\(name)>" }
        return out.trimmingSpaces
    }

    /// An `href` as written (still entity-escaped), when it is safe to keep.
    static func safeHref(_ href: String) -> String? {
        // cmark writes every `&` of a URL as `&amp;`: any other character reference could spell a scheme (`&#x3a;`).
        guard !href.isEmpty && !href.contains("\"") && !href.contains("<") && !href.replacingOccurrences(of: "&amp;", with: "").contains("&") else {
            return nil
        }
        let lowered = href.lowercased().filter { !$0.isWhitespace && !$0.isASCIIControl }
        guard let colon = lowered.firstIndex(of: ":") else { return href }
        // A `:` after a `/`, `?` or `#` is no scheme's.
        if let other = lowered.firstIndex(where: { "/?#".contains($0) }), other < colon { return href }
        return ["http", "https", "mailto"].contains(String(lowered[..<colon])) ? href : nil
    }

    /// A tag's name (lower case), whether it closes or closes itself, and its `href`.
    struct Tag {
        var name = ""
        var closing = false
        var selfClosing = false
        var href: String?

        init(_ text: Substring) {
            var rest = text
            if rest.first == "/" {
                closing = true
                rest = rest.dropFirst()
            }
            selfClosing = rest.last == "/"
            name = String(rest.prefix { $0.isLetter || $0.isNumber }).lowercased()
            if let start = rest.range(of: "href=\"") {
                let value = rest[start.upperBound...]
                if let end = value.firstIndex(of: "\"") { href = String(value[..<end]) }
            }
        }
    }
}

extension Character {
    fileprivate var isASCIIControl: Bool { asciiValue.map { $0 < 0x20 || $0 == 0x7F } ?? false }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var text = Substring(self)
        while text.first == " " || text.first == "\n" { text = text.dropFirst() }
        while text.last == " " || text.last == "\n" { text = text.dropLast() }
        return String(text)
    }
}
