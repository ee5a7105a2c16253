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
        // One look-up a term (a page's text has millions): each distinct term is told a stop word or given its
        // position once.
        var positions: [String: Int] = [:]
        var terms: [String] = []
        var counts: [Int] = []
        var length = 0
        SearchTokenizer.forEachTerm(text) { term in
            if let position = positions[term] {
                guard position >= 0 else { return }
                counts[position] += 1
            } else if SearchTokenizer.stopWords.contains(term) {
                positions[term] = -1
                return
            } else {
                positions[term] = terms.count
                terms.append(term)
                counts.append(1)
            }
            length += 1
        }
        self.init(terms: terms, counts: counts, length: length)
    }

    public init(tokens: [String]) {
        var positions: [String: Int] = [:]
        var terms: [String] = []
        var counts: [Int] = []
        for token in tokens {
            if let position = positions[token] {
                counts[position] += 1
            } else {
                positions[token] = terms.count
                terms.append(token)
                counts.append(1)
            }
        }
        self.init(terms: terms, counts: counts, length: tokens.count)
    }
}
