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

    /// The field of the texts of `parts` one after another, each part's terms apart from the next's (as when a line
    /// break separates them): counts added up, terms in order of first occurrence.
    init(merging parts: [SearchTerms]) {
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
