import Foundation
import Testing

@testable import GlossaryKit

@Suite struct CacheInventoryTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("inventory-\(UUID().uuidString)")
    var cache: DefinitionCache { DefinitionCache(directory: folder) }

    func store(_ word: String, language: String = "en", status: Int = 200) throws {
        let body = Data((status == 200 ? #"[{"word":"\#(word)"}]"# : "{}").utf8)
        try cache.store(
            CacheEntry(
                key: TermKey(word)!, language: language, url: "http://api/\(word)", status: status, fetchedAt: Date(timeIntervalSince1970: 1_800_000_000),
                entries: try CacheEntry.decodeBody(body, status: status), body: body))
    }

    func write(_ path: String, _ text: String) throws {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    @Test func readsEntriesAndReportsEveryKindOfDamage() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try store("ink")
        try store("café", status: 404)
        try write("en/cut.json", #"{"format": 1, "key": "cut", "#)
        try write("en/shape.json", #"{"format": 1, "key": "shape", "status": 302, "fetched_at": "2026-01-01T00:00:00Z", "body": {}}"#)
        try write(
            "en/wrong.json",
            String(
                decoding: CacheEntry(
                    key: TermKey("right")!, language: "en", url: "", status: 404, fetchedAt: Date(timeIntervalSince1970: 0), entries: [], body: Data("{}".utf8)
                ).encoded(), as: UTF8.self))
        try write("en/.ink.123.456.tmp", "half")

        let inventory = CacheInventory.scan(cache) { String($0.path.dropFirst(folder.path.count + 1)) }

        #expect(inventory.items.map(\.displayPath) == ["en/cafe-a82b5049.json", "en/cut.json", "en/ink.json", "en/shape.json", "en/wrong.json"])
        #expect(
            inventory.problems.map(\.description) == [
                "en/cut.json:1:1: error: cache entry is not valid JSON (truncated or corrupt file) [cache-corrupt]",
                "en/shape.json:1:1: error: cache entry does not have the expected shape ('status' must be 200 or 404) [cache-corrupt]",
                "en/wrong.json:1:1: error: cache entry holds 'right' in 'en', which belongs in en/right.json [cache-corrupt]",
            ])
        #expect(inventory.leftovers.map(\.lastPathComponent) == [".ink.123.456.tmp"])
    }

    @Test func prunesUnreferencedAndOtherLanguagesButKeepsReferencedCorruptEntries() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try store("ink")
        try store("quill")
        try store("tinte", language: "de")
        try write("en/margin.json", "garbage")
        try write("en/orphan.json", "garbage")

        let inventory = CacheInventory.scan(cache)
        let pruned = inventory.pruning(referenced: [TermKey("Ink")!, TermKey("margin")!, TermKey("tinte")!], languages: SiteLanguages(codes: ["en"]))

        #expect(
            pruned.map { "\($0.item.language)/\($0.item.slug) \($0.reason)" } == ["de/tinte otherLanguage", "en/orphan unreferenced", "en/quill unreferenced"])
    }

    @Test func aSiteInSeveralLanguagesKeepsEachLanguageReferencedEntries() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try store("ink")
        try store("tinte", language: "de")
        try store("ink", language: "de")
        try store("encre", language: "fr")

        let inventory = CacheInventory.scan(cache)
        let referenced: Set<TermKey> = [TermKey("ink")!, TermKey("tinte")!.inLanguage("de")]
        let pruned = inventory.pruning(referenced: referenced, languages: SiteLanguages(codes: ["en", "de"]))

        #expect(pruned.map { "\($0.item.language)/\($0.item.slug) \($0.reason)" } == ["de/ink unreferenced", "fr/encre otherLanguage"])
    }
}
