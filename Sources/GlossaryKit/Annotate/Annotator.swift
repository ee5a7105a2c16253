import Foundation

/// `glossary annotate`: links the `[[word]]` and `[[shown text|word]]` another tool left in a built site's HTML to a
/// glossary's term pages, and adds the glossary's card stylesheet and script once per page.
///
/// Each file is edited at the byte offsets an HTML5 parser found (`HTMLSource`): a reference becomes
/// `<a class="glossary-term" href="URL" data-glossary-term="word">shown text</a>`, the stylesheet link and script go
/// before `</head>`, and every other byte stays as it was. A second run finds no reference and both tags in place, so
/// changes nothing.
public struct Annotator: Sendable {
    public var index: TermIndex
    /// Whether plain occurrences of the glossary's spellings are linked too: each term's first on a page, or all.
    public var autolink: AutolinkMode
    private let matcher: TermMatcher<String>?

    public init(index: TermIndex, autolink: AutolinkMode = .off) {
        self.index = index
        self.autolink = autolink
        matcher = autolink == .off ? nil : TermMatcher(forms: index.forms)
    }

    /// The stylesheet link added to each page: the term links' look (`embed.css`).
    public var stylesheetTag: String {
        "<link rel=\"stylesheet\" href=\"\(HTMLText.escaped(index.root + "embed.css"))\" \(HTMLSource.marker)>\n"
    }

    /// The script tag added to each page.
    public var scriptTag: String {
        "<script src=\"\(HTMLText.escaped(index.root + "embed.js"))\" defer \(HTMLSource.marker)></script>\n"
    }

