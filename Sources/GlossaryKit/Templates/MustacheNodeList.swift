/// Collects sibling nodes, merging adjacent text and line starts into single text nodes.
struct MustacheNodeList {
    private var nodes: [MustacheNode] = []
    private var pieces: [String] = []
    private var piecesStartLine = false

    mutating func appendLineStart() {
        if pieces.isEmpty { piecesStartLine = true }
        pieces.append("")
    }

    mutating func appendText(_ text: String) {
        if pieces.isEmpty {
            pieces = [text]
        } else {
            pieces[pieces.count - 1] += text
        }
    }

    mutating func append(_ node: MustacheNode) {
        flushText()
        nodes.append(node)
    }

    mutating func finish() -> [MustacheNode] {
        flushText()
        return nodes
    }

    private mutating func flushText() {
        guard !pieces.isEmpty else { return }
        nodes.append(.text(MustacheText(pieces: pieces, startsLine: piecesStartLine)))
        pieces = []
        piecesStartLine = false
    }
}

extension Array where Element == MustacheNode {
    /// Removes `prefix` (or as much of it as is there) from the start of every line, and from the indentation
    /// of nested partials, parents and blocks: a block body's indentation where it is written is not meant
    /// to reach the output.
    func removingIndentation(_ prefix: String) -> [MustacheNode] {
        map { node in
            switch node {
            case .text(let text):
                let pieces = text.pieces.enumerated().map { index, piece in
                    text.startsLine(at: index) ? piece.removingIndentation(prefix) : piece
                }
                return .text(MustacheText(pieces: pieces, startsLine: text.startsLine))
            case .variable:
                return node
            case .section(let name, let inverted, let body):
                return .section(name, inverted: inverted, body: body.removingIndentation(prefix))
            case .partial(let name, let indentation):
                return .partial(name: name, indentation: indentation?.removingIndentation(prefix))
            case .parent(let name, let indentation, let overrides):
                // The overriding bodies were already freed of their own indentation.
                return .parent(name: name, indentation: indentation?.removingIndentation(prefix), overrides: overrides)
            case .block(let block):
                return .block(
                    MustacheBlock(
                        name: block.name,
                        defaultBody: block.defaultBody.removingIndentation(prefix),
                        indentation: block.indentation?.removingIndentation(prefix),
                        standalone: block.standalone))
            }
        }
    }
}

extension String {
    /// Drops the longest start of `self` that is also a start of `prefix`.
    fileprivate func removingIndentation(_ prefix: String) -> String {
        var index = startIndex
        for character in prefix {
            guard index < endIndex, self[index] == character else { break }
            index = self.index(after: index)
        }
        return String(self[index...])
    }
}
