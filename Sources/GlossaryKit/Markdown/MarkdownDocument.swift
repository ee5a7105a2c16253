import CCmark
import Foundation

/// A page's markdown parsed by libcmark, with its term references found and turned into placeholder nodes.
///
/// This file, `MarkdownDocument+Blocks.swift` (callouts, heading anchors) and `MarkdownDocument+Tables.swift` (pipe
/// tables) are the ones that touch cmark. The document owns its tree; rendering fills each reference's
/// placeholder with the link (or the unresolved marker) the caller decides on, then asks cmark for HTML.
/// Rendering mutates the tree, so one document must not render on two threads at once; different
/// documents may render in parallel.
public final class MarkdownDocument: @unchecked Sendable {
    /// The version of the libcmark the program runs with (`0.30.2`), for `glossary --version`.
    public static var cmarkVersion: String { String(cString: cmark_version_string()) }

    /// The options the build parses and renders with: cmark's defaults, exactly what the `cmark` CLI uses
    /// without flags (safe mode: raw HTML is omitted, no smart punctuation).
    public static let cmarkOptions: Int32 = CMARK_OPT_DEFAULT

    public let references: [TermReference]
    public let links: [MarkdownLink]
    /// Problems found while scanning (unclosed or empty references).
    public let diagnostics: [Diagnostic]
    /// The first heading's plain text, used as a title when front matter has none.
    public let firstHeading: String?
    /// Whether the document's first block is a level-1 heading (the page brings its own title).
    public let startsWithTitleHeading: Bool
    /// Every heading, in document order, with the id it renders with.
    public let headings: [PageHeading]
    /// The length of the markdown in bytes.
    public let markdownLength: Int

    private let root: OpaquePointer
    /// Where the tree's nodes live (see `NodeArena`).
    private let arena = NodeArena()
    /// The placeholder node of each reference, index-aligned with `references`.
    private let termNodes: [OpaquePointer]
    /// Every link and image node with its destination as written, index-aligned with `links`: rendering
    /// always rewrites from the original, so a document renders the same however often it is rendered.
    private let linkNodes: [OpaquePointer]
    /// The headings, out of the tree, and their placeholders (see `MarkdownDocument+Blocks.swift`).
    private let anchoredHeadings: [AnchoredHeading]

    /// Parses `markdown`; `firstLine` is the file line on which the markdown starts (after front matter). With
    /// `autolink`, plain occurrences of its terms become references too (`TermReference.isAutomatic`), never in
    /// headings, code, links, images, raw HTML or an explicit reference.
    public init(markdown: String, file: String, firstLine: Int = 1, autolink: Autolinker? = nil) {
        markdownLength = markdown.utf8.count
        var source = markdown
        let arena = arena
        // Source positions at parse time make cmark count the line breaks inside code spans and raw HTML in the
        // positions of the nodes after them; rendering without the option keeps them out of the HTML.
        root = arena.withCurrent { Self.parse(&source, options: Self.cmarkOptions | CMARK_OPT_SOURCEPOS) }
        let lineOffset = firstLine - 1
        var builder = Builder(root: root, source: source) { SourceLocation(file: file, line: $0 + lineOffset, column: $1) }
        builder.autolink = autolink
        arena.withCurrent { builder.run() }
        references = builder.references
        termNodes = builder.termNodes
        let records = builder.linkRecords.filter { !builder.freedLinks.contains($0.node) }
        links = records.map(\.link)
        linkNodes = records.map(\.node)
        diagnostics = builder.diagnostics
        firstHeading = builder.firstHeading
        if let first = cmark_node_first_child(root), cmark_node_get_type(first) == CMARK_NODE_HEADING {
            startsWithTitleHeading = cmark_node_get_heading_level(first) == 1
        } else {
            startsWithTitleHeading = false
        }
        anchoredHeadings = arena.withCurrent {
            Self.convertCallouts(builder.quotes, lines: builder.lines)
            return Self.anchorHeadings(builder.headingNodes)
        }
        headings = anchoredHeadings.map(\.heading)
    }

