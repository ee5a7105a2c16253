import Foundation

/// A page's markdown parsed by libcmark (`CMark`), with its term references found and turned into placeholder nodes.
///
/// The document owns its tree; rendering fills each reference's placeholder with the link (or the unresolved marker)
/// the caller decides on, then asks cmark for HTML. Rendering mutates the tree, so one document must not render on
/// two threads at once; different documents may render in parallel. The tree is scanned by `ReferenceScan`, its text
/// read by `PlainText`, and a big page's work spread over the cores by `BlockRuns`.
public final class MarkdownDocument: @unchecked Sendable {
    /// The version of the libcmark the program runs with (`0.30.2`), for `glossary --version`.
    public static var cmarkVersion: String { CMark.version }

    /// The options the build renders with: cmark's defaults, exactly what the `cmark` CLI uses without flags (safe
    /// mode: raw HTML is omitted, no smart punctuation).
    static let options = CMark.Options.default
    /// The options the build parses with: source positions make cmark count the line breaks inside code spans and raw
    /// HTML in the positions of the nodes after them; rendering without the option keeps them out of the HTML.
    static let parseOptions = options.union(.sourcePosition)
    /// `options` as cmark's flags.
    public static let cmarkOptions: Int32 = options.rawValue

    public let references: [TermReference]
    public let links: [MarkdownLink]
    /// Problems found while scanning (unclosed or empty references, heading ids that can't be used).
    public let diagnostics: [Diagnostic]
    /// The first heading's plain text, used as a title when front matter has none.
    public let firstHeading: String?
    /// Whether the document's first block is a level-1 heading (the page brings its own title).
    public let startsWithTitleHeading: Bool
    /// Every heading, in document order, with the id it renders with.
    public let headings: [PageHeading]
    /// The length of the markdown in bytes.
    public let markdownLength: Int

    private let root: CMarkNode
    /// Where the tree's nodes live (see `NodeArena`).
    private let arena = NodeArena()
    /// The placeholder node of each reference, index-aligned with `references`.
    private let termNodes: [CMarkNode]
    /// Every link and image node with its destination as written, index-aligned with `links`: rendering
    /// always rewrites from the original, so a document renders the same however often it is rendered.
    private let linkNodes: [CMarkNode]
    /// The headings, out of the tree, and their placeholders (see `MarkdownDocument+Blocks.swift`).
    private let anchoredHeadings: [AnchoredHeading]

    /// Parses `markdown`; `firstLine` is the file line on which the markdown starts (after front matter). With
    /// `autolink`, plain occurrences of its terms become references too (`TermReference.isAutomatic`), never in
    /// headings, code, links, images, raw HTML or an explicit reference. With `statusCheck`, every deprecated or
    /// forbidden name its text writes is reported, except those the entry `statusEntry` (below `content/`) marks.
    public init(
        markdown: String, file: String, firstLine: Int = 1, autolink: Autolinker? = nil, statusCheck: TermStatusCheck? = nil, statusEntry: String? = nil
    ) {
        markdownLength = markdown.utf8.count
        var source = markdown
        let arena = arena
        root = arena.withCurrent { CMark.parse(&source, options: Self.parseOptions) }
        let lineOffset = firstLine - 1
        var scan = ReferenceScan(root: root, source: source) { SourceLocation(file: file, line: $0 + lineOffset, column: $1) }
        scan.autolink = autolink
        scan.statusCheck = statusCheck
        scan.statusEntry = statusEntry
        arena.withCurrent { scan.run() }
        references = scan.references
        termNodes = scan.termNodes
        let records = scan.linkRecords.filter { !scan.freedLinks.contains($0.node) }
        links = records.map(\.link)
        linkNodes = records.map(\.node)
        firstHeading = scan.firstHeading
        startsWithTitleHeading = root.firstChild.map { $0.kind == .heading && $0.headingLevel == 1 } ?? false
        let (anchored, problems) = arena.withCurrent {
            Self.convertCallouts(scan.quotes, lines: scan.lines)
            return Self.anchorHeadings(scan.headingNodes, explicit: scan.explicitIDs)
        }
        anchoredHeadings = anchored
        headings = anchored.map(\.heading)
        diagnostics = scan.diagnostics + problems
    }

