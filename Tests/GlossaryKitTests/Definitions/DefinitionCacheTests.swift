import Foundation
import Testing

@testable import GlossaryKit

@Suite struct DefinitionCacheTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cache-test-\(UUID().uuidString)")

    func entry(_ word: String, status: Int = 200, body: String? = nil) throws -> CacheEntry {
        let key = try #require(TermKey(word))
        let data = Data((body ?? #"[{"word":"\#(word)","meanings":[{"partOfSpeech":"noun","definitions":[{"definition":"A \#(word)."}]}]}]"#).utf8)
        return CacheEntry(
            key: key, language: "en", url: "http://x/\(word)", status: status, fetchedAt: Date(timeIntervalSince1970: 1_700_000_000),
            entries: try CacheEntry.decodeBody(data, status: status), body: data)
    }

    @Test func storeThenLookupRoundTrips() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = DefinitionCache(directory: folder)
        let original = try entry("ink")
        try cache.store(original)
        guard case .entry(let read) = cache.lookup(original.key, language: "en") else {
            Issue.record("not found")
            return
        }
        #expect(read.entries == original.entries)
        #expect(read.fetchedAt == original.fetchedAt)
        #expect(read.encoded() == original.encoded(), "rewriting an entry changes no byte")
        let text = try String(contentsOf: cache.fileURL(for: original.key, language: "en"), encoding: .utf8)
        #expect(text.contains("\n  \"key\": \"ink\",\n"), "pretty-printed for diffs: \(text)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("en").path).count == 1)
    }

    @Test func corruptAndTruncatedEntriesAreReportedNotFatal() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = DefinitionCache(directory: folder)
        let good = try entry("ink")
        try cache.store(good)
        let url = cache.fileURL(for: good.key, language: "en")
        let bytes = try Data(contentsOf: url)
        try bytes.prefix(bytes.count / 2).write(to: url)
        guard case .unreadable(let problem, let location) = cache.lookup(good.key, language: "en", displayPath: { $0.lastPathComponent }) else {
            Issue.record("truncated entry accepted")
            return
        }
        #expect(
            Diagnostic(problem, at: location).description
                == "ink.json:1:1: warning: cache entry for 'ink' is not valid JSON (truncated or corrupt file) [cache-corrupt]")
    }

    @Test func notFoundEntriesRoundTrip() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = DefinitionCache(directory: folder)
        let negative = try entry("zzxq", status: 404, body: #"{"title":"No Definitions Found"}"#)
        try cache.store(negative)
        guard case .entry(let read) = cache.lookup(negative.key, language: "en") else {
            Issue.record("negative entry lost")
            return
        }
        #expect(read.isNotFound)
    }
}