    /// Parses `source` into a tree whose nodes are made with `NodeArena.memory`.
    static func parse(_ source: inout String, options: Int32) -> OpaquePointer {
        let parser = cmark_parser_new_with_mem(options, NodeArena.memory)!
        defer { cmark_parser_free(parser) }
        source.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { cmark_parser_feed(parser, $0.baseAddress, $0.count) }
        }
        return cmark_parser_finish(parser)!
    }

    /// A new node made with `NodeArena.memory`: a tree's nodes are all made with one allocator, the one that frees
    /// what cmark renders from them.
    static func newNode(_ type: cmark_node_type) -> OpaquePointer {
        cmark_node_new_with_mem(type, NodeArena.memory)!
    }

    deinit {
        for anchored in anchoredHeadings { cmark_node_free(anchored.node) }
        cmark_node_free(root)
    }

    /// What a reference renders as: HTML placed before and after its (escaped) shown text.
    public struct Wrapper: Hashable, Sendable {
        public var open: String
        public var close: String

        public init(open: String, close: String) {
            self.open = open
            self.close = close
        }
    }

    /// The HTML of the page: `wrappers` (one per reference, index-aligned with `references`) decide each
    /// reference's markup; `destinations` (one per link) replace link destinations, nil keeping one as written.
    public func renderHTML(wrappers: [Wrapper], destinations: [String?], parallelFrom: Int = bigPageSize) -> String {
        renderBody(destinations: destinations, parallelFrom: parallelFrom).filled(with: wrappers)
    }

    /// The HTML of the page with a slot for each reference's markup (see `BodyHTML`); `destinations` as in
    /// `renderHTML`. A page of `parallelFrom` bytes or more renders as a big page, on every core.
    public func renderBody(destinations: [String?], parallelFrom: Int = bigPageSize) -> BodyHTML {
        arena.withCurrent { render(destinations: destinations, parallelFrom: parallelFrom) }
    }

    private func render(destinations: [String?], parallelFrom: Int) -> BodyHTML {
        precondition(destinations.count == linkNodes.count)
        for (index, node) in termNodes.enumerated() {
            _ = BodyHTML.marker(index, closes: false).withUnsafeBufferPointer { cmark_node_set_on_enter(node, $0.baseAddress) }
            _ = BodyHTML.marker(index, closes: true).withUnsafeBufferPointer { cmark_node_set_on_exit(node, $0.baseAddress) }
        }
        for (node, (link, rewritten)) in zip(linkNodes, zip(links, destinations)) {
            let destination = rewritten ?? link.destination
            if destination != String(cString: cmark_node_get_url(node)) { cmark_node_set_url(node, destination) }
        }
        Self.render(anchoredHeadings)
        if let runs = blockRuns(from: parallelFrom) { return Self.renderHTML(of: runs) }
        guard let html = cmark_render_html(root, Self.cmarkOptions) else { return BodyHTML(bytes: [], slots: []) }
        defer { NodeArena.free(html) }
        return html.withMemoryRebound(to: UInt8.self, capacity: strlen(html)) { BodyHTML(marked: UnsafeBufferPointer(start: $0, count: strlen(html))) }
    }

    /// Plain text of the document's first paragraph (a summary line for indexes and cards).
    public func firstParagraphText() -> String? {
        firstParagraph.map(Self.plainText(of:))
    }

    /// The text a search finds the page by (see `searchableText(of:)`).
    public func searchableText() -> String {
        Self.searchableText(of: root)
    }

    /// Markdown this long is a big page: its search field is counted and its HTML rendered on every core (a site
    /// of pages this size has too few of them to keep the cores busy).
    public static let bigPageSize = 4 << 20

    /// The search field of the page's text (`searchableText`). A big page's top-level blocks are split into runs
    /// counted on every core and merged in order: every block's text ends a line, so no term spans two runs, and the
    /// field is the one the whole text makes. The tree is only read (cmark's getters read fields, as libcmark 0.30's
    /// `cmark_node_get_literal` does, without caching anything).
    public func searchTerms(parallelFrom size: Int = bigPageSize) -> SearchTerms {
        guard let runs = blockRuns(from: size) else { return SearchTerms(text: searchableText()) }
        nonisolated(unsafe) let shared = runs
        let parts = Array(runs.indices).parallelMap(jobs: runs.count) { SearchTerms(text: Self.searchableText(of: shared[$0])) }
        return SearchTerms(merging: parts)
    }

    /// A big page's top-level blocks in one run per core, in order; nil for a page under `size` bytes (or a machine
    /// of one core), which other pages keep the cores busy beside.
    private func blockRuns(from size: Int) -> [ArraySlice<OpaquePointer>]? {
        // Asked only of a big page: Foundation reads the cgroup's files for it on every call (3% of a build's time,
        // asked for every page).
        guard markdownLength >= size else { return nil }
        let jobs = ProcessInfo.processInfo.activeProcessorCount
        guard jobs > 1 else { return nil }
        var blocks: [OpaquePointer] = []
        var child = cmark_node_first_child(root)
        while let current = child {
            blocks.append(current)
            child = cmark_node_next(current)
        }
        guard blocks.count >= jobs else { return nil }
        return (0..<jobs).map { blocks[blocks.count * $0 / jobs..<blocks.count * ($0 + 1) / jobs] }
    }

    /// The HTML of a big page's runs of blocks (`blockRuns`), rendered on every core and joined in order. cmark ends
    /// every block's HTML with a line break and starts a block with one only where the HTML before doesn't end with
    /// one, so the blocks' HTML one after another is the document's. The tree is only read; a worker thread has no
    /// current arena, so what cmark allocates there comes from the C allocator.
    private static func renderHTML(of runs: [ArraySlice<OpaquePointer>]) -> BodyHTML {
        nonisolated(unsafe) let shared = runs
        let parts = Array(runs.indices).parallelMap(jobs: runs.count) { index -> [UInt8] in
            var bytes: [UInt8] = []
            for block in shared[index] {
                guard let html = cmark_render_html(block, cmarkOptions) else { continue }
                bytes.append(contentsOf: UnsafeRawBufferPointer(start: html, count: strlen(html)))
                NodeArena.free(html)
            }
            return bytes
        }
        var html: [UInt8] = []
        html.reserveCapacity(parts.reduce(0) { $0 + $1.count })
        for part in parts { html += part }
        return html.withUnsafeBufferPointer { BodyHTML(marked: $0) }
    }

    /// The HTML inside the document's first paragraph (a card's text): inline markup and links as written, term
    /// references as their shown text. cmark's safe mode has already left out raw HTML and `javascript:` links.
    public func firstParagraphHTML() -> String? {
        arena.withCurrent { paragraphHTML() }
    }

    private func paragraphHTML() -> String? {
        guard let paragraph = firstParagraph else { return nil }
        for node in termNodes {
            cmark_node_set_on_enter(node, "")
            cmark_node_set_on_exit(node, "")
        }
        for (node, link) in zip(linkNodes, links) where link.destination != String(cString: cmark_node_get_url(node)) {
            cmark_node_set_url(node, link.destination)
        }
        guard let rendered = cmark_render_html(paragraph, Self.cmarkOptions) else { return nil }
        defer { NodeArena.free(rendered) }
        // On bytes, as the heading's tags are (a leading combining mark would make `<p>` another Character).
        var html = Array(String(cString: rendered).utf8)[...]
        if html.starts(with: "<p>".utf8) { html = html.dropFirst(3) }
        while html.last == UInt8(ascii: "\n") { html = html.dropLast() }
        if html.suffix(4).elementsEqual("</p>".utf8) { html = html.dropLast(4) }
        // A soft line break reads as a space, in a card's text as in the plain summary.
        return String(decoding: html.map { $0 == UInt8(ascii: "\n") ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
    }

    /// The first paragraph of the tree in document order, in a container block or not.
    private var firstParagraph: OpaquePointer? {
        var paragraph: OpaquePointer?
        Self.forEachBlock(in: root) { node, type in
            if type == CMARK_NODE_PARAGRAPH { paragraph = node }
            return paragraph == nil
        }
        return paragraph
    }

    /// Calls `body` with every block under `root` (`root` included) in document order, until it returns false.
    /// Inline nodes are not visited: only container blocks (quotes, lists, items, custom blocks) are entered, so
    /// the walk costs the blocks, not the millions of inline nodes a big page has.
    static func forEachBlock(in root: OpaquePointer, _ body: (OpaquePointer, cmark_node_type) -> Bool) {
        var stack: [OpaquePointer] = [root]
        while let node = stack.popLast() {
            let type = cmark_node_get_type(node)
            guard (CMARK_NODE_FIRST_BLOCK.rawValue...CMARK_NODE_LAST_BLOCK.rawValue).contains(type.rawValue) else { continue }
            guard body(node, type) else { return }
            switch type {
            case CMARK_NODE_DOCUMENT, CMARK_NODE_BLOCK_QUOTE, CMARK_NODE_LIST, CMARK_NODE_ITEM, CMARK_NODE_CUSTOM_BLOCK:
                // Children pushed last first, so the first child is visited next.
                let start = stack.count
                var child = cmark_node_first_child(node)
                while let current = child {
                    stack.append(current)
                    child = cmark_node_next(current)
                }
                stack[start...].reverse()
            default:
                break
            }
        }
    }

    static func plainText(of node: OpaquePointer) -> String {
        var text = ""
        let iterator = cmark_iter_new(node)
        defer { cmark_iter_free(iterator) }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard event == CMARK_EVENT_ENTER, let current = cmark_iter_get_node(iterator) else { continue }
            switch cmark_node_get_type(current) {
            case CMARK_NODE_TEXT, CMARK_NODE_CODE:
                if let literal = cmark_node_get_literal(current) { text += String(cString: literal) }
            case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK:
                text += " "
            default:
                break
            }
        }
        return text
    }
}

