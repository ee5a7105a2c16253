import Foundation

/// Walks a freshly parsed tree once (`run`): turns pipe tables into table blocks (see `ReferenceScan+Tables.swift`),
/// finds references, replaces them with placeholder nodes, records links, headings and block quotes.
struct ReferenceScan {
    let root: CMarkNode
    let lines: SourceLines
    /// The file location of a line and column (in scalars) of the parsed text: the page's markdown starts
    /// after its front matter, a table cell's markdown somewhere in a line.
    let place: (_ line: Int, _ column: Int) -> SourceLocation
    /// Whether paragraphs may hold tables (not a table cell's own markdown).
    var findsTables = true
    /// Blocks put in the tree from markdown parsed apart (tables, the lines after them), whose references and
    /// links are already found: the walk leaves them alone, as their positions are not this source's.
    var prebuilt: Set<CMarkNode> = []
    /// Tables without body rows, which cmark-gfm counts as ending in a blank line (see `loosenLists`).
    var headerOnlyTables: Set<CMarkNode> = []
    var references: [TermReference] = []
    var termNodes: [CMarkNode] = []
    var linkRecords: [(node: CMarkNode, link: MarkdownLink)] = []
    /// Link nodes that turned out to be `[[x]]` and were removed from the tree.
    var freedLinks: Set<CMarkNode> = []
    var diagnostics: [Diagnostic] = []
    var firstHeading: String?
    var autolink: Autolinker?
    /// Terms linked so far on the page (for `autolink: first`).
    var linked: Set<TermKey> = []
    /// The names pages should not write, looked for in every text (headings and references too, not code or raw HTML).
    var statusCheck: TermStatusCheck?
    /// The glossary entry being read (below `content/`), whose own marked names are not reported.
    var statusEntry: String?
    /// Every block quote and heading of the tree, prebuilt blocks' too, in document order: the callouts and
    /// heading anchors made after the walk need no walk of their own.
    var quotes: [CMarkNode] = []
    var headingNodes: [CMarkNode] = []
    /// The `{#id}` each heading that had one ended with (taken off its text), and where it stood.
    var explicitIDs: [CMarkNode: (id: String, location: SourceLocation)] = [:]
    /// The key of each word referred to so far (a page refers to a few hundred words a million times).
    private var keys: [String: TermKey?] = [:]

    init(root: CMarkNode, source: String, place: @escaping (_ line: Int, _ column: Int) -> SourceLocation) {
        self.root = root
        self.place = place
        lines = SourceLines(source)
    }

    /// A text node holding references, or a `[` + shortcut link + `]` triple that is really `[[x]]`, with the
    /// source line it stands on.
    private enum Work {
        /// `autolinks`: whether plain occurrences of terms in it are linked too.
        case text(CMarkNode, line: Int, autolinks: Bool)
        case swallowedReference(link: CMarkNode, line: Int)
    }

