/// The automaton of all forms: a trie over the forms' folded UTF-8, walked from every place a word may start.
///
/// Matches only start where a word does, so the anchored walk needs no failure links (it is Aho–Corasick restricted
/// to word starts): a text is read once by the boundary test, plus the units of each word the trie knows a prefix
/// of. The trie is a double array over unit classes: the child of the node in slot `s` by class `c` is in slot
/// `base(s) + c` if that slot's `check` is `s`, so a step is one read of one slot, with one branch.
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

    /// A node's slot: where its children start, its parent's slot (-1: a free slot), its outputs.
    struct Slot: Sendable {
        var base: Int32 = 0
        var check: Int32 = -1
        var firstOutput: Int32 = 0
        var outputCount: Int32 = 0
    }

    static let root: Int32 = 0

    private let slots: [Slot]
    /// The class of each unit, from 1 (0: no form has it, so the walk stops without reading a slot).
    private let classes: [UInt8]
    /// Classes 1 through `wordClasses` are ASCII letters, digits and `_`.
    let wordClasses: UInt8
    let outputs: [Output]
    let exactSpellings: [[UInt8]]
    let nodeCount: Int

    /// The trie of `entries`, and the indices of the entries that an earlier entry of another term with the same
    /// spelling (folded, or exact for case-sensitive ones) hides: they only match where that term is excluded.
    ///
    /// At one node, case-sensitive forms come before case-insensitive ones (the exact spelling is the more specific
    /// claim: `Go` the language over `go` the verb), otherwise first entered first.
    static func build(_ entries: [Entry]) -> (trie: TermTrie, shadowed: [Int]) {
        let (classes, wordClasses) = unitClasses(entries)
        var children: [[(label: UInt8, child: Int)]] = [[]]
        var nodeOutputs: [[Output]] = [[]]
        var exactSpellings: [[UInt8]] = []
        var shadowed: [Int] = []
        for (index, entry) in entries.enumerated() {
            var node = 0
            for unit in entry.units {
                let label = classes[Int(unit)]
                if let edge = children[node].first(where: { $0.label == label }) {
                    node = edge.child
                } else {
                    children[node].append((label, children.count))
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

        // Slot 0 is the root's; slot 1 stays free, as bases start at 1 and classes at 1.
        var slots = [Slot(check: 0), Slot()]
        /// Whether each slot is taken, apart from `slots` for a compact scan while placing nodes.
        var taken = [true, true]
        var slotOf = [Int32](repeating: 0, count: children.count)
        var outputs: [Output] = []
        var firstFree = 2
        var largestBase = 0
        var crowdedFrontier = 1
        // Breadth first: a node's slot is known before its children are placed, and the levels every walk goes
        // through (the root, the first letters) lie together.
        var queue = [0]
        var next = 0
        while next < queue.count {
            let node = queue[next]
            next += 1
            let slot = Int(slotOf[node])
            // A stable partition: case-sensitive first, each group in the order entered.
            let accepted = nodeOutputs[node].filter { $0.exact >= 0 } + nodeOutputs[node].filter { $0.exact < 0 }
            slots[slot].firstOutput = Int32(outputs.count)
            slots[slot].outputCount = Int32(accepted.count)
            outputs.append(contentsOf: accepted)
            let labels = children[node].map { Int($0.label) }.sorted()
            guard let smallest = labels.first, let largest = labels.last else { continue }
            while firstFree < taken.count && taken[firstFree] { firstFree += 1 }
            // The first base at which every child's slot is free. A node of one child takes
            // the first hole; one of several searches on from where the last such node went, since slots are only
            // ever taken (a base that failed once would mostly fail again): placing stays linear, for a few holes.
            var base = max(1, (labels.count == 1 ? firstFree : max(firstFree, crowdedFrontier)) - smallest)
            while labels.contains(where: { base + $0 < taken.count && taken[base + $0] }) { base += 1 }
            if labels.count > 1 { crowdedFrontier = base + smallest }
            if base + largest >= taken.count {
                taken.append(contentsOf: repeatElement(false, count: base + largest + 1 - taken.count))
                slots.append(contentsOf: repeatElement(Slot(), count: base + largest + 1 - slots.count))
            }
            slots[slot].base = Int32(base)
            largestBase = max(largestBase, base)
            for edge in children[node] {
                let position = base + Int(edge.label)
                taken[position] = true
                slots[position].check = Int32(slot)
                slotOf[edge.child] = Int32(position)
                queue.append(edge.child)
            }
        }
        // Any node's base plus any class must be a slot (a leaf's base is 0): those past the last child are free.
        let classCount = Int(classes.max() ?? 0)
        let needed = largestBase + classCount + 1
        if slots.count < needed { slots.append(contentsOf: repeatElement(Slot(), count: needed - slots.count)) }
        let trie = TermTrie(
            slots: slots, classes: classes, wordClasses: wordClasses, outputs: outputs, exactSpellings: exactSpellings, nodeCount: children.count)
        return (trie, shadowed)
    }

    /// The units used by some form, numbered from 1; ASCII word characters first, so a class tells the walk it is
    /// inside a word. At most 243 classes: folded units are UTF-8, which never uses 13 of the byte values. An ASCII
    /// capital has its small letter's class (folded units have no capitals), so plain ASCII text is walked as it is.
    private static func unitClasses(_ entries: [Entry]) -> (classes: [UInt8], wordClasses: UInt8) {
        var used = [Bool](repeating: false, count: 256)
        for entry in entries {
            for unit in entry.units { used[Int(unit)] = true }
        }
        var classes = [UInt8](repeating: 0, count: 256)
        var count = 0
        var wordClasses: UInt8 = 0
        for wordFirst in [true, false] {
            for unit in 0..<256 where used[unit] && (unit < 0x80 && ASCIIUnits.isWord(UInt8(unit))) == wordFirst {
                count += 1
                classes[unit] = UInt8(count)
            }
            if wordFirst { wordClasses = UInt8(count) }
        }
        for capital in UInt8(ascii: "A")...UInt8(ascii: "Z") { classes[Int(capital)] = classes[Int(capital | 0x20)] }
        return (classes, wordClasses)
    }

    private init(slots: [Slot], classes: [UInt8], wordClasses: UInt8, outputs: [Output], exactSpellings: [[UInt8]], nodeCount: Int) {
        self.slots = slots
        self.classes = classes
        self.wordClasses = wordClasses
        self.outputs = outputs
        self.exactSpellings = exactSpellings
        self.nodeCount = nodeCount
    }

    var slotCount: Int { slots.count }

    /// Calls `body` with the nodes as buffers, which the walk reads without bounds checks.
    func withNodes<Result>(_ body: (Nodes) -> Result) -> Result {
        slots.withUnsafeBufferPointer { slots in
            classes.withUnsafeBufferPointer { body(Nodes(slots: slots.baseAddress!, classes: $0.baseAddress!)) }
        }
    }

    /// The nodes, read through pointers. Every read is in bounds: classes are 256; a node's base plus a class is a
    /// slot, as `build` made the array long enough for every base plus the largest class.
    struct Nodes {
        let slots: UnsafePointer<Slot>
        let classes: UnsafePointer<UInt8>

        /// The class of `unit`: 0 if no form has it.
        @inline(__always)
        func label(_ unit: UInt8) -> UInt8 { classes[Int(unit)] }

        /// The node reached from `node` by a unit of class `label` (not 0), or -1.
        @inline(__always)
        func child(of node: Int32, _ label: UInt8) -> Int32 {
            let position = slots[Int(node)].base + Int32(label)
            return slots[Int(position)].check == node ? position : -1
        }

        /// The range of `outputs` accepted at `node` (empty for most nodes).
        @inline(__always)
        func outputs(of node: Int32) -> Range<Int> {
            let slot = slots[Int(node)]
            return Int(slot.firstOutput)..<Int(slot.firstOutput + slot.outputCount)
        }
    }
}