extension MarkdownDocument {
    /// Walks a freshly parsed tree once: turns pipe tables into table blocks (see `MarkdownDocument+Tables.swift`),
    /// finds references, replaces them with placeholder nodes, records links.
    struct Builder {
        let root: OpaquePointer
        let lines: SourceLines
        /// The file location of a line and column (in scalars) of the parsed text: the page's markdown starts
        /// after its front matter, a table cell's markdown somewhere in a line.
        let place: (_ line: Int, _ column: Int) -> SourceLocation
        /// Whether paragraphs may hold tables (not a table cell's own markdown).
        var findsTables = true
        /// Blocks put in the tree from markdown parsed apart (tables, the lines after them), whose references and
        /// links are already found: the walk leaves them alone, as their positions are not this source's.
        var prebuilt: Set<OpaquePointer> = []
        /// Tables without body rows, which cmark-gfm counts as ending in a blank line (see `loosenLists`).
        var headerOnlyTables: Set<OpaquePointer> = []
        var references: [TermReference] = []
        var termNodes: [OpaquePointer] = []
        var linkRecords: [(node: OpaquePointer, link: MarkdownLink)] = []
        /// Link nodes that turned out to be `[[x]]` and were removed from the tree.
        var freedLinks: Set<OpaquePointer> = []
        var diagnostics: [Diagnostic] = []
        var firstHeading: String?
        var autolink: Autolinker?
        /// Terms linked so far on the page (for `autolink: first`).
        var linked: Set<TermKey> = []
        /// Every block quote and heading of the tree, prebuilt blocks' too, in document order: the callouts and
        /// heading anchors made after the walk need no walk of their own.
        var quotes: [OpaquePointer] = []
        var headingNodes: [OpaquePointer] = []
        /// The key of each word referred to so far (a page refers to a few hundred words a million times).
        private var keys: [String: TermKey?] = [:]