    mutating func run() {
        if findsTables { replaceTables() }
        var work: [Work] = []
        var linkDepth = 0
        var headingDepth = 0
        /// Inline raw HTML elements open around the walk (`<span>…</span>` in a paragraph): no auto-links inside.
        var htmlDepth = 0
        var tracker = LineTracker()
        var skipping: CMarkNode?
        // Captures the lines only: `sourceLine` as a closure would copy the whole scan for every node.
        let lines = self.lines
        let lineOfSource = { (line: Int) -> UnsafeBufferPointer<UInt8> in lines.line(line) }
        for (node, entering) in root.events {
            let kind = node.kind
            if entering && kind == .heading {
                headingNodes.append(node)
            } else if entering && kind == .blockQuote {
                quotes.append(node)
            }
            if let block = skipping {
                if !entering && node == block { skipping = nil }
                continue
            }
            if entering, prebuilt.contains(node) {
                // Leaf blocks have no exit event, and nothing inside them to skip.
                if ![.codeBlock, .htmlBlock, .thematicBreak].contains(kind) { skipping = node }
                continue
            }
            let isLink = kind == .link || kind == .image
            tracker.visit(node, kind: kind, entering: entering, source: lineOfSource)
            if !entering {
                if isLink { linkDepth -= 1 }
                if kind == .heading { headingDepth -= 1 }
                continue
            }
            if kind == .heading {
                headingDepth += 1
                takeExplicitID(node)
            }
            if kind == .paragraph { htmlDepth = 0 }
            if kind == .htmlInline, let tag = node.literal {
                if tag.hasPrefix("</") {
                    htmlDepth = max(0, htmlDepth - 1)
                } else if !tag.hasSuffix("/>") && !tag.hasPrefix("<!") && !tag.hasPrefix("<?") {
                    htmlDepth += 1
                }
            }
            if isLink {
                linkDepth += 1
                // Not looked for: a reference link's destination stands in its definition, not on its line.
                let line = tracker.line(of: node)
                recordLink(node, isImage: kind == .image, line: line)
                // Inside an image's description (`![t[[x]]]()`, alt text) a reference renders nothing, like text there.
                if kind == .link, linkDepth == 1, isSwallowedReference(node, line: line) {
                    work.append(.swallowedReference(link: node, line: line))
                }
            } else if kind == .heading, firstHeading == nil {
                firstHeading = PlainText.of(node)
            } else if kind == .text, let bytes = node.literalBytes {
                // Every text node is looked for, references or not, so the lines of the nodes after it are right.
                let hint = max(0, node.startColumn - 1)
                let line =
                    bytes.isEmpty
                    ? tracker.line(of: node)
                    : tracker.locate(node) { TermReferenceScanner.aligns(text: bytes, line: lineOfSource($0), hint: hint) }
                if let statusCheck, !bytes.isEmpty {
                    checkStatus(statusCheck, text: bytes, line: line, hint: line == node.startLine ? node.startColumn : 1)
                }
                let autolinks = autolink != nil && headingDepth == 0 && htmlDepth == 0 && !bytes.isEmpty
                if linkDepth == 0, autolinks || TermReferenceScanner.hasOpening(bytes) {
                    work.append(.text(node, line: line, autolinks: autolinks))
                }
            }
        }

        for item in work {
            switch item {
            case .text(let node, let line, let autolinks): splitText(node, line: line, autolinks: autolinks)
            case .swallowedReference(let link, let line): unswallow(link, line: line)
            }
        }
        // Keep references in reading order whatever order the work items (and tables) ran in.
        let order = references.indices.sorted { references[$0].location < references[$1].location }
        references = order.map { references[$0] }
        termNodes = order.map { termNodes[$0] }
        if !prebuilt.isEmpty {
            let linkOrder = linkRecords.indices.sorted { (linkRecords[$0].link.location, $0) < (linkRecords[$1].link.location, $1) }
            linkRecords = linkOrder.map { linkRecords[$0] }
        }
        loosenLists()
    }

    /// The bytes of 1-based `line` without its line ending.
    private func sourceLine(_ line: Int) -> UnsafeBufferPointer<UInt8> {
        lines.line(line)
    }

    /// For each `[[` at scalar column `columns[i]` of `line` (columns ascending), what stands between it and the first
    /// `]]` after it, when there is one and no other `[[` comes first.
    static func markup(in line: UnsafeBufferPointer<UInt8>, columns: [Int]) -> [String?] {
        var (start, scalars) = (0, 1)
        // No `]]` starts before `searched` but at `close` (when `close` is at least `searched`).
        var (searched, close) = (0, -1)
        return columns.map { column in
            while scalars < column, start < line.count {
                start += 1
                while start < line.count, line[start] & 0xC0 == 0x80 { start += 1 }
                scalars += 1
            }
            let inside = start + 2
            guard line[start...].starts(with: "[[".utf8), inside < line.count else { return nil }
            if close < inside {
                searched = max(searched, inside)
                while searched + 1 < line.count, line[searched] != UInt8(ascii: "]") || line[searched + 1] != UInt8(ascii: "]") { searched += 1 }
                close = searched + 1 < line.count ? searched : -1
                if close < 0 { searched = line.count }
            }
            // A `]]` after another `[[` closes that one (the scan stops at the next `[[`: linear over all columns).
            guard close >= inside,
                !line[inside..<close].indices.contains(where: { line[$0] == UInt8(ascii: "[") && $0 + 1 < close && line[$0 + 1] == UInt8(ascii: "[") })
            else { return nil }
            return String(decoding: line[inside..<close], as: UTF8.self)
        }
    }

