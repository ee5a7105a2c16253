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

    /// Small shards, so that a few hundred documents make many, cut both ways.
    static let sizes = SearchIndex.ShardSizes(target: 400, limit: 1_200)

    static func files(_ documents: [SearchDocument], sizes: SearchIndex.ShardSizes = sizes) -> [String: Data] {
        SearchIndex(documents: documents, sizes: sizes).files.mapValues { Data($0.utf8) }
    }

    /// `files` with the patch laid over them.
    static func applying(_ patch: SearchIndex.Patch, to files: [String: Data]) -> [String: Data] {
        var patched = files.filter { !patch.removed.contains($0.key) }
        patched.merge(patch.written) { $1 }
        return patched
    }

    /// The patch of the case, checked against the index made of the changed documents: laid over the old files it
    /// gives every file byte for byte, and it writes exactly the files that changed and removes those that went. Nil
    /// only when the divisor shards are cut by changed.
    @discardableResult
    static func check(_ test: Case, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> SearchIndex.Patch? {
        let old = files(test.documents)
        let fresh = files(test.changed)
        let text = test.documents[test.document].text
        guard let patch = SearchIndex.patched(document: test.document, old: text, new: test.text, sizes: sizes, files: { old[$0] }) else {
            let divisor = { (files: [String: Data]) in try manifest(files["search/index.json"])["cut"] as? Int }
            #expect(try divisor(old) != divisor(fresh), "\(test): no patch", sourceLocation: sourceLocation)
            return nil
        }
        #expect(applying(patch, to: old) == fresh, "\(test)", sourceLocation: sourceLocation)
        let differing = Set(fresh.keys.filter { old[$0] != fresh[$0] })
        #expect(Set(patch.written.keys) == differing, "\(test): written", sourceLocation: sourceLocation)
        #expect(patch.removed == Set(old.keys).subtracting(fresh.keys), "\(test): removed", sourceLocation: sourceLocation)
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

    /// Every term of the files' shards.
    static func terms(_ files: [String: Data]) throws -> [String] {
        let list = try #require(try manifest(files["search/index.json"])["shards"] as? [[String]])
        return try list.flatMap { pair in
            let shard = try manifest(files["search/shards/" + pair[1] + ".json"])
            return try #require(shard["terms"] as? [[String]]).map { $0[0] }
        }
    }

    @Test func aTermOnlyThisDocumentHadLeavesTheIndex() throws {
        let documents = Self.sample()
        #expect(try Self.terms(Self.files(documents)).contains("page7"))
        let patch = try #require(
            try Self.check(Case(documents: documents, document: 7, text: SearchTerms(text: "common word7 text3"), description: "page7 gone")))
        let terms = try Self.terms(Self.applying(patch, to: Self.files(documents)))
        #expect(!terms.contains("page7") && terms.contains("page8") && terms.contains("common"))
    }

    @Test func aBrandNewTermSortsIntoPlace() throws {
        // U+1F600 sorts before U+E000 in UTF-16 (a surrogate pair), after it in UTF-8.
        var documents = Self.sample(60)
        documents[0].text = SearchTerms(text: "x\u{E000}y zz")
        let patch = try #require(
            try Self.check(Case(documents: documents, document: 1, text: SearchTerms(text: "common x\u{1F600}y aardvark"), description: "new terms")))
        let terms = try Self.terms(Self.applying(patch, to: Self.files(documents)))
        #expect(terms == terms.sorted { $0.utf16.lexicographicallyPrecedes($1.utf16) })
        let placed = ["aardvark", "x\u{1F600}y", "x\u{E000}y", "zz"].map { terms.firstIndex(of: $0) ?? -1 }
        #expect(placed == placed.sorted() && !placed.contains(-1), "\(placed) \(terms)")
    }

    /// A text that grows by hundreds of terms adds shards; patched back, the files are the first files.
    @Test func aLargeChangeAndBack() throws {
        let documents = Self.sample(500)
        let first = Self.files(documents)
        let big = SearchTerms(text: (0..<400).map { "zzz\($0) common word1 " }.joined())
        let patch = try #require(try Self.check(Case(documents: documents, document: 250, text: big, description: "400 new terms")))
        #expect(patch.written.count > 10)
        let patched = Self.applying(patch, to: first)
        let back = try #require(SearchIndex.patched(document: 250, old: big, new: documents[250].text, sizes: Self.sizes, files: { patched[$0] }))
        #expect(Self.applying(back, to: patched) == first)
    }

    /// On a site of many shards, changing a few words writes the manifest and the shards of those words alone.
    @Test func aSmallEditWritesItsTermsShardsAlone() throws {
        let documents = (0..<2_000).map { index in
            SearchIndexTests.document("Page \(index)", (0..<40).map { "w\(($0 * 7 + index * 13) % 3_000)" }.joined(separator: " "))
        }
        let old = Self.files(documents)
        let shards = old.keys.count { $0.hasPrefix("search/shards/") }
        var words = (0..<40).map { "w\(($0 * 7 + 500 * 13) % 3_000)" }
        words[3] = "w2999"
        words[17] = "brandnew"
        let patch = try #require(
            try Self.check(Case(documents: documents, document: 500, text: SearchTerms(text: words.joined(separator: " ")), description: "2 words")))
        #expect(shards > 100)
        #expect(patch.written.keys.contains("search/index.json"))
        // The shards of the two words taken out and the two put in, at most.
        #expect((1...4).contains(patch.written.count - 1), "\(patch.written.keys.sorted())")
    }

    @Test func anUnchangedTextChangesNoFile() throws {
        let documents = Self.sample()
        let patch = try #require(try Self.check(Case(documents: documents, document: 5, text: documents[5].text, description: "unchanged")))
        #expect(patch.written.isEmpty && patch.removed.isEmpty)
    }

    /// A frequency changed, the length's level not: the manifest (the text's total length) and the term's shard.
    @Test func aFrequencyChangeRewritesTheTermsShardAndTheManifest() throws {
        var documents = Self.sample()
        documents[5].text = SearchTerms(terms: ["common", "word5", "text1", "page5"], counts: [1, 1, 1, 1], length: 10)
        let text = SearchTerms(terms: ["common", "word5", "text1", "page5"], counts: [2, 1, 1, 1], length: 11)
        let patch = try #require(try Self.check(Case(documents: documents, document: 5, text: text, description: "common twice")))
        let shard = try #require(Self.shardHolding("common", Self.files(documents)))
        #expect(Set(patch.written.keys) == ["search/index.json", shard])
    }

    /// The length's level changed: every term of the text is written again.
    @Test func aLevelChangeRewritesEveryTermsShard() throws {
        let documents = Self.sample()
        let text = SearchTerms(terms: ["common", "word5", "text1", "page5"], counts: [1, 1, 1, 1], length: 5)
        let patch = try #require(try Self.check(Case(documents: documents, document: 5, text: text, description: "one more")))
        let old = Self.files(documents)
        let shards = try Set(["common", "word5", "text1", "page5"].map { try #require(Self.shardHolding($0, old)) })
        #expect(Set(patch.written.keys) == shards.union(["search/index.json"]))
    }

    @Test(arguments: [-1, 120, 121, Int.max])
    func aDocumentOutOfRangeGivesNil(document: Int) {
        let old = Self.files(Self.sample())
        #expect(SearchIndex.patched(document: document, old: .empty, new: SearchTerms(text: "x"), sizes: Self.sizes, files: { old[$0] }) == nil)
    }

    @Test func noIndexGivesNil() {
        let empty = Self.files([])
        #expect(SearchIndex.patched(document: 0, old: .empty, new: .empty, files: { empty[$0] }) == nil, "no documents")
        #expect(SearchIndex.patched(document: 0, old: .empty, new: .empty, files: { _ in nil }) == nil)
    }

    @Test func aTextListingATermTwiceGivesNil() {
        let documents = Self.sample()
        let old = Self.files(documents)
        let twice = SearchTerms(terms: ["common", "new", "common"], counts: [1, 1, 1], length: 3)
        #expect(SearchIndex.patched(document: 0, old: documents[0].text, new: twice, sizes: Self.sizes, files: { old[$0] }) == nil)
    }

    /// An old text the index doesn't hold for the document (a term it lacks, another frequency): nil.
    @Test func anOldTextTheIndexDoesNotHoldGivesNil() {
        let documents = Self.sample()
        let old = Self.files(documents)
        let new = SearchTerms(text: "common")
        for wrong in [SearchTerms(text: "common page8"), SearchTerms(terms: ["common", "page0"], counts: [2, 1], length: 3), documents[1].text] {
            #expect(SearchIndex.patched(document: 0, old: wrong, new: new, sizes: Self.sizes, files: { old[$0] }) == nil)
        }
    }

    /// Files missing, cut short or changed where the reading notices: nil, never a patch.
    @Test func damagedFilesGiveNil() throws {
        let documents = Self.sample(200)
        let old = Self.files(documents)
        let text = SearchTerms(text: "common brand new")
        func patch(_ path: String, _ damage: (Data) -> Data?) -> SearchIndex.Patch? {
            SearchIndex.patched(document: 3, old: documents[3].text, new: text, sizes: Self.sizes, files: { $0 == path ? old[$0].flatMap(damage) : old[$0] })
        }
        func replacing(_ from: String, _ to: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> (Data) -> Data? {
            { data in
                let text = String(decoding: data, as: UTF8.self)
                #expect(text.contains(from), "\(from) to damage", sourceLocation: sourceLocation)
                return Data(text.replacingOccurrences(of: from, with: to).utf8)
            }
        }
        #expect(patch("search/index.json") { $0 } != nil)
        let shard = try #require(Self.shardHolding("common", old))
        for path in ["search/index.json", shard] {
            #expect(patch(path) { _ in nil } == nil, "\(path) missing")
            let count = old[path]!.count
            // (Cut after its last bracket, a file is whole.)
            for cut in stride(from: 0, to: count - 1, by: max(1, count / 97)) + [count - 2] where cut > 0 {
                #expect(patch(path) { $0.prefix(cut) } == nil, "\(path) cut at \(cut)")
            }
        }
        let manifest = String(decoding: old["search/index.json"]!, as: UTF8.self)
        let cut = try #require(manifest.firstMatch(of: /"cut":(\d+)/)?.1)
        let damages: [(String, (Data) -> Data?)] = [
            ("another version", replacing("\"version\":2,", "\"version\":1,")),
            ("another divisor", replacing("\"cut\":\(cut),", "\"cut\":\(Int(cut)! * 2),")),
            ("a shard's file", replacing("\",\"" + shard.dropFirst(14).dropLast(5) + "\"]", "\",\"0000000000000000\"]")),
        ]
        for (name, damage) in damages { #expect(patch("search/index.json", damage) == nil, "\(name)") }
        #expect(patch(shard, replacing("[\"common\",\"", "[\"common\",\"!")) == nil, "a byte no digit")
        #expect(patch(shard, replacing("[\"common\",", "[\"commom\",")) == nil, "a term spelled otherwise")
        #expect(patch(shard, replacing("{\"terms\":[", "{\"terms\":[[\"zzzz\",\"\",\"\",\"\"],")) == nil, "terms out of order")
    }

    /// Any byte of a small index's files changed: a patch or nil, never a crash.
    @Test func anyByteChangedGivesAPatchOrNil() {
        let documents = Self.sample(12)
        let old = Self.files(documents)
        for (path, data) in old where !path.hasPrefix("search/docs/") {
            for offset in data.indices {
                for byte in [UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "_"), UInt8(ascii: "9"), 0xFF] where byte != data[offset] {
                    var damaged = data
                    damaged[offset] = byte
                    _ = SearchIndex.patched(
                        document: 4, old: documents[4].text, new: SearchTerms(text: "common new"), sizes: Self.sizes,
                        files: { $0 == path ? damaged : old[$0] })
                }
            }
        }
    }

    static func shardHolding(_ term: String, _ files: [String: Data]) -> String? {
        files.keys.sorted().first { $0.hasPrefix("search/shards/") && String(decoding: files[$0]!, as: UTF8.self).contains("[\"\(term)\",") }
    }
}
