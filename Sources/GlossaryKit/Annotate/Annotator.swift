import Foundation

/// `glossary annotate`: links the `[[word]]` and `[[shown text|word]]` another tool left in a built site's HTML to a
/// glossary's term pages, and adds the glossary's card script once per page.
///
/// Each file is edited at the byte offsets an HTML5 parser found (`HTMLSource`): a reference becomes
/// `<a class="glossary-term" href="URL" data-glossary-term="word">shown text</a>`, the script goes before `</head>`,
/// and every other byte stays as it was. A second run finds no reference and the script in place, so changes nothing.
public struct Annotator: Sendable {
    public var index: TermIndex

    public init(index: TermIndex) { self.index = index }

    /// The script tag added to each page.
    public var scriptTag: String {
        "<script src=\"\(HTMLText.escaped(index.root + "embed.js"))\" defer \(HTMLSource.marker)></script>\n"
    }

    /// A page annotated: its new bytes (nil when nothing changes) and the references the glossary doesn't define,
    /// at their places in `file` (the path shown): in the new bytes when they are `written`, else in the old.
    public func annotate(_ data: Data, file: String, written: Bool = true) -> (data: Data?, diagnostics: [Diagnostic]) {
        let bytes = [UInt8](data)
        let source = bytes.withUnsafeBufferPointer { HTMLSource($0) }
        var edits: [(range: Range<Int>, text: String)] = []
        var unknown: [(offset: Int, word: String)] = []
        for range in source.texts {
            for reference in Self.references(in: bytes, range) {
                let word = HTMLText.decoded(reference.word)
                guard let term = index.term(for: word) else {
                    unknown.append((reference.range.lowerBound, word))
                    continue
                }
                let attribute = reference.word.replacingOccurrences(of: "\"", with: "&quot;")
                let link = "<a class=\"glossary-term\" href=\"\(HTMLText.escaped(term.url))\" data-glossary-term=\"\(attribute)\">" + reference.shown + "</a>"
                edits.append((reference.range, link))
            }
        }
        if let at = source.insertion { edits.append((at..<at, scriptTag)) }
        edits.sort { $0.range.lowerBound < $1.range.lowerBound }
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
