/// One field of a document as the search index counts it: each distinct term with how often it occurs, and the
/// field's length in terms (lunr's BM25 weighs a term by both).
///
/// Every page keeps its text field from parsing to the search index, so the terms are kept as their bytes one
/// after another, not as an array of strings: a page's hundreds of terms take a third of the memory.
public struct SearchTerms: Hashable, Sendable, Encodable {
    /// Every distinct term's UTF-8 bytes, one after another, in order of first occurrence.
    private(set) var bytes: [UInt8]
    /// Where each term ends in `bytes` (term `i` starts where term `i − 1` ends).
    private(set) var ends: [UInt32]
    /// How often each term occurs, index-aligned with `ends`.
    private(set) var occurrences: [UInt32]
    /// How many terms the field has, repeats included.
    public var length: Int

    /// Distinct terms, in order of first occurrence.
    public var terms: [String] {
        var strings: [String] = []
        strings.reserveCapacity(ends.count)
        forEachTerm { term, _ in strings.append(String(decoding: term, as: UTF8.self)) }
        return strings
    }

    /// How often each term occurs, index-aligned with `terms`.
    public var counts: [Int] { occurrences.map { Int($0) } }

    /// How many distinct terms the field has.
    public var count: Int { ends.count }

    public init(terms: [String], counts: [Int], length: Int) {
        precondition(terms.count == counts.count, "a count for every term")
        var bytes: [UInt8] = []
        var ends: [UInt32] = []
        ends.reserveCapacity(terms.count)
        for term in terms {
            bytes += term.utf8
            ends.append(UInt32(bytes.count))
        }
        self.init(bytes: bytes, ends: ends, occurrences: counts.map { UInt32(clamping: $0) }, length: length)
    }

    private init(bytes: [UInt8], ends: [UInt32], occurrences: [UInt32], length: Int) {
        self.bytes = bytes
        self.ends = ends
        self.occurrences = occurrences
        self.length = length
    }

    /// A field from its terms' bytes one after another, where each ends, and their counts (as `forEachTerm`
    /// gives them); the ends must rise within the bytes.
    init(joined: [UInt8], ends: [UInt32], counts: [UInt32], length: Int) {
        precondition(ends.count == counts.count && zip(ends, ends.dropFirst()).allSatisfy { $0 <= $1 } && (ends.last ?? 0) <= joined.count)
        self.init(bytes: joined, ends: ends, occurrences: counts, length: length)
    }

    /// The terms `ids` gave ids to, in id order, with their counts (arrays exactly as long as they need be).
    private init(_ ids: TermIDs, counts: [UInt32], length: Int) {
        let joined = ids.joinedBytes
        self.init(bytes: joined.bytes, ends: joined.ends, occurrences: counts.withUnsafeBufferPointer { Array($0) }, length: length)
    }

    public static let empty = SearchTerms(terms: [], counts: [], length: 0)

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(bytes)
        try container.encode(ends)
        try container.encode(occurrences)
        try container.encode(length)
    }

    /// Each distinct term's bytes with its count, in order.
    func forEachTerm(_ body: (UnsafeBufferPointer<UInt8>, Int) -> Void) {
        bytes.withUnsafeBufferPointer { all in
            var start = 0
            for (end, count) in zip(ends, occurrences) {
                body(UnsafeBufferPointer(rebasing: all[start..<Int(end)]), Int(count))
                start = Int(end)
            }
        }
    }

    /// The field `text` makes (see `SearchTokenizer`).
    public init(text: String) {
        // Straight from the tokenizer's bytes: no string is made for a term.
        var ids = TermIDs(capacity: 64, strings: false)
        var counts: [UInt32] = []
        var length = 0
        SearchTokenizer.forEachTerm(text) { term, hash in
            let (id, isNew) = ids.id(bytes: term, hash: hash)
            if isNew {
                counts.append(1)
            } else if counts[id] < .max {
                counts[id] += 1
            }
            length += 1
        }
        self.init(ids, counts: counts, length: length)
    }

    /// The field of the texts of `parts` one after another, each part's terms apart from the next's (as when a line
    /// break separates them): counts added up, terms in order of first occurrence.
    init(merging parts: [SearchTerms]) {
        var ids = TermIDs(capacity: parts.map(\.count).max() ?? 0, strings: false)
        var counts: [UInt32] = []
        for part in parts {
            part.forEachTerm { term, count in
                let (id, isNew) = ids.id(bytes: term)
                if isNew {
                    counts.append(UInt32(clamping: count))
                } else {
                    counts[id] = UInt32(clamping: Int(counts[id]) + count)
                }
            }
        }
        self.init(ids, counts: counts, length: parts.reduce(0) { $0 + $1.length })
    }

    public init(tokens: [String]) {
        // Terms are the same when their bytes are, as lunr compares them (see `TermIDs`).
        var ids = TermIDs(capacity: tokens.count, strings: false)
        var counts: [UInt32] = []
        for token in tokens {
            let (id, isNew) = ids.id(token)
            if isNew {
                counts.append(1)
            } else if counts[id] < .max {
                counts[id] += 1
            }
        }
        self.init(ids, counts: counts, length: tokens.count)
    }
}
