import Foundation
import Testing
@testable import GlossaryKit

/// The resolver's order and fallbacks, with a scripted fetcher standing in for the network.
@Suite struct DefinitionResolverTests {
    final class ScriptedFetcher: DefinitionFetcher, @unchecked Sendable {
        var outcomes: [String: FetchOutcome] = [:]
        private(set) var requested: [TermKey] = []
        private let lock = NSLock()

        func fetch(_ keys: [TermKey], language: String, progress: @escaping @Sendable (FetchProgress) -> Void) async -> [TermKey: FetchOutcome] {
            lock.withLock { requested += keys }
            var result: [TermKey: FetchOutcome] = [:]
            for key in keys { result[key] = outcomes[key.rawValue] }
            return result
        }
    }

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("resolver-\(UUID().uuidString)")

    func entry(_ word: String, fetchedAt: Date = Date(), status: Int = 200) -> CacheEntry {
        let body = status == 200 ? #"[{"word":"\#(word)","meanings":[{"partOfSpeech":"noun","definitions":[{"definition":"Fresh \#(word)."}]}]}]"# : "{}"
        let data = Data(body.utf8)
        return CacheEntry(key: TermKey(word)!, language: "en", url: "http://api/\(word)", status: status, fetchedAt: fetchedAt,
                          entries: (try? CacheEntry.decodeBody(data, status: status)) ?? [], body: data)
    }

    func resolver(_ fetcher: ScriptedFetcher?, offline: Bool = false, refresh: Bool = false) -> DefinitionResolver {
        DefinitionResolver(cache: DefinitionCache(directory: folder), fetcher: fetcher, options: .init(offline: offline, refresh: refresh, maxAgeDays: 30))
    }

    @Test func teamEntriesWinAndAreNeverFetched() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let fetcher = ScriptedFetcher()
        let key = TermKey("kerning")!
        let team = [key: TermDefinition(key: key, word: "Kerning", entries: [], origin: .team(pageIndex: 0))]
        let outcome = await resolver(fetcher).resolve([key], team: team)
        #expect(fetcher.requested.isEmpty)
        #expect(outcome.local == 1)
        guard case .defined(let definition) = outcome.resolutions[key] else { Issue.record("unresolved"); return }
        #expect(definition.isTeamEntry)
    }

    @Test func freshCacheEntriesCauseNoRequestAndStaleOnesAreRefetched() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = DefinitionCache(directory: folder)
        try cache.store(entry("fresh"))
        try cache.store(entry("old", fetchedAt: Date(timeIntervalSinceNow: -40 * 86_400)))
        let fetcher = ScriptedFetcher()
        fetcher.outcomes["old"] = .fetched(entry("old"))
        let outcome = await resolver(fetcher).resolve([TermKey("fresh")!, TermKey("old")!], team: [:])
        #expect(fetcher.requested == [TermKey("old")!])
        #expect(outcome.cached == 1 && outcome.fetched == 1)
    }

    @Test func failedRefetchKeepsTheStaleEntryWithAWarning() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = DefinitionCache(directory: folder)
        let old = entry("old", fetchedAt: Date(timeIntervalSince1970: 1_700_000_000))
        try cache.store(old)
        let before = try Data(contentsOf: cache.fileURL(for: old.key, language: "en"))
        let fetcher = ScriptedFetcher()
        fetcher.outcomes["old"] = .failed(Diagnostic(.apiCannotConnect(key: "old", attempts: 4), subject: "http://api/old"), unreachable: true)
        let outcome = await resolver(fetcher).resolve([old.key], team: [:])
        #expect(outcome.diagnostics.map(\.description) == [
            "http://api/old: warning: using the cached definition of 'old' fetched 2023-11-14: can't connect to the dictionary API for 'old' (4 attempts) [stale-definition]"
        ])
        #expect(outcome.apiUnreachable)
        guard case .defined = outcome.resolutions[old.key] else { Issue.record("stale entry not used"); return }
        #expect(try Data(contentsOf: cache.fileURL(for: old.key, language: "en")) == before, "a failed fetch never touches a good entry")
    }

    @Test func offlineNeverFetches() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let fetcher = ScriptedFetcher()
        let outcome = await resolver(fetcher, offline: true).resolve([TermKey("missing")!], team: [:])
        #expect(fetcher.requested.isEmpty)
        guard case .unavailable = outcome.resolutions[TermKey("missing")!] else { Issue.record("expected unavailable"); return }
    }

    @Test func refreshRefetchesFreshEntriesAndNotFoundIsCached() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = DefinitionCache(directory: folder)
        try cache.store(entry("fresh"))
        let fetcher = ScriptedFetcher()
        fetcher.outcomes["fresh"] = .fetched(entry("fresh"))
        fetcher.outcomes["nosuchword"] = .fetched(entry("nosuchword", status: 404))
        let outcome = await resolver(fetcher, refresh: true).resolve([TermKey("fresh")!, TermKey("nosuchword")!], team: [:])
        #expect(Set(fetcher.requested) == [TermKey("fresh")!, TermKey("nosuchword")!])
        guard case .notFound = outcome.resolutions[TermKey("nosuchword")!] else { Issue.record("expected notFound"); return }
        guard case .entry(let stored) = cache.lookup(TermKey("nosuchword")!, language: "en") else { Issue.record("404 not cached"); return }
        #expect(stored.isNotFound)
    }
}
