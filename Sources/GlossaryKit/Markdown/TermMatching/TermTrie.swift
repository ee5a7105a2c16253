/// The automaton of all forms: a trie over the forms' folded UTF-8, walked from every place a word may start.
///
/// Matches only start where a word does, so the anchored walk needs no failure links (it is Aho–Corasick restricted
/// to word starts): a text is read once by the boundary test, plus the units of each word the trie knows a prefix
/// of. The trie is frozen into flat arrays: a node's edges are a sorted run of labels, and a node with many children
/// (the root, the first letters) also gets a 256-entry table, so the busiest steps are one array read.
struct TermTrie: Sendable {
    /// A form entered in the trie: its folded units, its term, and for a case-sensitive form its exact spelling.
    struct Entry {
        var units: ArraySlice<UInt8>
        var term: Int
        var exact: [UInt8]?
    }

    /// A form accepted at a node; `exact` indexes `exactSpellings`, or is -1 for a case-insensitive form.
    struct Output: Sendable {
        let term: Int32
        let exact: Int32
    }

    private static let root: Int32 = 0
    private static let denseThreshold = 6

    private let edgeStarts: [Int32]
    private let labels: [UInt8]
    private let targets: [Int32]
    private let denseIndex: [Int32]
    private let dense: [Int32]
    private let outputStarts: [Int32]
    let outputs: [Output]
    let exactSpellings: [[UInt8]]

    /// The trie of `entries`, and the indices of the entries that an earlier entry of another term with the same
    /// spelling (folded, or exact for case-sensitive ones) hides: they only match where that term is excluded.
    ///
    /// At one node, case-sensitive forms come before case-insensitive ones (the exact spelling is the more specific
    /// claim: `Go` the language over `go` the verb), otherwise first entered first.
    static func build(_ entries: [Entry]) -> (trie: TermTrie, shadowed: [Int]) {
        var children: [[(label: UInt8, target: Int32)]] = [[]]
        var nodeOutputs: [[Output]] = [[]]
        var exactSpellings: [[UInt8]] = []
        var shadowed: [Int] = []
        for (index, entry) in entries.enumerated() {
            var node = 0
            for unit in entry.units {
                if let edge = children[node].first(where: { $0.label == unit }) {
                    node = Int(edge.target)
                } else {
                    children[node].append((unit, Int32(children.count)))
                    node = children.count
                    children.append([])
                    nodeOutputs.append([])
                }
            }
            let sameSpelling = nodeOutputs[node].filter { output in
                output.exact < 0 ? entry.exact == nil : exactSpellings[Int(output.exact)] == entry.exact
            }
            // The same spelling again for the same term adds nothing; for another term it is kept behind the first,
            // which wins unless the page excludes it.
            if sameSpelling.contains(where: { Int($0.term) == entry.term }) { continue }
            if !sameSpelling.isEmpty { shadowed.append(index) }
            var exact: Int32 = -1
            if let spelling = entry.exact {
                exact = Int32(exactSpellings.count)
                exactSpellings.append(spelling)
            }
            nodeOutputs[node].append(Output(term: Int32(entry.term), exact: exact))
        }

        var edgeStarts: [Int32] = [0]
        var labels: [UInt8] = []
        var targets: [Int32] = []
        var denseIndex: [Int32] = []
        var dense: [Int32] = []
        var outputStarts: [Int32] = [0]
        var outputs: [Output] = []
        for node in children.indices {
            let edges = children[node].sorted { $0.label < $1.label }
            labels.append(contentsOf: edges.map(\.label))
            targets.append(contentsOf: edges.map(\.target))
            edgeStarts.append(Int32(labels.count))
            if edges.count >= denseThreshold {
                denseIndex.append(Int32(dense.count / 256))
                var table = [Int32](repeating: -1, count: 256)
                for edge in edges { table[Int(edge.label)] = edge.target }
                dense.append(contentsOf: table)
            } else {
                denseIndex.append(-1)
            }
            // A stable partition: case-sensitive first, each group in the order entered.
            outputs.append(contentsOf: nodeOutputs[node].filter { $0.exact >= 0 } + nodeOutputs[node].filter { $0.exact < 0 })
            outputStarts.append(Int32(outputs.count))
        }
        let trie = TermTrie(
            edgeStarts: edgeStarts, labels: labels, targets: targets, denseIndex: denseIndex, dense: dense, outputStarts: outputStarts,
            outputs: outputs, exactSpellings: exactSpellings)
        return (trie, shadowed)
    }

    private init(
        edgeStarts: [Int32], labels: [UInt8], targets: [Int32], denseIndex: [Int32], dense: [Int32], outputStarts: [Int32], outputs: [Output],
        exactSpellings: [[UInt8]]
    ) {
        self.edgeStarts = edgeStarts
        self.labels = labels
        self.targets = targets
        self.denseIndex = denseIndex
        self.dense = dense
        self.outputStarts = outputStarts
        self.outputs = outputs
        self.exactSpellings = exactSpellings
    }

    var nodeCount: Int { denseIndex.count }

    /// The node reached from `node` by `unit`, or -1.
    @inline(__always)
    func child(of node: Int32, _ unit: UInt8) -> Int32 {
        let table = denseIndex[Int(node)]
        if table >= 0 { return dense[Int(table) << 8 | Int(unit)] }
        var edge = Int(edgeStarts[Int(node)])
        let end = Int(edgeStarts[Int(node) + 1])
        while edge < end {
            let label = labels[edge]
            if label == unit { return targets[edge] }
            if label > unit { return -1 }
            edge += 1
        }
        return -1
    }

    /// The range of `outputs` accepted at `node` (empty for most nodes).
    @inline(__always)
    func outputRange(of node: Int32) -> Range<Int> { Int(outputStarts[Int(node)])..<Int(outputStarts[Int(node) + 1]) }
}
