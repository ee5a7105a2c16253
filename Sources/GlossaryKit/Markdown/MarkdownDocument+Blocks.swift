import CCmark
import Foundation

/// The blocks a page renders otherwise than cmark would: GitHub alerts become callouts, headings get their ids
/// and a link to themselves. Besides `MarkdownDocument.swift`, this file touches cmark (the tree surgery lives
/// with the types it serves, `Callout` and `HeadingAnchors`, which are pure), as do `ReferenceScan`, `PlainText` and
/// `BlockRuns`.
extension MarkdownDocument {
    /// A heading taken out of the tree: a custom block stands in its place, and each render fills the block
    /// with the heading's HTML (its terms and links as that render decides) plus its id and anchor link.
    struct AnchoredHeading {
        let node: OpaquePointer
        let placeholder: OpaquePointer
        let heading: PageHeading
    }

    /// Replaces every block quote of `blockQuotes` (the tree's, in document order) that opens with an alert marker by
    /// a callout holding the quote's blocks (the marker line left out). `lines` are the markdown's: an escaped marker
    /// (`\[!NOTE]`) stays text.
    static func convertCallouts(_ blockQuotes: [OpaquePointer], lines: SourceLines) {
        var quotes: [(OpaquePointer, Callout)] = []
        for node in blockQuotes {
            guard let kind = callout(of: node), let paragraph = cmark_node_first_child(node) else { continue }
            // Text nodes hold the decoded text, where `\[` is already `[`: the source line tells an escape apart.
            let line = lines.line(Int(cmark_node_get_start_line(paragraph)))
            if line.indices.contains(where: { line[$0...].starts(with: "\\[!".utf8) }) { continue }
            quotes.append((node, kind))
        }
        for (quote, kind) in quotes {
            guard let paragraph = cmark_node_first_child(quote) else { continue }
            // The marker's inlines and the line break after it.
            while let first = cmark_node_first_child(paragraph) {
                let type = cmark_node_get_type(first)
                cmark_node_free(first)
                if type == CMARK_NODE_SOFTBREAK || type == CMARK_NODE_LINEBREAK { break }
            }
            if cmark_node_first_child(paragraph) == nil { cmark_node_free(paragraph) }
            let block = MarkdownDocument.newNode(CMARK_NODE_CUSTOM_BLOCK)
            cmark_node_set_on_enter(block, kind.openingHTML)
            cmark_node_set_on_exit(block, Callout.closingHTML)
            while let child = cmark_node_first_child(quote) {
                cmark_node_append_child(block, child)
            }
            cmark_node_insert_before(quote, block)
            cmark_node_free(quote)
        }
    }

    /// The alert a block quote announces: its first block is a paragraph whose first line is a marker alone.
    private static func callout(of quote: OpaquePointer) -> Callout? {
        guard let paragraph = cmark_node_first_child(quote), cmark_node_get_type(paragraph) == CMARK_NODE_PARAGRAPH else { return nil }
        var line = ""
        var node = cmark_node_first_child(paragraph)
        while let current = node {
            let type = cmark_node_get_type(current)
            if type == CMARK_NODE_SOFTBREAK || type == CMARK_NODE_LINEBREAK { break }
            // Anything but plain text (emphasis, a link, a term) on the first line means it is no marker.
            guard type == CMARK_NODE_TEXT, let literal = cmark_node_get_literal(current) else { return nil }
            line += String(cString: literal)
            node = cmark_node_next(current)
        }
        return Callout(markerLine: line)
    }

    /// Takes every heading of `nodes` (the tree's, in document order) out of the tree, leaving a placeholder, and
    /// gives it its id.
    static func anchorHeadings(_ nodes: [OpaquePointer]) -> [AnchoredHeading] {
        var anchors = HeadingAnchors()
        return nodes.map { node in
            let text = PlainText.of(node)
            let heading = PageHeading(level: Int(cmark_node_get_heading_level(node)), text: text, id: anchors.id(for: text))
            let placeholder = MarkdownDocument.newNode(CMARK_NODE_CUSTOM_BLOCK)
            cmark_node_set_on_exit(placeholder, "")
            cmark_node_insert_before(node, placeholder)
            cmark_node_unlink(node)
            return AnchoredHeading(node: node, placeholder: placeholder, heading: heading)
        }
    }

    /// Fills each heading's placeholder with the heading as cmark renders it now, with its id and anchor link.
    static func render(_ headings: [AnchoredHeading]) {
        for anchored in headings {
            let level = anchored.heading.level
            let open = "<h\(level)>"
            let close = "</h\(level)>\n"
            guard let rendered = cmark_render_html(anchored.node, cmarkOptions) else { continue }
            // As bytes throughout: the heading's references' markers (`BodyHTML`) are no UTF-8, and a leading combining
            // mark would make `<h1>` another Character.
            let whole = Array(UnsafeBufferPointer(start: UnsafeRawPointer(rendered).assumingMemoryBound(to: UInt8.self), count: strlen(rendered)))
            NodeArena.free(rendered)
            guard whole.count >= open.utf8.count + close.utf8.count, whole.starts(with: open.utf8),
                whole.suffix(close.utf8.count).elementsEqual(close.utf8)
            else { continue }
            let id = HTML.escape(anchored.heading.id)
            let anchor = "<a class=\"anchor\" href=\"#\(id)\" aria-label=\"Link to this section\"></a>"
            let heading =
                Array("<h\(level) id=\"\(id)\">".utf8) + whole[open.utf8.count..<(whole.count - close.utf8.count)] + Array((anchor + close).utf8) + [0]
            _ = heading.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { cmark_node_set_on_enter(anchored.placeholder, $0.baseAddress) } }
        }
    }
}