        init(root: OpaquePointer, source: String, place: @escaping (_ line: Int, _ column: Int) -> SourceLocation) {
            self.root = root
            self.place = place
            lines = SourceLines(source)
        }

        /// A text node holding references, or a `[` + shortcut link + `]` triple that is really `[[x]]`, with the
        /// source line it stands on.
        private enum Work {
            /// `autolinks`: whether plain occurrences of terms in it are linked too.
            case text(OpaquePointer, line: Int, autolinks: Bool)
            case swallowedReference(link: OpaquePointer, line: Int)
        }

        mutating func run() {
            if findsTables { replaceTables() }
            var work: [Work] = []
            var linkDepth = 0
            var headingDepth = 0
            /// Inline raw HTML elements open around the walk (`<span>…</span>` in a paragraph): no auto-links inside.
            var htmlDepth = 0
            var tracker = LineTracker()
            var skipping: OpaquePointer?
            // Captures the lines only: `sourceLine` as a closure would copy the whole builder for every node.
            let lines = self.lines
            let lineOfSource = { (line: Int) -> UnsafeBufferPointer<UInt8> in lines.line(line) }
            let iterator = cmark_iter_new(root)
            while true {
                let event = cmark_iter_next(iterator)
                if event == CMARK_EVENT_DONE { break }
                guard let node = cmark_iter_get_node(iterator) else { continue }
                let type = cmark_node_get_type(node)
                if event == CMARK_EVENT_ENTER && type == CMARK_NODE_HEADING {
                    headingNodes.append(node)
                } else if event == CMARK_EVENT_ENTER && type == CMARK_NODE_BLOCK_QUOTE {
                    quotes.append(node)
                }
                if let block = skipping {
                    if event == CMARK_EVENT_EXIT && node == block { skipping = nil }
                    continue
                }
                if event == CMARK_EVENT_ENTER, prebuilt.contains(node) {
                    // Leaf blocks have no exit event, and nothing inside them to skip.
                    if ![CMARK_NODE_CODE_BLOCK, CMARK_NODE_HTML_BLOCK, CMARK_NODE_THEMATIC_BREAK].contains(type) { skipping = node }
                    continue
                }
                let isLink = type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE
                tracker.visit(node, type: type, entering: event == CMARK_EVENT_ENTER, source: lineOfSource)
                if event == CMARK_EVENT_EXIT {
                    if isLink { linkDepth -= 1 }
                    if type == CMARK_NODE_HEADING { headingDepth -= 1 }
                    continue
                }
                if type == CMARK_NODE_HEADING { headingDepth += 1 }
                if type == CMARK_NODE_PARAGRAPH { htmlDepth = 0 }
                if type == CMARK_NODE_HTML_INLINE, let literal = cmark_node_get_literal(node) {
                    let tag = String(cString: literal)
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
                    recordLink(node, isImage: type == CMARK_NODE_IMAGE, line: line)
                    // Inside an image's description (`![t[[x]]]()`, alt text) a reference renders nothing, like text there.
                    if type == CMARK_NODE_LINK, linkDepth == 1, isSwallowedReference(node, line: line) {
                        work.append(.swallowedReference(link: node, line: line))
                    }
                } else if type == CMARK_NODE_HEADING, firstHeading == nil {
                    firstHeading = MarkdownDocument.plainText(of: node)
                } else if type == CMARK_NODE_TEXT, let literal = cmark_node_get_literal(node) {
                    // Every text node is looked for, references or not, so the lines of the nodes after it are right.
                    let bytes = Self.bytes(literal)
                    let hint = max(0, Int(cmark_node_get_start_column(node)) - 1)
                    let line =
                        bytes.isEmpty
                        ? tracker.line(of: node)
                        : tracker.locate(node) { TermReferenceScanner.aligns(text: bytes, line: lineOfSource($0), hint: hint) }
                    let autolinks = autolink != nil && headingDepth == 0 && htmlDepth == 0 && !bytes.isEmpty
                    if linkDepth == 0, autolinks || TermReferenceScanner.hasOpening(bytes) {
                        work.append(.text(node, line: line, autolinks: autolinks))
                    }
                }
            }
            cmark_iter_free(iterator)

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

        /// A text node's literal as bytes, not copied (a page can have millions of them): valid until the node's
        /// literal is set or the node freed.
        private static func bytes(_ literal: UnsafePointer<CChar>) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(start: UnsafeRawPointer(literal).assumingMemoryBound(to: UInt8.self), count: strlen(literal))
        }

