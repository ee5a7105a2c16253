import Foundation

/// One field of a document as the search index counts it: each distinct term with how often it occurs, and the
/// field's length in terms (lunr's BM25 weighs a term by both).
public struct SearchTerms: Hashable, Sendable {
    /// Distinct terms, in order of first occurrence.
    public var terms: [String]
    /// How often each term occurs, index-aligned with `terms`.
    public var counts: [Int]
    /// How many terms the field has, repeats included.
    public var length: Int

    public init(terms: [String], counts: [Int], length: Int) {
        self.terms = terms
        self.counts = counts
        self.length = length
    }

    public static let empty = SearchTerms(terms: [], counts: [], length: 0)

    /// The field `text` makes (see `SearchTokenizer`).
    public init(text: String) {
        let size = text.utf8.count
        let jobs = ProcessInfo.processInfo.activeProcessorCount
        guard size >= Self.parallelTextSize, jobs > 1 else {
            self.init(tokenizing: text)
            return
        }
        // A big page's text (50 MB holds millions of words) is cut at line breaks, which are separators, so no term
        // is cut; the parts are counted on every core and merged in order: first occurrences stay first.
        let parts = Self.lines(of: text, parts: jobs).parallelMap(jobs: jobs) { SearchTerms(tokenizing: String($0)) }
        var ids = TermIDs(capacity: parts.map(\.terms.count).max() ?? 0)
        var counts: [Int] = []
        for part in parts {
            for (term, count) in zip(part.terms, part.counts) {
                let (id, isNew) = ids.id(term)
                if isNew {
                    counts.append(count)
                } else {
                    counts[id] += count
                }
            }
        }
        self.init(terms: ids.strings, counts: counts, length: parts.reduce(0) { $0 + $1.length })
    }

    /// Texts this long are counted in parallel.
    static let parallelTextSize = 4 << 20

    /// `text` in about `parts` pieces of whole lines, each piece but the last ending with its line break.
    static func lines(of text: String, parts: Int) -> [Substring] {
        let utf8 = text.utf8
        let step = max(1, utf8.count / parts)
        var pieces: [Substring] = []
        var start = utf8.startIndex
        while start != utf8.endIndex {
            let target = utf8.index(start, offsetBy: step, limitedBy: utf8.endIndex) ?? utf8.endIndex
            var end = utf8[target...].firstIndex(of: UInt8(ascii: "\n")).map { utf8.index(after: $0) } ?? utf8.endIndex
            if pieces.count == parts - 1 { end = utf8.endIndex }
            pieces.append(text[start..<end])
            start = end
        }
        return pieces
    }

    init(tokenizing text: String) {
        // Straight from the tokenizer's bytes: a string is made once per distinct term, not once per word.
        var ids = TermIDs(capacity: 64)
        var counts: [Int] = []
        var length = 0
        SearchTokenizer.forEachTerm(text) { term in
            let (id, isNew) = ids.id(bytes: term)
            if isNew {
                counts.append(1)
            } else {
                counts[id] += 1
            }
            length += 1
        }
        self.init(terms: ids.strings, counts: counts, length: length)
    }

    public init(tokens: [String]) {
        // Terms are the same when their bytes are, as lunr compares them (see `TermIDs`).
        var ids = TermIDs(capacity: tokens.count)
        var counts: [Int] = []
        for token in tokens {
            let (id, isNew) = ids.id(token)
            if isNew {
                counts.append(1)
            } else {
                counts[id] += 1
            }
        }
        self.init(terms: ids.strings, counts: counts, length: tokens.count)
    }
}