    deinit {
        for anchored in anchoredHeadings { anchored.node.free() }
        root.free()
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
            node.setOnEnter(cString: BodyHTML.marker(index, closes: false))
            node.setOnExit(cString: BodyHTML.marker(index, closes: true))
        }
        for (node, (link, rewritten)) in zip(linkNodes, zip(links, destinations)) {
            let destination = rewritten ?? link.destination
            if destination != node.url { node.url = destination }
        }
        Self.render(anchoredHeadings)
        if let runs = blockRuns(from: parallelFrom) { return runs.renderHTML() }
        return root.withHTML(options: Self.options) { BodyHTML(marked: $0) } ?? BodyHTML(bytes: [], slots: [])
    }

    /// Plain text of the document's first paragraph (a summary line for indexes and cards).
    public func firstParagraphText() -> String? {
        firstParagraph.map(PlainText.of)
    }

    /// The text a search finds the page by (see `PlainText.searchable`).
    public func searchableText() -> String {
        PlainText.searchable(CollectionOfOne(root))
    }

    /// Markdown this long is a big page: its search field is counted and its HTML rendered on every core (a site
    /// of pages this size has too few of them to keep the cores busy).
    public static let bigPageSize = 4 << 20

    /// The search field of the page's text (`searchableText`); a big page's is counted on every core (`BlockRuns`).
    public func searchTerms(parallelFrom size: Int = bigPageSize) -> SearchTerms {
        guard let runs = blockRuns(from: size) else { return SearchTerms(text: searchableText()) }
        return runs.searchTerms()
    }

    /// The page's top-level blocks in runs for every core, if it is a big page: `size` bytes or more.
    private func blockRuns(from size: Int) -> BlockRuns? {
        // Asked only of a big page: Foundation reads the cgroup's files for it on every call (3% of a build's time,
        // asked for every page).
        guard markdownLength >= size else { return nil }
        return BlockRuns(root: root, jobs: ProcessInfo.processInfo.activeProcessorCount)
    }

    /// The HTML inside the document's first paragraph (a card's text): inline markup and links as written, term
    /// references as their shown text. cmark's safe mode has already left out raw HTML and `javascript:` links.
    public func firstParagraphHTML() -> String? {
        arena.withCurrent { paragraphHTML() }
    }

    private func paragraphHTML() -> String? {
        guard let paragraph = firstParagraph else { return nil }
        for node in termNodes {
            node.setOnEnter("")
            node.setOnExit("")
        }
        for (node, link) in zip(linkNodes, links) where link.destination != node.url {
            node.url = link.destination
        }
        guard let rendered = paragraph.withHTML(options: Self.options, { String(decoding: $0, as: UTF8.self) }) else { return nil }
        // On bytes, as the heading's tags are (a leading combining mark would make `<p>` another Character).
        var html = Array(rendered.utf8)[...]
        if html.starts(with: "<p>".utf8) { html = html.dropFirst(3) }
        while html.last == UInt8(ascii: "\n") { html = html.dropLast() }
        if html.suffix(4).elementsEqual("</p>".utf8) { html = html.dropLast(4) }
        // A soft line break reads as a space, in a card's text as in the plain summary.
        return String(decoding: html.map { $0 == UInt8(ascii: "\n") ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
    }

    /// The first paragraph of the tree in document order, in a container block or not.
    private var firstParagraph: CMarkNode? {
        var paragraph: CMarkNode?
        root.forEachBlock { node, kind in
            if kind == .paragraph { paragraph = node }
            return paragraph == nil
        }
        return paragraph
    }
}
