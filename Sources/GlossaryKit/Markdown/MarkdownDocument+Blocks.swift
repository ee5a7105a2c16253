/// The blocks a page renders otherwise than cmark would: GitHub alerts become callouts, headings get their ids
/// and a link to themselves (the tree surgery lives with the types it serves, `Callout` and `HeadingAnchors`, which
/// are pure).
extension MarkdownDocument {
    /// A heading taken out of the tree: a custom block stands in its place, and each render fills the block
    /// with the heading's HTML (its terms and links as that render decides) plus its id and anchor link.
    struct AnchoredHeading {
        let node: CMarkNode
        let placeholder: CMarkNode
        let heading: PageHeading
    }

    /// Replaces every block quote of `blockQuotes` (the tree's, in document order) that opens with an alert marker by
    /// a callout holding the quote's blocks (the marker line left out). `lines` are the markdown's: an escaped marker
    /// (`\[!NOTE]`) stays text.
    static func convertCallouts(_ blockQuotes: [CMarkNode], lines: SourceLines) {
        var quotes: [(CMarkNode, Callout)] = []
        for node in blockQuotes {
            guard let kind = callout(of: node), let paragraph = node.firstChild else { continue }
            // Text nodes hold the decoded text, where `\[` is already `[`: the source line tells an escape apart.
            let line = lines.line(paragraph.startLine)
            if line.indices.contains(where: { line[$0...].starts(with: "\\[!".utf8) }) { continue }
            quotes.append((node, kind))
        }
        for (quote, kind) in quotes {
            guard let paragraph = quote.firstChild else { continue }
            // The marker's inlines and the line break after it.
            while let first = paragraph.firstChild {
                let kind = first.kind
                first.free()
                if kind == .softBreak || kind == .lineBreak { break }
            }
            if paragraph.firstChild == nil { paragraph.free() }
            let block = CMarkNode.make(.customBlock)
            block.setOnEnter(kind.openingHTML)
            block.setOnExit(Callout.closingHTML)
            while let child = quote.firstChild {
                block.appendChild(child)
            }
            block.insert(before: quote)
            quote.free()
        }
    }

    /// The alert a block quote announces: its first block is a paragraph whose first line is a marker alone.
    private static func callout(of quote: CMarkNode) -> Callout? {
        guard let paragraph = quote.firstChild, paragraph.kind == .paragraph else { return nil }
        var line = ""
        var node = paragraph.firstChild
        while let current = node {
            let kind = current.kind
            if kind == .softBreak || kind == .lineBreak { break }
            // Anything but plain text (emphasis, a link, a term) on the first line means it is no marker.
            guard kind == .text, let literal = current.literal else { return nil }
            line += literal
            node = current.next
        }
        return Callout(markerLine: line)
    }

    /// Takes every heading of `nodes` (the tree's, in document order) out of the tree, leaving a placeholder, and
    /// gives it its id: the one it chose (`explicit`: its `{#id}` and where that stands) when it can have it. Each
    /// chosen id it can't have is a problem.
    static func anchorHeadings(
        _ nodes: [CMarkNode], explicit: [CMarkNode: (id: String, location: SourceLocation)]
    ) -> (headings: [AnchoredHeading], problems: [Diagnostic]) {
        var anchors = HeadingAnchors()
        var problems: [Diagnostic] = []
        let headings = nodes.map { node in
            let text = PlainText.of(node)
            var id: String
            if let chosen = explicit[node] {
                let taken: Bool
                (id, taken) = anchors.id(for: text, explicit: chosen.id)
                if taken {
                    problems.append(Diagnostic(.headingID(id: chosen.id, valid: HeadingAnchors.isValid(chosen.id), given: id), at: chosen.location))
                }
            } else {
                id = anchors.id(for: text)
            }
            let heading = PageHeading(level: node.headingLevel, text: text, id: id)
            let placeholder = CMarkNode.make(.customBlock)
            placeholder.setOnExit("")
            placeholder.insert(before: node)
            node.unlink()
            return AnchoredHeading(node: node, placeholder: placeholder, heading: heading)
        }
        return (headings, problems)
    }

    /// Fills each heading's placeholder with the heading as cmark renders it now, with its id and anchor link.
    static func render(_ headings: [AnchoredHeading]) {
        for anchored in headings {
            let level = anchored.heading.level
            let open = "<h\(level)>"
            let close = "</h\(level)>\n"
            // As bytes throughout: the heading's references' markers (`BodyHTML`) are no UTF-8, and a leading combining
            // mark would make `<h1>` another Character.
            guard let whole = anchored.node.withHTML(options: options, { Array($0) }),
                whole.count >= open.utf8.count + close.utf8.count, whole.starts(with: open.utf8),
                whole.suffix(close.utf8.count).elementsEqual(close.utf8)
            else { continue }
            let id = HTML.escape(anchored.heading.id)
            // Named by its heading (`aria-labelledby`), in the page's own language.
            let anchor = "<a class=\"anchor\" href=\"#\(id)\" aria-labelledby=\"\(id)\"></a>"
            let heading =
                Array("<h\(level) id=\"\(id)\">".utf8) + whole[open.utf8.count..<(whole.count - close.utf8.count)] + Array((anchor + close).utf8) + [0]
            heading.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { anchored.placeholder.setOnEnter(cString: $0.baseAddress!) } }
        }
    }
}
