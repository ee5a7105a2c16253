/// Finds plain occurrences of glossary terms in text, for auto-linking: one automaton over every form, built once per
/// build, then one pass over each text.
///
/// A form is a spelling that stands for a term (the term itself, an alias, an inflected form…). Matching follows
/// `TermKey`: Unicode canonical equivalence, case folding (`Straße` matches `strasse`), typographic apostrophes read
/// as `'`, and any run of white space (a space, a tab, a soft line break, a no-break space) matching one space of a
/// form. A case-sensitive form (`API`, `Go`) matches only its exact spelling, though still up to white space,
/// apostrophes and canonical equivalence.
///
/// Matches are whole words: a match never splits a word, so `cat` is not found in `category`, `bobcat`, `cat_dog` or
/// `cat2`. Word characters are Unicode letters, marks and numbers, and `_`. An apostrophe between two word characters
/// belongs to the word (`don't`, `o'clock`) except before a final `s`: `cat's` and `cat’s` contain `cat`. A hyphen
/// separates words: `known` is found in `well-known`, and a form `well-known` is found whole, winning as the longer.
///
/// At each place, the longest form wins (`static site generator` over `static site`); matches go leftmost first and
/// never overlap. Where forms of two terms share a spelling, a case-sensitive one wins over a case-insensitive one,
/// and otherwise the first given (the others are listed in `shadowedForms`); an excluded term gives way to the next.
///
/// Ranges are UTF-8 byte offsets into the text given, so a caller can split a cmark text node's literal there.
/// UTF-8 because that is what cmark keeps and Swift strings store: plain ASCII text (most of an English site) is read
/// in place with no copy and no decoding; other text is folded into a buffer that maps back to the original bytes.
///
/// ```swift
/// let matcher = TermMatcher(forms: [
///     .init("static site generator", id: 1), .init("static site", id: 2), .init("API", id: 3, caseSensitive: true),
/// ])
/// var linked: Set<Int> = []
/// for match in matcher.matches(in: "An API for a static\nsite generator.", excluding: [], linkingOnce: &linked) {
///     // match.range: 3..<6 (id 3), then 13..<34 (id 1)
/// }
/// ```
public struct TermMatcher<ID: Hashable & Sendable>: Sendable {
    public struct Form: Hashable, Sendable {
        public var text: String
        public var id: ID
        public var caseSensitive: Bool

        public init(_ text: String, id: ID, caseSensitive: Bool = false) {
            self.text = text
            self.id = id
            self.caseSensitive = caseSensitive
        }
    }

    public struct Match: Hashable, Sendable {
        /// UTF-8 byte offsets of the occurrence in the text searched.
        public var range: Range<Int>
        public var id: ID

        public init(range: Range<Int>, id: ID) {
            self.range = range
            self.id = id
        }
    }

    /// Forms hidden behind another term's form given earlier with the same spelling (folded, or exact for
    /// case-sensitive forms): they match only on pages that exclude that term. A build may want to warn about them.
    /// Forms that are empty or only white space are left out, and not listed here.
    public let shadowedForms: [Form]
    /// How many distinct spellings the automaton holds.
    public let formCount: Int
    /// The automaton's nodes and slots (its memory is 16 bytes a slot), for benchmarks.
    public var automatonSize: (nodes: Int, slots: Int) { (trie.nodeCount, trie.slotCount) }

    private let trie: TermTrie
    /// The identifier of each term, by the index the automaton knows it by.
    private let ids: [ID]
    private let foldings: ScalarFolding.Cache

    public init(forms: some Sequence<Form>) {
        let foldings = ScalarFolding.Cache()
        var termIndices: [ID: Int] = [:]
        var ids: [ID] = []
        var entries: [TermTrie.Entry] = []
        var entered: [Form] = []
        for form in forms {
            var text = form.text
            let entry = text.withUTF8 { utf8 -> TermTrie.Entry? in
                let units = FoldedText(utf8: utf8, exact: false, foldings: foldings).trimmedUnits
                guard !units.isEmpty else { return nil }
                let exact = form.caseSensitive ? Array(FoldedText(utf8: utf8, exact: true, foldings: foldings).trimmedUnits) : nil
                return TermTrie.Entry(units: units, term: 0, exact: exact)
            }
            guard var entry else { continue }
            if let term = termIndices[form.id] {
                entry.term = term
            } else {
                entry.term = ids.count
                termIndices[form.id] = ids.count
                ids.append(form.id)
            }
            entries.append(entry)
            entered.append(form)
        }
        let (trie, shadowed) = TermTrie.build(entries)
        self.trie = trie
        self.ids = ids
        self.foldings = foldings
        shadowedForms = shadowed.map { entered[$0] }
        formCount = trie.outputs.count
    }

    /// Every occurrence of every term not in `excluded`.
    ///
    /// An excluded term is as if it had no forms: a shorter form inside one of its occurrences still matches.
    public func matches(in text: String, excluding excluded: Set<ID> = []) -> [Match] {
        var text = text
        return text.withUTF8 { matches(inUTF8: $0, excluding: excluded) }
    }

    /// The first occurrence of each term not already in `linked`, adding each term reported to `linked`.
    ///
    /// Call it on every text of a page with one set for the page, and each term is linked once whichever of its
    /// forms came first. A later occurrence of a linked term still takes its text: `static site` is not found inside
    /// a second `static site generator`.
    public func matches(in text: String, excluding excluded: Set<ID> = [], linkingOnce linked: inout Set<ID>) -> [Match] {
        var text = text
        return text.withUTF8 { matches(inUTF8: $0, excluding: excluded, linkingOnce: &linked) }
    }

    /// `matches(in:excluding:)` on UTF-8 bytes, such as a cmark node's literal (no copy is made).
    public func matches(inUTF8 text: UnsafeBufferPointer<UInt8>, excluding excluded: Set<ID> = []) -> [Match] {
        var found: [Match] = []
        trie.scan(
            utf8: text, foldings: foldings,
            candidacy: { excluded.isEmpty || !excluded.contains(ids[$0]) ? .reported : .excluded },
            found: { found.append(Match(range: $0, id: ids[$1])) })
        return found
    }

    /// `matches(in:excluding:linkingOnce:)` on UTF-8 bytes, such as a cmark node's literal (no copy is made).
    public func matches(inUTF8 text: UnsafeBufferPointer<UInt8>, excluding excluded: Set<ID> = [], linkingOnce linked: inout Set<ID>) -> [Match] {
        var found: [Match] = []
        var seen = linked
        trie.scan(
            utf8: text, foldings: foldings,
            candidacy: { term in
                let id = ids[term]
                if !excluded.isEmpty && excluded.contains(id) { return .excluded }
                return seen.contains(id) ? .taken : .reported
            },
            found: { range, term in
                found.append(Match(range: range, id: ids[term]))
                seen.insert(ids[term])
            })
        linked = seen
        return found
    }
}
