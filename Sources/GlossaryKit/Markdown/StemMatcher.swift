/// Finds plain occurrences of forms by their stem, for a language Snowball stems: each word of a text is stemmed and
/// looked up, so `Datenbanken` is found for `Datenbank` and `serveurs` for `serveur`. A multi-word form is found by
/// its last word's stem, the words before it written as they are (up to case). Auto-linking and the term-status
/// check use it beside `TermMatcher`, which finds forms as spelled.
public struct StemMatcher<ID: Hashable & Sendable>: Sendable {
    public let stemmer: SnowballStemmer
    /// The forms by their last word's stem, each with the words before it (as keys), in the order given.
    private let stems: [String: [(id: ID, before: [String])]]

    public init(stemmer: SnowballStemmer, forms: [(text: String, id: ID)]) {
        self.stemmer = stemmer
        var stems: [String: [(id: ID, before: [String])]] = [:]
        for form in forms {
            guard let key = TermKey(form.text) else { continue }
            var words = key.rawValue.split(separator: " ").map(String.init)
            guard let last = words.popLast() else { continue }
            stems[stemmer.stem(last), default: []].append((form.id, words))
        }
        self.stems = stems
    }

    /// The occurrences in `text`, leftmost first: at each word, the first form whose stem it has and whose words
    /// before it are written just before it, unless its id is `excluded`.
    public func matches(inUTF8 text: UnsafeBufferPointer<UInt8>, excluding excluded: Set<ID> = []) -> [TermMatcher<ID>.Match] {
        let words = TermStatusCheck.words(inUTF8: text)
        var matches: [TermMatcher<ID>.Match] = []
        var end = 0
        for (position, word) in words.enumerated() {
            guard let candidates = stems[stemmer.stem(word.text)] else { continue }
            for candidate in candidates where candidate.before.count <= position && !excluded.contains(candidate.id) {
                let before = words[(position - candidate.before.count)..<position]
                guard zip(before, candidate.before).allSatisfy({ TermKey($0.text)?.rawValue == $1 }) else { continue }
                let start = before.first?.range.lowerBound ?? word.range.lowerBound
                guard start >= end else { continue }
                matches.append(.init(range: start..<word.range.upperBound, id: candidate.id))
                end = word.range.upperBound
                break
            }
        }
        return matches
    }
}
