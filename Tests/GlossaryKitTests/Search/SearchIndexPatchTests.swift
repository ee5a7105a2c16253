import Foundation
import TestSupport
import Testing

@testable import GlossaryKit

@Suite struct SearchIndexPatchTests {
    /// Words for random documents: ASCII, accented, CJK, characters above U+FFFF and in U+E000–U+FFFF (whose UTF-16
    /// order is not their UTF-8 order), and characters the files escape (`"`, `<`, `&`, `\`, a control character).
    /// The tokenizer trims what is not an ASCII word character from a term's ends: these have one at each.
    static let words = [
        "pod", "node", "cluster", "cafe\u{301}s", "caféx", "run", "a東京b", "zeta", "alpha", "beta", "x😀z", "x😀a", "x\u{E000}z", "x\u{E000}b",
        "x\u{FFFD}x", "x\u{10000}z", "x\u{1F600}\u{E001}y", "xſtraße", "q\"r", "a<b", "x&y", "c\u{01}d", "back\\slash", "ab", "abc", "abd", "a_1",
        "z9", "term", "terms", "xéy",
    ]

    /// Terms no text tokenizes to, given to `SearchTerms` as they are: starting with a character above U+FFFF or in
    /// U+E000–U+FFFF, so the first byte that differs is a lead byte.
    static let rawTerms = ["😀", "\u{E000}", "\u{E000}😀", "\u{FFFD}", "\u{10000}", "\u{1F600}\u{E001}", "東京", "é"]

    /// A random document set's index, a document of it, and a new text for that document.
    struct Case: CustomStringConvertible {
        var documents: [SearchDocument]
        var document: Int
        var text: SearchTerms
        var description: String

        /// The documents with the document's text replaced.
        var changed: [SearchDocument] {
            var documents = documents
            documents[document].text = text
            return documents
        }
    }

    /// A seeded case: up to 300 documents (so up to 6 shards) of Zipf-ish words, some of them in the title or
    /// headings too, some only in one document, some texts empty; the new text is the old one unchanged, emptied,
    /// with words taken out or added (known and new ones), with frequencies changed, or a new text altogether.
    static func randomCase(_ seed: UInt64) -> Case {
        var random = SeededRandom(seed: seed)
        func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        // Squared: the first words are the common ones.
        func word() -> String {
            let pick = below(1_000)
            let index = pick * pick * words.count / 1_000_000
            return below(4) == 0 ? words[index] + String(below(40)) : words[index]
        }
        func phrase(_ count: Int) -> String { (0..<count).map { _ in word() }.joined(separator: " ") }
        func raw() -> SearchTerms {
            let terms = Set((0..<1 + below(3)).map { _ in rawTerms[below(rawTerms.count)] }).sorted()
            let counts = terms.map { _ in 1 + below(3) }
            return SearchTerms(terms: terms, counts: counts, length: counts.reduce(0, +))
        }
        let count = 1 + below(below(3) == 0 ? 300 : 60)
        let documents = (0..<count).map { index -> SearchDocument in
            let only = below(3) == 0 ? " only\(index)-\(below(3))" : ""
            let body = below(8) == 0 ? "" : phrase(below(50)) + only
            var document = SearchIndexTests.document("Doc \(index) " + phrase(below(3)), body, headings: (0..<below(3)).map { _ in phrase(1 + below(2)) })
            if below(4) == 0 { document.text = SearchTerms(merging: [document.text, raw()]) }
            return document
        }
        let document = below(count)
        let old = documents[document].text
        let kinds = ["unchanged", "empty", "words taken out", "words added", "frequencies changed", "another text", "new words only"]
        let kind = below(kinds.count)
        let text: SearchTerms
        switch kind {
        case 0: text = old
        case 1: text = below(2) == 0 ? .empty : SearchTerms(text: "the and of")
        case 2:
            let kept = zip(old.terms, old.counts).filter { _ in below(3) > 0 }
            text = SearchTerms(terms: kept.map(\.0), counts: kept.map(\.1), length: kept.reduce(0) { $0 + $1.1 })
        case 3: text = SearchTerms(merging: [old, SearchTerms(text: phrase(below(20)) + " brand\(below(5)) x🆕\(below(3)) x\u{E00F}new\(seed)"), raw()])
        case 4:
            let counts = old.counts.map { below(2) == 0 ? $0 : 1 + below(5) }
            text = SearchTerms(terms: old.terms, counts: counts, length: counts.reduce(0, +) + below(3))
        case 5: text = SearchTerms(text: phrase(below(80)))
        default: text = SearchTerms(text: (0..<1 + below(6)).map { "fresh\($0)x\(seed) x\u{1F680}\($0)" }.joined(separator: " "))
        }
        return Case(documents: documents, document: document, text: text, description: "seed \(seed): \(count) documents, #\(document), \(kinds[kind])")
    }