        /// The bytes of 1-based `line` without its line ending.
        private func sourceLine(_ line: Int) -> UnsafeBufferPointer<UInt8> {
            lines.line(line)
        }

        /// The key of `word` (nil when it has none), made once per word.
        private mutating func key(of word: String) -> TermKey? {
            if let known = keys[word] { return known }
            let key = TermKey(word)
            keys[word] = .some(key)
            return key
        }

        /// Corrects the lines cmark gives inline nodes. cmark 0.30 doesn't count the line break of a backslash hard
        /// break (`line\` + newline), nor those inside a link's destination and title, so every inline node after
        /// one in the same block claims a line too early, one more for each such break (and its column is off too);
        /// and in a paragraph that starts with link definitions the nodes claim the definitions' lines. Backslash
        /// breaks are counted as they come; other missed lines are found by looking for each text node's text on the
        /// lines below the one it claims.
        struct LineTracker {
            /// How far below the lines cmark gives the current block's inline nodes now stand.
            private(set) var drift = 0
            /// The source line the walk has reached (0 outside inline content).
            private var current = 0
            /// The last line of the block whose inline nodes are walked: cmark's block positions are right, so no
            /// inline node stands below it however lost the count of lines is.
            private var blockEnd = Int.max

            mutating func visit(_ node: OpaquePointer, type: cmark_node_type, entering: Bool, source: (Int) -> UnsafeBufferPointer<UInt8>) {
                let inlineTypes = CMARK_NODE_FIRST_INLINE.rawValue...CMARK_NODE_LAST_INLINE.rawValue
                guard inlineTypes.contains(type.rawValue) else {
                    if entering {
                        (drift, current) = (0, Int(cmark_node_get_start_line(node)))
                        let end = Int(cmark_node_get_end_line(node))
                        blockEnd = end > 0 ? end : Int.max
                    }
                    return
                }
                switch type {
                case CMARK_NODE_SOFTBREAK:
                    current += 1
                case CMARK_NODE_LINEBREAK:
                    // cmark gives breaks no position: the line the walk is on ends with the backslash, or with spaces.
                    if source(current).last == UInt8(ascii: "\\") { drift += 1 }
                    current += 1
                default:
                    // Containers (emphasis, links) end where their last child does: count them on the way out.
                    let isLeaf = cmark_node_first_child(node) == nil
                    if !entering || isLeaf, cmark_node_get_end_line(node) > 0 { current = Int(cmark_node_get_end_line(node)) + drift }
                }
            }

