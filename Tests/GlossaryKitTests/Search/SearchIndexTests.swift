import Foundation
import TestSupport
import Testing

@testable import GlossaryKit

@Suite struct SearchIndexTests {
    static func document(_ title: String, _ text: String, headings: [String] = [], kind: SearchDocument.Kind = .page) -> SearchDocument {
        SearchDocument(
            kind: kind, title: title, urlPath: title.lowercased() + "/", trail: "Guide", summary: nil,
            headings: headings.map { PageHeading(level: 2, text: $0, id: HeadingAnchors.slug($0)) }, headingsText: headings.joined(separator: "\n"),
            text: SearchTerms(text: text))
    }

    /// The browser's decoder (`decodeNumbers` in search.js), in Swift.
    static func decode(_ text: String) -> [Int] {
        let digits = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var numbers: [Int] = []
        var value = 0
        var shift = 0
        for character in text {
            let digit = digits.firstIndex(of: character)!
            value += (digit & 31) << shift
            if digit & 32 != 0 {
                shift += 5
                continue
            }
            numbers.append(value)
            (value, shift) = (0, 0)
        }
        return numbers
    }

    static func json(_ index: SearchIndex, _ path: String) throws -> [String: Any] {
        let text = try #require(index.files[path])
        return try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Each shard's entries in the manifest's order: (first term, file) and the shard's terms with their fields.
    static func shards(_ index: SearchIndex, folder: String = "") throws -> [(first: String, file: String, entries: [[String]])] {
        let manifest = try json(index, folder + "search/index.json")
        let list = try #require(manifest["shards"] as? [[String]])
        return try list.map { pair in
            let shard = try json(index, folder + "search/shards/" + pair[1] + ".json")
            return (pair[0], pair[1], try #require(shard["terms"] as? [[String]]))
        }
    }

    /// A field's postings as the browser reads them: [document, frequency, level] for each.
    static func postings(_ encoded: String) -> [[Int]] {
        var numbers = decode(encoded)[...]
        var postings: [[Int]] = []
        var previous = -1
        while let first = numbers.popFirst() {
            let document = previous + 1 + first / 2
            let frequency = first % 2 == 1 ? numbers.popFirst()! : 1
            postings.append([document, frequency, numbers.popFirst()!])
            previous = document
        }
        return postings
    }

    @Test(arguments: [[0], [31], [32], [1023, 1024], [5, 0, 70_000_000, 12]])
    func numbersRoundTrip(numbers: [Int]) {
        #expect(Self.decode(SearchIndex.encode(numbers: numbers)) == numbers)
    }

    /// One document's posting replaced, added or taken out in place is what encoding the changed list gives; an old
    /// posting that isn't there as said, or postings that aren't postings, give nil.
    @Test func aPostingIsReplacedWhereItIs() {
        let seed: UInt64 = 0x9057
        var random = SeededRandom(seed: seed)
        func encoded(_ postings: [SearchIndex.Posting]) -> String {
            var encoder = SearchIndex.PostingEncoder()
            for posting in postings { encoder.add(document: posting.document, frequency: posting.frequency, level: posting.level) }
            return encoder.encoded
        }
        for round in 0..<500 {
            let documents = (0..<40).filter { _ in random.next(3) == 0 }
            let postings = documents.map { SearchIndex.Posting(document: $0, frequency: 1 + random.next(3) * random.next(40), level: random.next(70)) }
            let document = random.next(42)
            let old = postings.first { $0.document == document }
            let new = random.next(3) == 0 ? nil : SearchIndex.Posting(document: document, frequency: 1 + random.next(5), level: random.next(70))
            var changed = postings.filter { $0.document != document }
            if let new { changed.insert(new, at: changed.firstIndex { $0.document > document } ?? changed.count) }
            let text = encoded(postings)
            #expect(SearchIndex.replacing(document, old: old?.frequency, with: new, in: text) == encoded(changed), "seed \(seed), round \(round)")
            #expect(SearchIndex.replacing(document, old: old == nil ? 1 : nil, with: new, in: text) == nil, "seed \(seed), round \(round)")
            if let old { #expect(SearchIndex.replacing(document, old: old.frequency + 1, with: new, in: text) == nil) }
            if !text.isEmpty { #expect(SearchIndex.replacing(document, old: old?.frequency, with: new, in: text + "!") == nil) }
        }
    }

    @Test func postingsEncodeDocumentGapsFrequenciesAndLevels() {
        // Documents 0, 1, 5 (frequency 3), 6: gaps 1, 1, 4, 1 → (gap − 1) × 2 + (frequency > 1), then the level.
        var encoder = SearchIndex.PostingEncoder()
        for (document, frequency, level) in [(0, 1, 3), (1, 1, 8), (5, 3, 40), (6, 1, 0)] {
            encoder.add(document: document, frequency: frequency, level: level)
        }
        #expect(Self.decode(encoder.encoded) == [0, 3, 0, 8, 7, 3, 40, 0, 0])
        #expect(SearchIndex.postings(encoder.encoded)?.map { [$0.document, $0.frequency, $0.level] } == [[0, 1, 3], [1, 1, 8], [5, 3, 40], [6, 1, 0]])
        #expect(SearchIndex.postings("B") == nil, "a frequency without its level")
        #expect(SearchIndex.postings("A!") == nil)
    }

    /// Lengths below 8 are their own level; above, each level holds lengths within a factor of 1.25.
    @Test func lengthLevels() {
        #expect((0..<8).map(SearchIndex.level) == Array(0..<8))
        #expect([8, 9, 10, 12, 13, 15, 16, 355, 356].map(SearchIndex.level) == [8, 8, 9, 9, 10, 10, 11, 24, 25])
        for length in 8..<100_000 {
            let level = SearchIndex.level(length)
            // What the browser reads the level as is within 12% of the length.
            let read = 8 * pow(1.25, Double(level) - 7.5)
            #expect(abs(read - Double(length)) / Double(length) <= 0.12, "\(length)")
            if abs(read - Double(length)) / Double(length) > 0.12 { break }
        }
    }

    @Test func theManifestAndShardHaveWhatBM25ScoresWith() throws {
        let index = SearchIndex(documents: [
            Self.document("Pods", "Pods run containers. Pods stop.", headings: ["Running pods"]),
            Self.document("Nodes", "Nodes run pods."),
            Self.document("kerning", "Space between letters.", kind: .term),
        ])
        let manifest = try Self.json(index, "search/index.json")
        #expect(manifest["version"] as? Int == 2 && manifest["documents"] as? Int == 3 && manifest["chunk"] as? Int == 50)
        #expect(manifest["lengths"] as? [Int] == [3, 2, 11], "each field's total length")
        let shards = try Self.shards(index)
        #expect(shards.count == 1 && shards[0].first == "between" && shards[0].file == SearchIndex.fileName("between"))
        let entries = shards[0].entries
        #expect(entries.map { $0[0] } == ["between", "containers", "kerning", "letters", "nodes", "pods", "run", "running", "space", "stop"])
        let pods = try #require(entries.first { $0[0] == "pods" })
        #expect(pods.dropFirst().map(Self.postings) == [[[0, 1, 1]], [[0, 1, 2]], [[0, 2, 5], [1, 1, 3]]])
        #expect(Set(index.files.keys) == ["search/index.json", "search/shards/\(shards[0].file).json", "search/docs/0.json"])
    }

    /// Shards are cut where a term's hash says or where a segment outgrows the limit, and each holds the run of terms
    /// from its first to the next shard's: every term once, in order.
    @Test func shardsAreCutByTheTermsThemselves() throws {
        var documents: [SearchDocument] = []
        for index in 0..<400 { documents.append(Self.document("Page \(index)", "word\(index) common shared\(index % 7) text")) }
        let sizes = SearchIndex.ShardSizes(target: 600, limit: 1_500)
        let index = SearchIndex(documents: documents, sizes: sizes)
        let manifest = try Self.json(index, "search/index.json")
        let divisor = try #require(manifest["cut"] as? Int)
        let shards = try Self.shards(index)
        #expect(shards.count > 10)
        func size(_ entry: [String]) -> Int { SearchIndex.entry(entry[0], Array(entry.dropFirst())).utf8.count + 1 }
        var terms: [String] = []
        var cutBySize = 0
        for (number, shard) in shards.enumerated() {
            #expect(shard.entries.first?[0] == shard.first)
            let bytes = shard.entries.reduce(0) { $0 + size($1) }
            if number > 0 && !SearchIndex.startsSegment(shard.first, divisor: divisor) {
                // Cut by size: the shard before had no room for this one's first term.
                #expect(shards[number - 1].entries.reduce(0) { $0 + size($1) } + size(shard.entries[0]) > sizes.limit)
                cutBySize += 1
            }
            for entry in shard.entries.dropFirst() { #expect(!SearchIndex.startsSegment(entry[0], divisor: divisor), "\(entry[0]) starts a shard") }
            #expect(shard.entries.count == 1 || bytes <= sizes.limit, "shard \(number) of \(bytes) bytes")
            terms += shard.entries.map { $0[0] }
        }
        #expect(cutBySize > 0 && cutBySize < shards.count - 1, "cut by hash and by size both")
        #expect(terms == terms.sorted { $0.utf16.lexicographicallyPrecedes($1.utf16) } && Set(terms).count == terms.count)
        #expect(manifest["terms"] as? Int == terms.count)
        let common = try #require(shards.flatMap(\.entries).first { $0[0] == "common" })
        #expect(Self.postings(common[3]) == (0..<400).map { [$0, 1, 4] }, "in every document's text, once, of 4 terms")
        let chunk = try #require(JSONSerialization.jsonObject(with: Data(index.files["search/docs/7.json"]!.utf8)) as? [[Any]])
        #expect(chunk.count == 50 && chunk[0][1] as? String == "Page 350" && chunk[0][2] as? String == "page 350/")
    }

    /// Made on several threads (runs of documents merged), the index is file for file the one made on one.
    @Test func theIndexMadeInRunsIsTheIndexMadeInOne() {
        var random = SeededRandom(seed: 42)
        let words = ["pod", "node", "Cluster", "café", "the", "run-time", "x_y", "東京", "😀", "a1", "zeta", "Node"]
        func text(_ count: Int) -> String {
            (0..<count).map { _ in words[Int(random.next() % UInt64(words.count))] }.joined(separator: " ")
        }
        let documents = (0..<1_600).map { index in
            Self.document("Page \(index) \(text(2))", text(Int(random.next() % 40)), headings: (0..<Int(random.next() % 3)).map { _ in text(2) })
        }
        #expect(SearchIndex.runs(documents.count, jobs: 4).count == 3, "three runs of 500 or more")
        let one = SearchIndex(documents: documents, jobs: 1)
        let runs = SearchIndex(documents: documents, jobs: 4)
        #expect(runs.files.keys.sorted() == one.files.keys.sorted())
        for (path, text) in one.files { #expect(runs.files[path] == text, "\(path)") }
    }

    /// Every term's postings, read back from the shards, are what the documents' fields hold: for each field, the
    /// documents having the term, in order, with how often (made on one thread and on several).
    @Test(arguments: [1, 4])
    func thePostingsAreTheDocumentsTerms(jobs: Int) throws {
        var random = SeededRandom(seed: 7)
        let words = ["pod", "node", "cluster", "café", "run", "東京", "zeta", "alpha", "beta"]
        func text(_ count: Int) -> String {
            (0..<count).map { _ in words[Int(random.next() % UInt64(words.count))] }.joined(separator: " ")
        }
        let documents = (0..<1_200).map { index in
            let headings: [String] = (0..<Int(random.next() % 3)).map { _ in text(2) }
            let body: String = text(Int(random.next() % 60))
            return Self.document("Doc \(index) " + text(1), body, headings: headings)
        }
        // The reference: per term, per field, (document, frequency), counted from each field's tokens.
        var expected: [String: [[Int]]] = [:]
        for (number, document) in documents.enumerated() {
            for (field, text) in [document.title, document.headingsText].enumerated() {
                var counts: [String: Int] = [:]
                for token in SearchTokenizer.terms(text) { counts[token, default: 0] += 1 }
                for (term, count) in counts { expected[term, default: [[], [], []]][field] += [number, count] }
            }
            for (term, count) in zip(document.text.terms, document.text.counts) { expected[term, default: [[], [], []]][2] += [number, count] }
        }
        let index = SearchIndex(documents: documents, sizes: SearchIndex.ShardSizes(target: 2_000, limit: 6_000), jobs: jobs)
        var found: [String: [[Int]]] = [:]
        let levels = documents.map { [SearchTerms(text: $0.title).length, SearchTerms(text: $0.headingsText).length, $0.text.length].map(SearchIndex.level) }
        for shard in try Self.shards(index) {
            for entry in shard.entries {
                found[entry[0]] = entry.dropFirst().enumerated().map { field, encoded in
                    Self.postings(encoded).flatMap { posting in
                        #expect(posting[2] == levels[posting[0]][field], "\(entry[0])")
                        return [posting[0], posting[1]]
                    }
                }
            }
        }
        for (term, fields) in expected {
            // Each field's pairs in document order, as the index lists them.
            let ordered: [[Int]] = fields.map { pairs in
                let pairs: [[Int]] = stride(from: 0, to: pairs.count, by: 2).map { [pairs[$0], pairs[$0 + 1]] }
                return pairs.sorted { $0[0] < $1[0] }.flatMap { $0 }
            }
            #expect(found[term] == ordered, "\(term)")
        }
        #expect(Set(found.keys) == Set(expected.keys))
    }
}
