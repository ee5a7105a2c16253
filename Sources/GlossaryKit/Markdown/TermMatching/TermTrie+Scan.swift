extension TermTrie {
    /// What the caller makes of a form found in the text.
    enum Candidacy {
        /// The term is not matched on this page: shorter forms inside this one may match instead.
        case excluded
        /// The term is matched but not reported (already linked on the page): the text is taken, nothing inside it matches.
        case taken
        case reported
    }

    /// Finds, left to right, the longest form starting at each word start, and reports it unless it was only taken.
    ///
    /// `candidacy` is asked about each form that ends at a boundary (and, if case-sensitive, is spelled exactly so);
    /// `found` gets each reported match's term and its byte range in `text`.
    func scan(
        utf8 text: UnsafeBufferPointer<UInt8>, foldings: ScalarFolding.Cache, candidacy: (Int) -> Candidacy, found: (Range<Int>, Int) -> Void
    ) {
        withNodes { nodes in
            if ASCIIUnits.isASCII(text) {
                walk(ASCIIUnits(bytes: text), nodes, candidacy: candidacy, found: found)
                return
            }
            let folded = FoldedText(utf8: text, exact: false, foldings: foldings)
            folded.units.withUnsafeBufferPointer { units in
                folded.flags.withUnsafeBufferPointer { flags in
                    let reading = FoldedUnits(units: units, flags: flags, folded: folded, original: text, foldings: foldings)
                    walk(reading, nodes, candidacy: candidacy, found: found)
                }
            }
        }
    }

    private func walk<Units: MatchUnits>(_ units: Units, _ nodes: Nodes, candidacy: (Int) -> Candidacy, found: (Range<Int>, Int) -> Void) {
        let count = units.count
        var start = 0
        while start < count {
            var best: (end: Int, term: Int, reported: Bool)?
            var node = TermTrie.root
            var index = start
            // Whether every unit walked so far is an ASCII word character: then no boundary lies among them.
            var inWord = true
            while index < count {
                var label = nodes.label(units.unit(index))
                var next = index + 1
                if units.isSpace(index) {
                    label = nodes.label(UInt8(ascii: " "))
                    while next < count, units.isSpace(next) { next += 1 }
                }
                if label == 0 { break }
                node = nodes.child(of: node, label)
                if node < 0 { break }
                inWord = inWord && label <= wordClasses
                index = next
                let accepted = nodes.outputs(of: node)
                guard !accepted.isEmpty, units.isBoundary(index) else { continue }
                for position in accepted {
                    let output = outputs[position]
                    if output.exact >= 0, !units.spells(start..<index, exactly: exactSpellings[Int(output.exact)]) { continue }
                    let verdict = candidacy(Int(output.term))
                    if verdict == .excluded { continue }
                    best = (index, Int(output.term), verdict == .reported)
                    break
                }
            }
            guard let best else {
                // The walk stopped at `index`: the next start is at the end of the word if the walk was inside one.
                start = units.nextBoundary(after: inWord && index > start ? index - 1 : start)
                continue
            }
            if best.reported { found(units.originalOffset(start)..<units.originalOffset(best.end), best.term) }
            start = best.end
        }
    }
}