    static func files(_ index: SearchIndex) -> [String: Data] {
        index.files.mapValues { Data($0.utf8) }
    }

    /// The patch of `old` for the case, checked against the index made of the changed documents: laid over the old
    /// files it gives every file byte for byte, and every file it returns is one that changed.
    @discardableResult
    static func check(_ test: Case, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> [String: Data] {
        let old = files(SearchIndex(documents: test.documents))
        let fresh = files(SearchIndex(documents: test.changed))
        let patch = try #require(SearchIndex.patched(document: test.document, text: test.text, files: { old[$0] }), "\(test)", sourceLocation: sourceLocation)
        #expect(Set(old.keys) == Set(fresh.keys), "\(test)", sourceLocation: sourceLocation)
        for (path, data) in fresh where (patch[path] ?? old[path]) != data {
            Issue.record("\(test): \(path) differs", sourceLocation: sourceLocation)
        }
        for (path, data) in patch where old[path] == data || fresh[path] == nil {
            Issue.record("\(test): \(path) returned, unchanged or unknown", sourceLocation: sourceLocation)
        }
        return patch
    }

    @Test(arguments: 0..<400)
    func thePatchedFilesAreTheFilesOfTheChangedDocuments(seed: Int) throws {
        try Self.check(Self.randomCase(UInt64(seed)))
    }

    static func sample(_ count: Int = 120) -> [SearchDocument] {
        (0..<count).map { index in
            let headings = index % 5 == 0 ? ["Heading \(index)"] : []
            let text = "common word\(index % 9) text\(index % 4) page\(index)" + (index % 7 == 0 ? " straßen" : "")
            return SearchIndexTests.document("Page \(index)", text, headings: headings)
        }
    }

    static func manifest(_ data: Data?) throws -> [String: Any] {
        let data = try #require(data)
        return try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func aTermOnlyThisDocumentHadLeavesTheVocabulary() throws {
        let documents = Self.sample()
        let before = try #require(try Self.manifest(Self.files(SearchIndex(documents: documents))["search/index.json"])["terms"] as? [String])
        #expect(before.contains("page7"))
        let patch = try Self.check(Case(documents: documents, document: 7, text: SearchTerms(text: "common word7 text3"), description: "page7 gone"))
        let terms = try #require(try Self.manifest(patch["search/index.json"])["terms"] as? [String])
        #expect(!terms.contains("page7") && terms.contains("page8") && terms.contains("common"))
    }

    /// A term the document has in its title stays when it leaves the text, counted once less.
    @Test func aTermLeavingTheTextButNotTheTitleStaysCountedOnceLess() throws {
        var documents = Self.sample()
        documents[3].title = "Page3"
        documents[3].text = SearchTerms(text: "page3 solo")
        let old = try Self.manifest(Self.files(SearchIndex(documents: documents))["search/index.json"])
        let patch = try Self.check(Case(documents: documents, document: 3, text: .empty, description: "text emptied"))
        let new = try Self.manifest(patch["search/index.json"])
        func df(_ manifest: [String: Any], _ term: String) throws -> Int? {
            let terms = try #require(manifest["terms"] as? [String])
            return try terms.firstIndex(of: term).map { SearchIndexTests.decode(try #require(manifest["df"] as? String))[$0] }
        }
        #expect(try df(old, "page3") == 2 && df(new, "page3") == 1, "in the title, no longer in the text")
        #expect(try df(old, "solo") == 1 && df(new, "solo") == nil)
    }

    @Test func aBrandNewTermSortsIntoPlace() throws {
        // U+1F600 sorts before U+E000 in UTF-16 (a surrogate pair), after it in UTF-8.
        var documents = Self.sample(60)
        documents[0].text = SearchTerms(text: "x\u{E000}y zz")
        let patch = try Self.check(Case(documents: documents, document: 1, text: SearchTerms(text: "common x\u{1F600}y aardvark"), description: "new terms"))
        let terms = try #require(try Self.manifest(patch["search/index.json"])["terms"] as? [String])
        #expect(terms == terms.sorted { $0.utf16.lexicographicallyPrecedes($1.utf16) })
        let placed = ["aardvark", "x\u{1F600}y", "x\u{E000}y", "zz"].map { terms.firstIndex(of: $0) ?? -1 }
        #expect(placed == placed.sorted() && !placed.contains(-1), "\(placed) \(terms)")
    }

    /// A text that grows by hundreds of terms moves the shard starts: shards whose terms didn't change are written
    /// again when their boundaries move, and only those that changed.
    @Test func aLargeChangeMovesShardBoundaries() throws {
        let documents = Self.sample(500)
        let old = try Self.manifest(Self.files(SearchIndex(documents: documents))["search/index.json"])
        let big = SearchTerms(text: (0..<400).map { "zzz\($0) common word1 " }.joined())
        let patch = try Self.check(Case(documents: documents, document: 250, text: big, description: "400 new terms"))
        let new = try Self.manifest(patch["search/index.json"])
        let (before, after) = (try #require(old["shards"] as? [Int]), try #require(new["shards"] as? [Int]))
        #expect(before.count == 10 && before != after)
        #expect(patch.count > 3 && patch.count < 12)
        // And back: the patched files, patched again, are the first files.
        let first = Self.files(SearchIndex(documents: documents))
        var patched = first
        patched.merge(patch) { $1 }
        let back = try #require(SearchIndex.patched(document: 250, text: documents[250].text, files: { patched[$0] }))
        patched.merge(back) { $1 }
        #expect(patched == first)
    }

    @Test func anUnchangedTextChangesNoFile() throws {
        let documents = Self.sample()
        #expect(try Self.check(Case(documents: documents, document: 5, text: documents[5].text, description: "unchanged")).isEmpty)
        // Counts of 0 and 1 are written alike.
        let ones = SearchTerms(terms: documents[5].text.terms, counts: documents[5].text.counts.map { _ in 0 }, length: documents[5].text.length)
        #expect(try Self.check(Case(documents: documents, document: 5, text: ones, description: "counts of 0")).isEmpty)
    }

    @Test func aFrequencyChangeRewritesTheTermsShardAndTheManifest() throws {
        let documents = Self.sample()
        let text = SearchTerms(terms: ["common", "word5", "text1", "page5"], counts: [3, 1, 1, 1], length: 6)
        let patch = try Self.check(Case(documents: documents, document: 5, text: text, description: "common thrice"))
        #expect(patch.keys.contains("search/index.json"), "the text field's length")
        #expect(!patch.keys.contains { $0.hasPrefix("search/docs/") })
    }

    @Test(arguments: [-1, 120, 121, Int.max])
    func aDocumentOutOfRangeGivesNil(document: Int) {
        let old = Self.files(SearchIndex(documents: Self.sample()))
        #expect(SearchIndex.patched(document: document, text: SearchTerms(text: "x"), files: { old[$0] }) == nil)
    }

    @Test func noIndexGivesNil() {
        let empty = Self.files(SearchIndex(documents: []))
        #expect(SearchIndex.patched(document: 0, text: .empty, files: { empty[$0] }) == nil, "no documents")
        #expect(SearchIndex.patched(document: 0, text: .empty, files: { _ in nil }) == nil)
    }

    @Test func aTextListingATermTwiceGivesNil() {
        let old = Self.files(SearchIndex(documents: Self.sample()))
        let twice = SearchTerms(terms: ["common", "new", "common"], counts: [1, 1, 1], length: 3)
        #expect(SearchIndex.patched(document: 0, text: twice, files: { old[$0] }) == nil)
    }

    /// Files missing, cut short or changed where the reading would notice: nil, never a patch.
    @Test func damagedFilesGiveNil() throws {
        let old = Self.files(SearchIndex(documents: Self.sample(200)))
        let text = SearchTerms(text: "common brand new")
        func patch(_ path: String, _ damage: (Data) -> Data?) -> [String: Data]? {
            SearchIndex.patched(document: 3, text: text, files: { $0 == path ? old[$0].flatMap(damage) : old[$0] })
        }
        func replacing(_ from: String, _ to: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> (Data) -> Data? {
            { data in
                let text = String(decoding: data, as: UTF8.self)
                #expect(text.contains(from), "\(from) to damage", sourceLocation: sourceLocation)
                return Data(text.replacingOccurrences(of: from, with: to).utf8)
            }
        }
        #expect(patch("search/index.json") { $0 } != nil)
        for path in ["search/index.json", "search/shards/0.json", "search/shards/3.json"] {
            #expect(patch(path) { _ in nil } == nil, "\(path) missing")
            let count = old[path]!.count
            for cut in stride(from: 0, to: count, by: max(1, count / 97)) + [count - 1] {
                #expect(patch(path) { $0.prefix(cut) } == nil, "\(path) cut at \(cut)")
            }
            #expect(patch(path) { $0 + Data(" ".utf8) } == nil, "\(path) with a byte after it")
        }
        let damages: [(String, (Data) -> Data?)] = [
            ("another version", replacing("\"version\":1,", "\"version\":2,")),
            ("another chunk size", replacing("\"chunk\":50,", "\"chunk\":40,")),
            ("an average", replacing("\"average\":[", "\"average\":[1")),
            ("a shard start", replacing("\"shards\":[0,", "\"shards\":[1,")),
            ("a term spelled otherwise", replacing("\"common\"", "\"commom\"")),
            ("terms out of order", replacing("\"common\",", "\"zzz\",")),
            ("pretty-printed", replacing(",", ", ")),
            ("a comma after the last term", replacing("\"]}\n", "\",]}\n")),
            ("a term the shards don't have", replacing("\"common\",", "\"common\",\"commons\",")),
        ]
        for (name, damage) in damages { #expect(patch("search/index.json", damage) == nil, "\(name)") }
        // Not UTF-8: a term's `ß` (C3 9F) cut to its first byte, followed by a byte that can't continue it.
        let manifest = try #require(old["search/index.json"])
        let accented = try #require(manifest.firstRange(of: Data("ß".utf8)))
        var broken = manifest
        broken[accented.upperBound - 1] = UInt8(ascii: "e")
        #expect(patch("search/index.json") { _ in broken } == nil, "not UTF-8")
        let shard = try #require(Self.shardHolding("common", old))
        #expect(patch(shard, replacing("\"common\":[\"", "\"common\":[\"!")) == nil, "a byte no digit")
        let more = String(repeating: "A", count: 500)
        #expect(patch(shard, replacing("\"common\":[\"", "\"common\":[\"" + more)) == nil, "500 postings more (the starts change)")
        #expect(patch(shard, replacing("\"common\":[", "\"common\": [")) == nil, "a space")
        #expect(patch("search/shards/0.json", replacing("{\"terms\":{", "{\"terms\": {")) == nil)
    }

    /// Any byte of a small index's files changed: a patch or nil, never a crash.
    @Test func anyByteChangedGivesAPatchOrNil() {
        let old = Self.files(SearchIndex(documents: Self.sample(12)))
        for (path, data) in old where !path.hasPrefix("search/docs/") {
            for offset in data.indices {
                for byte in [UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "_"), UInt8(ascii: "9"), 0xFF] where byte != data[offset] {
                    var damaged = data
                    damaged[offset] = byte
                    _ = SearchIndex.patched(document: 4, text: SearchTerms(text: "common new"), files: { $0 == path ? damaged : old[$0] })
                }
            }
        }
    }

    static func shardHolding(_ term: String, _ files: [String: Data]) -> String? {
        files.keys.sorted().first { $0.hasPrefix("search/shards/") && String(decoding: files[$0]!, as: UTF8.self).contains("\"\(term)\":") }
    }
}
