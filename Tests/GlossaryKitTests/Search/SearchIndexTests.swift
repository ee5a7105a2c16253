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

    @Test(arguments: [[0], [31], [32], [1023, 1024], [5, 0, 70_000_000, 12]])
    func numbersRoundTrip(numbers: [Int]) {
        #expect(Self.decode(SearchIndex.encode(numbers: numbers)) == numbers)
    }

    @Test func postingsEncodeDocumentGapsAndFrequencies() {
        // Documents 0, 1, 5 (frequency 3), 6: gaps 1, 1, 4, 1 → (gap − 1) × 2 + (frequency > 1).
        #expect(Self.decode(SearchIndex.encode([(0, 1), (1, 1), (5, 3), (6, 1)])) == [0, 0, 7, 3, 0])
    }

    @Test func theManifestHasWhatLunrScoresWith() throws {
        let index = SearchIndex(documents: [
            Self.document("Pods", "Pods run containers. Pods stop.", headings: ["Running pods"]),
            Self.document("Nodes", "Nodes run pods."),
            Self.document("kerning", "Space between letters.", kind: .term),
        ])
        let manifest = try Self.json(index, "search/index.json")
        let terms = try #require(manifest["terms"] as? [String])
        #expect(terms == terms.sorted { $0.utf16.lexicographicallyPrecedes($1.utf16) })
        #expect(terms == ["between", "containers", "kerning", "letters", "nodes", "pods", "run", "running", "space", "stop"])
        // lunr.idf counts a document once per field holding the term.
        let frequencies = Self.decode(try #require(manifest["df"] as? String))
        #expect(frequencies[terms.firstIndex(of: "pods")!] == 4, "title and text of the first, text of the second, heading of the first")
        #expect(manifest["documents"] as? Int == 3)
        let lengths = try #require(manifest["lengths"] as? [String]).map(Self.decode)
        #expect(lengths == [[1, 1, 1], [2, 0, 0], [5, 3, 3]])
        #expect((manifest["average"] as? [Double]) == [1, 2.0 / 3, 11.0 / 3])
        #expect(manifest["shards"] as? [Int] == [0])
    }

    @Test func everyTermIsInExactlyTheShardItsPositionSays() throws {
        var documents: [SearchDocument] = []
        for index in 0..<400 { documents.append(Self.document("Page \(index)", "word\(index) common shared\(index % 7) text")) }
        let index = SearchIndex(documents: documents)
        #expect(Set(index.files.keys) == Set(SearchIndex.paths(documents: 400)))
        let manifest = try Self.json(index, "search/index.json")
        let terms = try #require(manifest["terms"] as? [String])
        let starts = try #require(manifest["shards"] as? [Int])
        #expect(starts.count == SearchIndex.shardCount(documents: 400) && starts.count == 8 && starts == starts.sorted())
        var seen: [String] = []
        for shard in 0..<starts.count {
            let postings = try #require(try Self.json(index, "search/shards/\(shard).json")["terms"] as? [String: [String]])
            let end = shard + 1 < starts.count ? starts[shard + 1] : terms.count
            #expect(Set(postings.keys) == Set(terms[starts[shard]..<end]))
            seen += postings.keys
        }
        #expect(seen.sorted() == terms.sorted())
        let position = try #require(terms.firstIndex(of: "common"))
        let shard = try #require(starts.lastIndex { $0 <= position })
        let common = try #require(try Self.json(index, "search/shards/\(shard).json")["terms"] as? [String: [String]])
        #expect(Self.decode(common["common"]![2]) == Array(repeating: 0, count: 400), "in every document's text, once")
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
        let index = SearchIndex(documents: documents, jobs: jobs)
        var found: [String: [[Int]]] = [:]
        for shard in 0..<SearchIndex.shardCount(documents: documents.count) {
            let postings = try #require(try Self.json(index, "search/shards/\(shard).json")["terms"] as? [String: [String]])
            for (term, fields) in postings {
                found[term] = fields.map { encoded in
                    // Back from gaps: (gap − 1) × 2 + (frequency > 1), then the frequency when above 1.
                    var pairs: [Int] = []
                    var numbers = Self.decode(encoded)[...]
                    var previous = -1
                    while let first = numbers.popFirst() {
                        let document = previous + 1 + first / 2
                        pairs += [document, first % 2 == 1 ? numbers.popFirst()! : 1]
                        previous = document
                    }
                    return pairs
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