            /// The source line an inline node starts on.
            func line(of node: OpaquePointer) -> Int {
                min(Int(cmark_node_get_start_line(node)) + drift, blockEnd)
            }

            /// How many lines below its line the text of a node is looked for (a multi-line link title is rarely longer).
            static let searchedLines = 16

            /// The source line an inline node starts on: the first, from `line(of:)` on, that `holds` it (which
            /// then corrects the nodes after it too), or `line(of:)` when none within `searchedLines` does.
            mutating func locate(_ node: OpaquePointer, holds: (Int) -> Bool) -> Int {
                let expected = line(of: node)
                for offset in 0...Self.searchedLines where expected + offset <= blockEnd && holds(expected + offset) {
                    drift += offset
                    current += offset
                    return expected + offset
                }
                return expected
            }
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

        private mutating func recordLink(_ node: OpaquePointer, isImage: Bool, line: Int) {
            guard let url = cmark_node_get_url(node) else { return }
            let destination = String(cString: url)
            // Where cmark lost count of lines its column is no use either.
            var column = line == Int(cmark_node_get_start_line(node)) ? scalarColumn(line: line, byte: Int(cmark_node_get_start_column(node))) : 1
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
        private func isSwallowedReference(_ link: OpaquePointer, line: Int) -> Bool {
            guard let previous = cmark_node_previous(link), let next = cmark_node_next(link),
                cmark_node_get_type(previous) == CMARK_NODE_TEXT, cmark_node_get_type(next) == CMARK_NODE_TEXT,
                let child = cmark_node_first_child(link), cmark_node_next(child) == nil,
                cmark_node_get_type(child) == CMARK_NODE_TEXT,
                let before = cmark_node_get_literal(previous), let after = cmark_node_get_literal(next),
                let inner = cmark_node_get_literal(child)
            else { return false }
            let innerBytes = strlen(inner)
            let span = Int(cmark_node_get_end_column(link)) - Int(cmark_node_get_start_column(link)) + 1
            guard cmark_node_get_start_line(link) == cmark_node_get_end_line(link), span == innerBytes + 2 else { return false }
            // Bytes, not Characters: `]` followed by a combining mark is one Character, which isn't `]`.
            let beforeCount = strlen(before)
            guard beforeCount > 0, UInt8(bitPattern: before[beforeCount - 1]) == UInt8(ascii: "["), UInt8(bitPattern: after[0]) == UInt8(ascii: "]")
            else { return false }
            // Text nodes hold decoded text, where `\[` is already `[`: the source line tells an escape apart.
            let source = String(decoding: sourceLine(line), as: UTF8.self)
            let written = "[[" + String(cString: inner) + "]]"
            var searchStart = source.startIndex
            // Literally (by UTF-16 units): a search by Characters misses `]]` when a combining mark follows it.
            while let found = source.range(of: written, options: .literal, range: searchStart..<source.endIndex) {
                if found.lowerBound == source.startIndex || source[source.index(before: found.lowerBound)] != "\\" { return true }
                searchStart = found.upperBound
            }
            return false
        }

        private mutating func unswallow(_ link: OpaquePointer, line: Int) {
            guard let previous = cmark_node_previous(link), let next = cmark_node_next(link),
                let child = cmark_node_first_child(link), let innerPointer = cmark_node_get_literal(child)
            else { return }
            let inner = String(cString: innerPointer)
            let before = String(cString: cmark_node_get_literal(previous))
            let after = String(cString: cmark_node_get_literal(next))
            let shown: String
            let word: String
            if let bar = inner.firstIndex(of: "|") {
                shown = inner[..<bar].trimmingWhitespace
                word = inner[inner.index(after: bar)...].trimmingWhitespace
            } else {
                shown = inner[...].trimmingWhitespace
                word = shown
            }
            var column = scalarColumn(line: line, byte: Int(cmark_node_get_start_column(link)) - 1)
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
            cmark_node_set_literal(previous, String(decoding: before.utf8.dropLast(), as: UTF8.self))
            cmark_node_set_literal(next, String(decoding: after.utf8.dropFirst(), as: UTF8.self))
            let placeholder = makePlaceholder(shown: shown.isEmpty ? word : shown)
            cmark_node_insert_before(link, placeholder)
            freedLinks.insert(link)
            cmark_node_free(link)
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
            let found =
                autolink.mode == .first
                ? autolink.matcher.matches(inUTF8: buffer, excluding: autolink.excluded, linkingOnce: &linked)
                : autolink.matcher.matches(inUTF8: buffer, excluding: autolink.excluded)
            return found.map { match in
                let bytes = (match.range.lowerBound + range.lowerBound)..<(match.range.upperBound + range.lowerBound)
                let shown = String(decoding: UnsafeBufferPointer(rebasing: text[bytes]), as: UTF8.self)
                // The column as cmark's hint places the text node (exact on the node's first line).
                let column = hint + text[..<bytes.lowerBound].count { $0 & 0xC0 != 0x80 }
                let reference = TermReference(shown: shown, word: shown, key: match.id, location: location(line: line, column: column), isAutomatic: true)
                return Piece(range: bytes, reference: reference)
            }
        }

        private mutating func splitText(_ node: OpaquePointer, line: Int, autolinks: Bool) {
            guard let literal = cmark_node_get_literal(node) else { return }
            let text = Self.bytes(literal)
            // After a backslash hard break (the line corrected) cmark's column is no hint at all.
            let hint = line == Int(cmark_node_get_start_line(node)) ? Int(cmark_node_get_start_column(node)) : 1
            let (matches, problems) = TermReferenceScanner.scan(text: text, sourceLine: sourceLine(line), hintColumn: hint)
            for problem in problems {
                switch problem {
                case .unclosed(let column):
                    diagnostics.append(Diagnostic(.unclosedTerm, at: location(line: line, column: column)))
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
                    cmark_node_insert_before(node, makeText(UnsafeBufferPointer(rebasing: text[cursor..<piece.range.lowerBound])))
                }
                let placeholder = makePlaceholder(shown: piece.reference.shown)
                cmark_node_insert_before(node, placeholder)
                references.append(piece.reference)
                termNodes.append(placeholder)
                cursor = piece.range.upperBound
            }
            if cursor < text.count {
                cmark_node_insert_before(node, makeText(UnsafeBufferPointer(rebasing: text[cursor...])))
            }
            cmark_node_free(node)
        }

        /// A text node of `bytes` (a part of a text node's literal, so UTF-8 without NUL).
        private func makeText(_ bytes: UnsafeBufferPointer<UInt8>) -> OpaquePointer {
            let node = MarkdownDocument.newNode(CMARK_NODE_TEXT)
            // The C string made on the stack: a Swift string for each of a million pieces cost an allocation more.
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytes.count + 1) { buffer in
                bytes.withMemoryRebound(to: CChar.self) { _ = buffer.initialize(from: $0) }
                buffer[bytes.count] = 0
                cmark_node_set_literal(node, buffer.baseAddress)
            }
            return node
        }

        private func makePlaceholder(shown: String) -> OpaquePointer {
            // Its markup is set when it renders: a new custom node renders none.
            let node = MarkdownDocument.newNode(CMARK_NODE_CUSTOM_INLINE)
            let text = MarkdownDocument.newNode(CMARK_NODE_TEXT)
            // A short string lives in the value, not in memory ending with a NUL: `withCString` puts it on the stack, where
            // passing the string itself made an array of it on the heap, for every one of a million references.
            _ = shown.withCString { cmark_node_set_literal(text, $0) }
            cmark_node_append_child(node, text)
            return node
        }
    }
}
