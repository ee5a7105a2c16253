import Foundation
import Testing

@testable import GlossaryKit

/// The term indexes' cut into shards (`TermShards`): by key ranges in JavaScript's string order, bounded in bytes, a
/// record in the shard of each of its keys; and the files it makes in a build.
@Suite struct TermShardsTests {
    @Test func cutsSortedKeysIntoRangesOfBoundedBytes() {
        // Records of 10 bytes (11 with a comma): three fit in 33 bytes. "b" is two records' key, never cut apart;
        // U+1F600 sorts before U+E000 in UTF-16.
        let keys = [["a"], ["b", "zz"], ["c"], ["d"], ["b"], ["\u{E000}"], ["😀"]]
        let cut = TermShards(sizes: Array(repeating: 10, count: keys.count), keys: keys, limits: .init(file: 0, shard: 33))
        #expect(
            cut.shards == [
                .init(first: "a", records: [0, 1, 4]), .init(first: "c", records: [2, 3, 1]), .init(first: "😀", records: [6, 5]),
            ])
        let tighter = TermShards(sizes: Array(repeating: 10, count: keys.count), keys: keys, limits: .init(file: 0, shard: 32))
        #expect(
            tighter.shards == [
                .init(first: "a", records: [0]), .init(first: "b", records: [1, 4]), .init(first: "c", records: [2, 3]),
                .init(first: "zz", records: [1, 6]), .init(first: "\u{E000}", records: [5]),
            ])
    }

    @Test func oneKeysRecordsStayTogetherPastTheBoundAndASmallIndexIsOneFile() {
        let keys = [["same"], ["same"], ["same"], ["other"]]
        let cut = TermShards(sizes: [100, 100, 100, 100], keys: keys, limits: .init(file: 0, shard: 150))
        #expect(cut.shards == [.init(first: "other", records: [3]), .init(first: "same", records: [0, 1, 2])])
        // 4 × 100 bytes and 3 commas.
        #expect(TermShards(sizes: [100, 100, 100, 100], keys: keys, limits: .init(file: 403, shard: 150)).shards == [])
        #expect(TermShards(sizes: [100, 100, 100, 100], keys: keys, limits: .init(file: 402, shard: 150)).shards.count == 2)
        #expect(TermShards(sizes: [], keys: [], limits: .init(file: 0, shard: 150)).shards == [])
    }

    static let site = """
        -- glossary.yml --
        title: Shards
        -- content/index.md --
        See [[bravo]], [[API]] and [[Zulu]].
        -- content/glossary/alpha.md --
        ---
        term: alpha
        aliases: [Zulu]
        ---
        First.
        -- content/glossary/bravo.md --
        ---
        term: bravo
        ---
        Second.
        -- content/glossary/api.md --
        ---
        term: API
        case_sensitive: true
        ---
        An interface.
        """

    /// A build of `site` with shards of one key each.
    static func build() async throws -> [String: String] {
        let site = try ExportTestSite(Self.site)
        defer { site.remove() }
        var options = site.options
        options.termShards = .init(file: 0, shard: 1)
        let result = await SiteBuilder(options: options).build(into: MemorySink())
        #expect(result.succeeded, "\(result.diagnostics)")
        return (result.output?.files ?? [:]).mapValues { String(decoding: $0, as: UTF8.self) }
    }

    /// The keys of the terms a shard holds.
    static func keys(_ text: String?) throws -> [String] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data((text ?? "").utf8)) as? [String: Any])
        return try #require(object["terms"] as? [[String: Any]]).map { $0["key"] as? String ?? "?" }
    }

    @Test func aBuildsTermIndexIsAManifestAndShardsHoldingTermsByAliasToo() async throws {
        let files = try await Self.build()
        #expect(
            files["terms/index.json"] == #"{"shards":[{"file":"index.0.json","first":"alpha"},{"file":"index.1.json","first":"api"},"#
                + #"{"file":"index.2.json","first":"bravo"},{"file":"index.3.json","first":"zulu"}]}"# + "\n")
        #expect(try Self.keys(files["terms/index.0.json"]) == ["alpha"])
        #expect(try Self.keys(files["terms/index.1.json"]) == ["api"])
        #expect(try Self.keys(files["terms/index.2.json"]) == ["bravo"])
        #expect(try Self.keys(files["terms/index.3.json"]) == ["alpha"], "the alias's shard")
        #expect(files["terms/index.4.json"] == nil)
        #expect(files["terms/index.1.json"]?.hasPrefix(#"{"terms":[{"aliases":[],"key":"api","#) == true)
        // A link names its term by key, by which a card finds its shard.
        #expect(files["index.html"]?.contains(#"<a class="term" href="/terms/alpha/" data-term="alpha">Zulu</a>"#) == true)
    }

    @Test func theTermAPIIsShardedByItsFormsKeysAndTheCaseSensitivePlural() async throws {
        let files = try await Self.build()
        #expect(
            files["terms/api.json"] == #"{"version":2,"title":"Shards","shards":[{"file":"api.0.json","first":"alpha"},{"file":"api.1.json","first":"api"},"#
                + #"{"file":"api.2.json","first":"apis"},{"file":"api.3.json","first":"bravo"},{"file":"api.4.json","first":"zulu"}]}"# + "\n")
        #expect(files["terms/api.1.json"]?.hasPrefix(#"{"version":2,"title":"Shards","terms":[{"key":"api","word":"API","case_sensitive":true,"#) == true)
        #expect(try Self.keys(files["terms/api.2.json"]) == ["api"])
        #expect(try Self.keys(files["terms/api.4.json"]) == ["alpha"])
        #expect(files["terms/api.5.json"] == nil)
    }

    @Test func annotateReadsEveryShardOnceWithItsTerms() async throws {
        let files = try await Self.build()
        var asked: [String] = []
        let index = try await TermIndex(address: URL(string: "https://example.org/terms/api.json")) { name in
            asked.append(name)
            return Data((files["terms/" + name] ?? "").utf8)
        }
        #expect(asked == ["api.json", "api.0.json", "api.1.json", "api.2.json", "api.3.json", "api.4.json"])
        #expect(index.term(for: "Zulu") == TermIndex.Term(key: "alpha", url: "https://example.org/terms/alpha/"))
        #expect(index.term(for: "api")?.url == "https://example.org/terms/api/")
        // alpha is in two shards, API in two: each is one term, by its word and alias.
        #expect(index.forms.map(\.text).sorted() == ["API", "Zulu", "alpha", "bravo"])
    }

    @Test func annotateStillReadsAVersion1APIShardedByFirstCharacter() async throws {
        let files = [
            "api.json": #"{"version":1,"title":"Old","shards":{"k":"api.6b.json","a":"api.61.json"}}"#,
            "api.61.json": #"{"version":1,"title":"Old","terms":[{"key":"ascender","word":"ascender","url":"ascender/"}]}"#,
            "api.6b.json": #"{"version":1,"title":"Old","terms":[{"key":"kerning","word":"Kerning","url":"kerning/"}]}"#,
        ]
        var asked: [String] = []
        let index = try await TermIndex(address: URL(string: "https://example.org/terms/api.json")) { name in
            asked.append(name)
            return Data((files[name] ?? "").utf8)
        }
        #expect(asked == ["api.json", "api.61.json", "api.6b.json"])
        #expect(index.term(for: "KERNING")?.url == "https://example.org/terms/kerning/")
        #expect(index.term(for: "ascender")?.url == "https://example.org/terms/ascender/")
        await #expect(throws: TermIndex.Failure.unreadable("api.json is version 3, not 1 to 2")) {
            _ = try await TermIndex(address: URL(string: "https://example.org/terms/api.json")) { _ in Data(#"{"version":3,"terms":[]}"#.utf8) }
        }
    }
}
