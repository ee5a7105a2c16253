import CCmark

/// A container block around a paragraph, at cmark's start position (`cmark_node_get_start_line` and
/// `_start_column` of the `CMARK_NODE_BLOCK_QUOTE` or `CMARK_NODE_ITEM` node): the line and 1-based byte column of
/// its `>` or list marker, counted in the markdown cmark parsed.
public enum MarkdownContainer: Hashable, Sendable {
    case blockQuote(line: Int, column: Int)
    case listItem(line: Int, column: Int)

    var line: Int {
        switch self {
        case .blockQuote(let line, _), .listItem(let line, _): line
        }
    }

    var column: Int {
        switch self {
        case .blockQuote(_, let column), .listItem(_, let column): column
        }
    }
}

extension MarkdownContainer {
    /// A node's block quote and list item ancestors, outermost first.
    static func ancestors(of node: OpaquePointer) -> [MarkdownContainer] {
        var containers: [MarkdownContainer] = []
        var current = cmark_node_parent(node)
        while let ancestor = current {
            let line = Int(cmark_node_get_start_line(ancestor))
            let column = Int(cmark_node_get_start_column(ancestor))
            switch cmark_node_get_type(ancestor) {
            case CMARK_NODE_BLOCK_QUOTE: containers.append(.blockQuote(line: line, column: column))
            case CMARK_NODE_ITEM: containers.append(.listItem(line: line, column: column))
            default: break
            }
            current = cmark_node_parent(ancestor)
        }
        return containers.reversed()
    }
}