    /// A link's start tag; `word` as HTML writes it, only `"` still to escape.
    func openTag(_ term: TermIndex.Term, word: String) -> String {
        "<a class=\"glossary-term\" href=\"\(HTMLText.escaped(term.url))\" data-glossary-term=\"\(word.replacingOccurrences(of: "\"", with: "&quot;"))\">"
    }

    func link(_ term: TermIndex.Term, word: String, shown: String) -> String { openTag(term, word: word) + shown + "</a>" }

    /// A page annotated: its new bytes (nil when nothing changes) and the references the glossary doesn't define,
    /// at their places in `file` (the path shown): in the new bytes when they are `written`, else in the old.
    ///
    /// Elements marked `data-term="word"` get a link around their content; with `autolink`, plain text is linked by
    /// the build's matching rules (`TermMatcher`), a written reference or marked element counting as its term's first.
    public func annotate(_ data: Data, file: String, written: Bool = true) -> (data: Data?, diagnostics: [Diagnostic]) {
        let bytes = [UInt8](data)
        let source = bytes.withUnsafeBufferPointer { HTMLSource($0, everyText: matcher != nil) }
        var edits: [(range: Range<Int>, text: String)] = []
        var unknown: [(offset: Int, word: String)] = []
        // A term linked before (by an earlier run) counts as linked, so a second run links what the first did.
        var linked = Set(source.linkedWords.compactMap { index.term(for: HTMLText.decoded($0))?.key })
        var plain: [Range<Int>] = []
        for range in source.texts {
            var start = range.lowerBound
            for reference in Self.references(in: bytes, range) {
                plain.append(start..<reference.range.lowerBound)
                start = reference.range.upperBound
                let word = HTMLText.decoded(reference.word)
                guard let term = index.term(for: word) else {
                    unknown.append((reference.range.lowerBound, word))
                    continue
                }
                linked.insert(term.key)
                edits.append((reference.range, link(term, word: reference.word, shown: reference.shown)))
            }
            plain.append(start..<range.upperBound)
        }
        for (content, word) in source.marked {
            guard let term = index.term(for: word) else { continue }
            linked.insert(term.key)
            edits.append((content.lowerBound..<content.lowerBound, openTag(term, word: HTMLText.escaped(word))))
            edits.append((content.upperBound..<content.upperBound, "</a>"))
        }
        if let matcher {
            bytes.withUnsafeBufferPointer { buffer in
                for range in plain where !range.isEmpty {
                    let text = UnsafeBufferPointer(rebasing: buffer[range])
                    let found =
                        autolink == .first ? matcher.matches(inUTF8: text, linkingOnce: &linked) : matcher.matches(inUTF8: text)
                    for match in found {
                        let at = range.lowerBound + match.range.lowerBound
                        // Never inside a character reference (`&amp;`, `&#39;`).
                        if at > 0 && (bytes[at - 1] == UInt8(ascii: "&") || bytes[at - 1] == UInt8(ascii: "#")) { continue }
                        guard let term = index.term(for: match.id) else { continue }
                        let spelled = String(decoding: buffer[at..<(range.lowerBound + match.range.upperBound)], as: UTF8.self)
                        edits.append((at..<(range.lowerBound + match.range.upperBound), link(term, word: match.id, shown: spelled)))
                    }
                }
            }
        }
        if let at = source.insertion {
            edits.append((at..<at, (source.hasStylesheet ? "" : stylesheetTag) + (source.hasScript ? "" : scriptTag)))
        }
        // In place order; edits at one place keep the order they were made in (a marked element's `<a>` before its `</a>`).
        edits = edits.enumerated().sorted { ($0.element.range.lowerBound, $0.offset) < ($1.element.range.lowerBound, $1.offset) }.map(\.element)
        var out: [UInt8] = []
        if !edits.isEmpty {
            out.reserveCapacity(bytes.count + edits.count * 120)
            var position = 0
            for edit in edits {
                out += bytes[position..<edit.range.lowerBound]
                out += Array(edit.text.utf8)
                position = edit.range.upperBound
            }
            out += bytes[position...]
        }
        // Problems are placed in the file as it is after the run: the one written, or the one left as it was.
        let moved = written && !edits.isEmpty
        var lines = LineIndex(moved ? out : bytes)
        let diagnostics = unknown.map { offset, word in
            let shift = !moved ? 0 : edits.prefix { $0.range.lowerBound < offset }.reduce(0) { $0 + $1.text.utf8.count - $1.range.count }
            return Diagnostic(.unknownTerm(word: word, reason: .notFound), at: lines.location(of: offset + shift, in: file))
        }
        return (edits.isEmpty ? nil : Data(out), diagnostics)
    }

    /// A reference found in raw text: its byte range, its shown text and its word (both as written in the HTML).
    struct Reference {
        var range: Range<Int>
        var shown: String
        var word: String
    }

    /// `[[word]]` and `[[shown|word]]` on one line, with no `[` or `]` inside.
    static func references(in bytes: [UInt8], _ range: Range<Int>) -> [Reference] {
        var found: [Reference] = []
        var index = range.lowerBound
        let open = UInt8(ascii: "[")
        let close = UInt8(ascii: "]")
        while index + 1 < range.upperBound {
            guard bytes[index] == open, bytes[index + 1] == open else {
                index += 1
                continue
            }
            var end = index + 2
            while end < range.upperBound, ![open, close, UInt8(ascii: "\n")].contains(bytes[end]) { end += 1 }
            guard end + 1 < range.upperBound, bytes[end] == close, bytes[end + 1] == close, end > index + 2 else {
                index += 1
                continue
            }
            let inner = String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
            let parts = inner.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
            let shown = String(parts[0])
            let word = parts.count > 1 ? String(parts[1]) : shown
            if !shown.trimmingCharacters(in: .whitespaces).isEmpty && !word.trimmingCharacters(in: .whitespaces).isEmpty {
                found.append(Reference(range: index..<(end + 2), shown: shown, word: word))
            }
            index = end + 2
        }
        return found
    }
}

/// Line and column (in Unicode scalars) of byte offsets, for diagnostics.
struct LineIndex {
    private let bytes: [UInt8]
    private var starts: [Int]?

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func location(of offset: Int, in file: String) -> SourceLocation {
        if starts == nil { starts = [0] + bytes.indices.filter { bytes[$0] == UInt8(ascii: "\n") }.map { $0 + 1 } }
        let lineStarts = starts ?? [0]
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        let column = bytes[lineStarts[low]..<offset].count { $0 & 0xC0 != 0x80 } + 1
        return SourceLocation(file: file, line: low + 1, column: column)
    }
}

/// Text of HTML as written: the few character references a word may hold, and attribute values.
enum HTMLText {
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    static func decoded(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&#x27;", with: "'").replacingOccurrences(of: "&nbsp;", with: " ")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
