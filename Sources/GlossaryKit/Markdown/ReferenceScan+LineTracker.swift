extension ReferenceScan {
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

        mutating func visit(_ node: CMarkNode, kind: CMarkNode.Kind, entering: Bool, source: (Int) -> UnsafeBufferPointer<UInt8>) {
            guard kind.isInline else {
                if entering {
                    (drift, current) = (0, node.startLine)
                    let end = node.endLine
                    blockEnd = end > 0 ? end : Int.max
                }
                return
            }
            switch kind {
            case .softBreak:
                current += 1
            case .lineBreak:
                // cmark gives breaks no position: the line the walk is on ends with the backslash, or with spaces.
                if source(current).last == UInt8(ascii: "\\") { drift += 1 }
                current += 1
            default:
                // Containers (emphasis, links) end where their last child does: count them on the way out.
                let isLeaf = node.firstChild == nil
                if !entering || isLeaf, node.endLine > 0 { current = node.endLine + drift }
            }
        }

        /// The source line an inline node starts on.
        func line(of node: CMarkNode) -> Int {
            min(node.startLine + drift, blockEnd)
        }

        /// How many lines below its line the text of a node is looked for (a multi-line link title is rarely longer).
        static let searchedLines = 16

        /// The source line an inline node starts on: the first, from `line(of:)` on, that `holds` it (which
        /// then corrects the nodes after it too), or `line(of:)` when none within `searchedLines` does.
        mutating func locate(_ node: CMarkNode, holds: (Int) -> Bool) -> Int {
            let expected = line(of: node)
            for offset in 0...Self.searchedLines where expected + offset <= blockEnd && holds(expected + offset) {
                drift += offset
                current += offset
                return expected + offset
            }
            return expected
        }
    }
}
