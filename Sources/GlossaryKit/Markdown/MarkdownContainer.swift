/// A container block around a paragraph, at cmark's start position (the `startLine` and `startColumn` of the block
/// quote or item node): the line and 1-based byte column of its `>` or list marker, counted in the markdown cmark
/// parsed.
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
    static func ancestors(of node: CMarkNode) -> [MarkdownContainer] {
        var containers: [MarkdownContainer] = []
        var current = node.parent
        while let ancestor = current {
            switch ancestor.kind {
            case .blockQuote: containers.append(.blockQuote(line: ancestor.startLine, column: ancestor.startColumn))
            case .item: containers.append(.listItem(line: ancestor.startLine, column: ancestor.startColumn))
            default: break
            }
            current = ancestor.parent
        }
        return containers.reversed()
    }
}
