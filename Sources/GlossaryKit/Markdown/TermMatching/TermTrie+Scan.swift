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
        if ASCIIUnits.isASCII(text) {
            walk(ASCIIUnits(bytes: text), candidacy: candidacy, found: found)
        } else {
            let folded = FoldedText(utf8: text, exact: false, foldings: foldings)
            walk(FoldedUnits(folded: folded, original: text, foldings: foldings), candidacy: candidacy, found: found)
        }
    }

    private func walk<Units: MatchUnits>(_ units: Units, candidacy: (Int) -> Candidacy, found: (Range<Int>, Int) -> Void) {
        let count = units.count
        var start = 0
        while start < count {
            guard units.isBoundary(start) else {
                start += 1
                continue
            }
            var best: (end: Int, term: Int, reported: Bool)?
            var node: Int32 = 0
            var index = start
            while index < count {
                var unit = units.unit(index)
                var next = index + 1
                if units.isSpace(index) {
                    unit = UInt8(ascii: " ")
                    while next < count, units.isSpace(next) { next += 1 }
                }
                node = child(of: node, unit)
                if node < 0 { break }
                index = next
                let accepted = outputRange(of: node)
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
                start += 1
                continue
            }
            if best.reported { found(units.originalOffset(start)..<units.originalOffset(best.end), best.term) }
            start = best.end
        }
    }
}