    /// Takes the `{#id}` off the end of a heading's text (`HeadingAnchors.explicitID`) and notes it, unless the source
    /// escapes it (`\{#id}`).
    private mutating func takeExplicitID(_ heading: CMarkNode) {
        guard let last = heading.lastChild, last.kind == .text, let literal = last.literal, let (text, id) = HeadingAnchors.explicitID(in: literal)
        else { return }
        // Where `{#` stands: on the heading's last line that has it (a setext heading's text may run over several).
        for line in stride(from: max(heading.endLine, heading.startLine), through: heading.startLine, by: -1) {
            let bytes = sourceLine(line)
            guard let open = bytes.indices.last(where: { bytes[$0] == UInt8(ascii: "{") && $0 + 1 < bytes.count && bytes[$0 + 1] == UInt8(ascii: "#") })
            else { continue }
            if open > 0 && bytes[open - 1] == UInt8(ascii: "\\") { return }
            last.literal = text
            explicitIDs[heading] = (id, location(line: line, column: scalarColumn(line: line, byte: open + 1)))
            return
        }
    }

    /// The key of `word` (nil when it has none), made once per word.
    private mutating func key(of word: String) -> TermKey? {
        if let known = keys[word] { return known }
        let key = TermKey(word)
        keys[word] = .some(key)
        return key
    }

    /// The 1-based column in scalars, as locations count, of a 1-based byte column, as cmark counts.
    private func scalarColumn(line: Int, byte: Int) -> Int {
        let bytes = sourceLine(line)
        let before = bytes.prefix(max(0, byte - 1))
        return before.count { $0 & 0xC0 != 0x80 } + 1 + max(0, byte - 1 - bytes.count)
    }

    private func location(line: Int, column: Int) -> SourceLocation {
        place(line, column)
    }

