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