    private mutating func recordLink(_ node: CMarkNode, isImage: Bool, line: Int) {
        guard let destination = node.url else { return }
        // Where cmark lost count of lines its column is no use either.
        var column = line == node.startLine ? scalarColumn(line: line, byte: node.startColumn) : 1
        // cmark's columns drift on continuation lines: prefer where the destination really stands (a byte
        // search: Foundation's range(of:) cost more than the rest of the page's scan).
        let bytes = sourceLine(line)
        let needle = Array(destination.utf8)
        if !needle.isEmpty, let start = Self.firstIndex(of: needle, in: bytes) {
            column = bytes[..<start].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) } + 1
        }
        linkRecords.append((node, MarkdownLink(destination: destination, isImage: isImage, location: location(line: line, column: column))))
    }

    /// Where `needle` first occurs in `haystack`.
    static func firstIndex(of needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>) -> Int? {
        guard needle.count <= haystack.count, let first = needle.first else { return nil }
        var index = 0
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first && UnsafeBufferPointer(rebasing: haystack[index..<(index + needle.count)]).elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    /// `[[x]]` where the page defines `[x]: url` parses as `[` + link + `]`; we read it as a term reference.
    private func isSwallowedReference(_ link: CMarkNode, line: Int) -> Bool {
        guard let previous = link.previous, let next = link.next, previous.kind == .text, next.kind == .text,
            let child = link.firstChild, child.next == nil, child.kind == .text,
            let before = previous.literalBytes, let after = next.literalBytes, let inner = child.literalBytes
        else { return false }
        let span = link.endColumn - link.startColumn + 1
        guard link.startLine == link.endLine, span == inner.count + 2 else { return false }
        // Bytes, not Characters: `]` followed by a combining mark is one Character, which isn't `]`.
        guard before.last == UInt8(ascii: "["), after.first == UInt8(ascii: "]") else { return false }
        // Text nodes hold decoded text, where `\[` is already `[`: the source line tells an escape apart.
        let source = String(decoding: sourceLine(line), as: UTF8.self)
        let written = "[[" + String(decoding: inner, as: UTF8.self) + "]]"
        var searchStart = source.startIndex
        // Literally (by UTF-16 units): a search by Characters misses `]]` when a combining mark follows it.
        while let found = source.range(of: written, options: .literal, range: searchStart..<source.endIndex) {
            if found.lowerBound == source.startIndex || source[source.index(before: found.lowerBound)] != "\\" { return true }
            searchStart = found.upperBound
        }
        return false
    }

    private mutating func unswallow(_ link: CMarkNode, line: Int) {
        guard let previous = link.previous, let next = link.next, let inner = link.firstChild?.literal,
            let before = previous.literal, let after = next.literal
        else { return }
        let shown: String
        let word: String
        if let bar = inner.firstIndex(of: "|") {
            shown = inner[..<bar].trimmingWhitespace
            word = inner[inner.index(after: bar)...].trimmingWhitespace
        } else {
            shown = inner[...].trimmingWhitespace
            word = shown
        }
        var column = scalarColumn(line: line, byte: link.startColumn - 1)
        // cmark's column is off after a backslash hard break, and on a lazy continuation line (where it counts the
        // first line's quote markers): the reference as written on its line, the occurrence nearest cmark's
        // column, is where it is.
        let text = String(decoding: sourceLine(line), as: UTF8.self)
        var searchStart = text.startIndex
        var nearest: Int?
        while let range = text.range(of: "[[" + inner + "]]", options: .literal, range: searchStart..<text.endIndex) {
            let found = text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: range.lowerBound) + 1
            if nearest.map({ abs($0 - column) > abs(found - column) }) ?? true { nearest = found }
            searchStart = text.index(after: range.lowerBound)
        }
        if let nearest { column = nearest }
        if let length = TermKey.excessLength(of: word) {
            let problem = Problem.termTooLong(word: word, length: length, limit: TermKey.maximumWordLength)
            diagnostics.append(Diagnostic(problem, at: location(line: line, column: column)))
            return
        }
        guard let key = key(of: word) else { return }
        // The `[` and `]` bytes only (dropping a Character would take a combining mark after `]` with it).
        previous.literal = String(decoding: before.utf8.dropLast(), as: UTF8.self)
        next.literal = String(decoding: after.utf8.dropFirst(), as: UTF8.self)
        let placeholder = makePlaceholder(shown: shown.isEmpty ? word : shown)
        placeholder.insert(before: link)
        freedLinks.insert(link)
        link.free()
        references.append(TermReference(shown: shown.isEmpty ? word : shown, word: word, key: key, location: location(line: line, column: column)))
        termNodes.append(placeholder)
    }

    /// An explicit reference or an auto-linked occurrence, at its byte range in a text node.
    private struct Piece {
        var range: Range<Int>
        var reference: TermReference
    }

    /// The auto-linked occurrences in `text[range]`, as references (shown as written, keyed by their term).
    private mutating func automatic(in text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, line: Int, hint: Int) -> [Piece] {
        guard let autolink, !range.isEmpty else { return [] }
        let buffer = UnsafeBufferPointer(rebasing: text[range])
        let found = autolink.matches(inUTF8: buffer, linked: &linked)
        guard !found.isEmpty else { return [] }
        // The column as cmark's hint (a byte column) places the text node, in scalars (exact on the node's first line).
        let start = scalarColumn(line: line, byte: hint)
        return found.map { match in
            let bytes = (match.range.lowerBound + range.lowerBound)..<(match.range.upperBound + range.lowerBound)
            let shown = String(decoding: UnsafeBufferPointer(rebasing: text[bytes]), as: UTF8.self)
            let column = start + text[..<bytes.lowerBound].count { $0 & 0xC0 != 0x80 }
            let reference = TermReference(shown: shown, word: shown, key: match.id, location: location(line: line, column: column), isAutomatic: true)
            return Piece(range: bytes, reference: reference)
        }
    }

    /// Reports each deprecated or forbidden name written in `text`, a text node's literal on `line` placed at byte
    /// column `hint`.
    private mutating func checkStatus(_ check: TermStatusCheck, text: UnsafeBufferPointer<UInt8>, line: Int, hint: Int) {
        let hits = check.hits(inUTF8: text, entry: statusEntry)
        guard !hits.isEmpty else { return }
        let start = scalarColumn(line: line, byte: hint)
        for hit in hits {
            let written = String(decoding: UnsafeBufferPointer(rebasing: text[hit.range]), as: UTF8.self)
            let column = start + text[..<hit.range.lowerBound].count { $0 & 0xC0 != 0x80 }
            diagnostics.append(check.diagnostic(written: written, name: hit.name, at: location(line: line, column: column)))
        }
    }

    private mutating func splitText(_ node: CMarkNode, line: Int, autolinks: Bool) {
        guard let text = node.literalBytes else { return }
        // After a backslash hard break (the line corrected) cmark's column is no hint at all.
        let hint = line == node.startLine ? node.startColumn : 1
        let (matches, problems) = TermReferenceScanner.scan(text: text, sourceLine: sourceLine(line), hintColumn: hint)
        // An unclosed `[[` closed on its line all the same had markup inside that cmark parsed (raw HTML, code,
        // emphasis, a link): that is what's wrong.
        let unclosed = problems.compactMap { if case .unclosed(let column) = $0 { column } else { nil } }
        var markups = unclosed.isEmpty ? [] : Self.markup(in: sourceLine(line), columns: unclosed)[...]
        for problem in problems {
            switch problem {
            case .unclosed(let column):
                let problem = markups.popFirst().flatMap { $0 }.map(Problem.termMarkup(found:)) ?? .unclosedTerm
                diagnostics.append(Diagnostic(problem, at: location(line: line, column: column)))
            case .empty(let column):
                diagnostics.append(Diagnostic(.emptyTerm, at: location(line: line, column: column)))
            }
        }
        var pieces: [Piece] = []
        var gap = 0
        for match in matches {
            if let length = TermKey.excessLength(of: match.word) {
                let problem = Problem.termTooLong(word: match.word, length: length, limit: TermKey.maximumWordLength)
                diagnostics.append(Diagnostic(problem, at: location(line: line, column: match.column)))
                continue
            }
            guard let key = key(of: match.word) else { continue }
            if autolinks { pieces += automatic(in: text, gap..<match.range.lowerBound, line: line, hint: hint) }
            let reference = TermReference(shown: match.shown, word: match.word, key: key, location: location(line: line, column: match.column))
            pieces.append(Piece(range: match.range, reference: reference))
            // An explicit reference is its term's first link as much as an automatic one.
            if let term = autolink?.termOfName[key] { linked.insert(term) }
            gap = match.range.upperBound
        }
        if autolinks { pieces += automatic(in: text, gap..<text.count, line: line, hint: hint) }
        guard !pieces.isEmpty else { return }
        var cursor = 0
        for piece in pieces {
            if piece.range.lowerBound > cursor {
                makeText(UnsafeBufferPointer(rebasing: text[cursor..<piece.range.lowerBound])).insert(before: node)
            }
            let placeholder = makePlaceholder(shown: piece.reference.shown)
            placeholder.insert(before: node)
            references.append(piece.reference)
            termNodes.append(placeholder)
            cursor = piece.range.upperBound
        }
        if cursor < text.count {
            makeText(UnsafeBufferPointer(rebasing: text[cursor...])).insert(before: node)
        }
        node.free()
    }

    /// A text node of `bytes` (a part of a text node's literal, so UTF-8 without NUL).
    private func makeText(_ bytes: UnsafeBufferPointer<UInt8>) -> CMarkNode {
        let node = CMarkNode.make(.text)
        node.setLiteral(bytes)
        return node
    }

    private func makePlaceholder(shown: String) -> CMarkNode {
        // Its markup is set when it renders: a new custom node renders none.
        let node = CMarkNode.make(.customInline)
        let text = CMarkNode.make(.text)
        text.literal = shown
        node.appendChild(text)
        return node
    }
}
