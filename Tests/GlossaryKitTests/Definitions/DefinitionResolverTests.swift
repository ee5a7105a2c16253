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
        return CacheEntry(
            key: TermKey(word)!, language: "en", url: "http://api/\(word)", status: status, fetchedAt: fetchedAt,
            entries: (try? CacheEntry.decodeBody(data, status: status)) ?? [], body: data)
    }

    func resolver(_ fetcher: ScriptedFetcher?, offline: Bool = false, refresh: Bool = false) -> DefinitionResolver {
        DefinitionResolver(cache: DefinitionCache(directory: folder), fetcher: fetcher, options: .init(offline: offline, refresh: refresh, maxAgeDays: 30))
    }

    /// A resolver with the real WordNet (Debian's data) and `providers` in that order.
    func resolver(
        _ fetcher: ScriptedFetcher?, providers: [DictionaryProvider], language: String = "en", offline: Bool = false
    ) throws -> DefinitionResolver {
        DefinitionResolver(
            cache: DefinitionCache(directory: folder), fetcher: fetcher, wordNet: WordNetDictionary(try WordNet.open()),
            options: .init(language: language, offline: offline, maxAgeDays: 30, providers: providers))
    }

    static func source(_ resolution: Resolution?) -> String {
        switch resolution {
        case .defined(let definition):
            switch definition.origin {
            case .team: "team"
            case .dictionary(_, let fetched, _): fetched ? "fetched" : "cached"
            case .wordNet: "wordnet"
            }
        case .notFound: "not found"
        case .unavailable: "unavailable"
        case .unusable: "unusable"
        case nil: "nil"
        }
    }

    @Test func teamEntriesWinAndAreNeverFetched() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let fetcher = ScriptedFetcher()
        let key = TermKey("kerning")!
        let team = [key: TermDefinition(key: key, word: "Kerning", entries: [], origin: .team(pageIndex: 0))]
        let outcome = await resolver(fetcher).resolve([key], team: team)
        #expect(fetcher.requested.isEmpty)
        #expect(outcome.local == 1)
        guard case .defined(let definition) = outcome.resolutions[key] else {
            Issue.record("unresolved")
            return
        }
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
        #expect(
            outcome.diagnostics.map(\.description) == [
                "http://api/old: warning: using the cached definition of 'old' fetched 2023-11-14: can't connect to the dictionary API for 'old' (4 attempts) [stale-definition]"
            ])
        #expect(outcome.apiUnreachable)
        guard case .defined = outcome.resolutions[old.key] else {
            Issue.record("stale entry not used")
            return
        }
        #expect(try Data(contentsOf: cache.fileURL(for: old.key, language: "en")) == before, "a failed fetch never touches a good entry")
    }

    @Test func offlineNeverFetches() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let fetcher = ScriptedFetcher()
        let outcome = await resolver(fetcher, offline: true).resolve([TermKey("missing")!], team: [:])
        #expect(fetcher.requested.isEmpty)
        guard case .unavailable = outcome.resolutions[TermKey("missing")!] else {
            Issue.record("expected unavailable")
            return
        }
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
        guard case .notFound = outcome.resolutions[TermKey("nosuchword")!] else {
            Issue.record("expected notFound")
            return
        }
        guard case .entry(let stored) = cache.lookup(TermKey("nosuchword")!, language: "en") else {
            Issue.record("404 not cached")
            return
        }
        #expect(stored.isNotFound)
    }

    // MARK: Providers

    /// `[api, wordnet]`: the API's answer where it has one; its 404, a failure or no connection pass the word on.
    @Test func wordNetAnswersWhatTheAPIDoesNotKnowOrCannotAnswer() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let fetcher = ScriptedFetcher()
        fetcher.outcomes["ink"] = .fetched(entry("ink"))
        fetcher.outcomes["quill"] = .fetched(entry("quill", status: 404))
        fetcher.outcomes["margin"] = .failed(Diagnostic(.apiCannotConnect(key: "margin", attempts: 4), subject: "http://api/margin"), unreachable: true)
        fetcher.outcomes["zzqx"] = .fetched(entry("zzqx", status: 404))
        let keys = ["ink", "quill", "margin", "zzqx"].map { TermKey($0)! }

        let outcome = try await resolver(fetcher, providers: [.api, .wordNet]).resolve(keys, team: [:])

        #expect(keys.map { Self.source(outcome.resolutions[$0]) } == ["fetched", "wordnet", "wordnet", "not found"])
        #expect(outcome.fromWordNet == 2 && outcome.fetched == 1)
        #expect(outcome.fetchFailures == [TermKey("margin")!])
        guard case .defined(let quill) = outcome.resolutions[TermKey("quill")!] else { return }
        #expect(quill.summary == "pen made from a bird's feather")
        #expect(quill.entries.first?.license == WordNet.license)
    }

    @Test func offlineWordNetAnswersWhatTheCacheLacks() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let fetcher = ScriptedFetcher()
        let outcome = try await resolver(fetcher, providers: [.api, .wordNet], offline: true).resolve([TermKey("ink")!, TermKey("zzqx")!], team: [:])
        #expect(fetcher.requested.isEmpty)
        #expect(Self.source(outcome.resolutions[TermKey("ink")!]) == "wordnet")
        #expect(Self.source(outcome.resolutions[TermKey("zzqx")!]) == "unavailable", "offline: the API might know it")
    }

    /// `[wordnet, api]`: WordNet first, and the API is asked only for what WordNet lacks.
    @Test func theProvidersOrderDecides() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let fetcher = ScriptedFetcher()
        fetcher.outcomes["ink"] = .fetched(entry("ink"))
        fetcher.outcomes["zzqx"] = .fetched(entry("zzqx"))
        let outcome = try await resolver(fetcher, providers: [.wordNet, .api]).resolve([TermKey("ink")!, TermKey("zzqx")!], team: [:])
        #expect(fetcher.requested == [TermKey("zzqx")!])
        #expect(Self.source(outcome.resolutions[TermKey("ink")!]) == "wordnet")
        #expect(Self.source(outcome.resolutions[TermKey("zzqx")!]) == "fetched")
    }

    /// A fresh cache entry comes before every provider, whatever their order.
    @Test func theCacheComesBeforeTheProviders() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try DefinitionCache(directory: folder).store(entry("ink"))
        let outcome = try await resolver(ScriptedFetcher(), providers: [.wordNet, .api]).resolve([TermKey("ink")!], team: [:])
        #expect(Self.source(outcome.resolutions[TermKey("ink")!]) == "cached")
    }

    @Test func withNoProvidersOnlyTheTeamAndTheCacheAnswer() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let fetcher = ScriptedFetcher()
        try DefinitionCache(directory: folder).store(entry("quill"))
        let outcome = try await resolver(fetcher, providers: []).resolve([TermKey("ink")!, TermKey("quill")!], team: [:])
        #expect(fetcher.requested.isEmpty)
        #expect(Self.source(outcome.resolutions[TermKey("ink")!]) == "not found", "no source that might know it was left out")
        #expect(Self.source(outcome.resolutions[TermKey("quill")!]) == "cached")
    }

    @Test func wordNetIsForEnglishSitesOnly() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try await resolver(nil, providers: [.wordNet], language: "fr").resolve([TermKey("ink")!, TermKey("keyboards")!], team: [:])
        #expect(Self.source(outcome.resolutions[TermKey("ink")!]) == "not found")
        #expect(Self.source(outcome.resolutions[TermKey("keyboards")!]) == "not found", "and word forms too")
        #expect(outcome.forms.isEmpty)
    }

    @Test func anUnusableAnswerIsNotAnUnreachableDictionary() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let fetcher = ScriptedFetcher()
        fetcher.outcomes["zzqx"] = .failed(Diagnostic(.responseNotJSON(key: "zzqx"), subject: "http://api/zzqx"), unreachable: false)
        let outcome = try await resolver(fetcher, providers: [.api, .wordNet]).resolve([TermKey("zzqx")!], team: [:])
        #expect(Self.source(outcome.resolutions[TermKey("zzqx")!]) == "unusable")
        #expect(!outcome.apiUnreachable)
    }

    // MARK: Word forms

    /// A word no source defines stands for its base form's definition, wherever that one comes from; words of their
    /// own stay themselves.
    @Test func aWordNoSourceDefinesResolvesToItsBaseForm() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try DefinitionCache(directory: folder).store(entry("keyboard"))
        let goose = TermKey("goose")!
        let team = [goose: TermDefinition(key: goose, word: "Goose", entries: [], origin: .team(pageIndex: 0))]
        let keys = ["keyboards", "geese", "ran", "indices", "glasses", "news", "species"].map { TermKey($0)! }

        let outcome = try await resolver(nil, providers: [.api, .wordNet], offline: true).resolve(keys, team: team)

        #expect(
            outcome.forms == [
                TermKey("keyboards")!: TermKey("keyboard")!, TermKey("geese")!: goose, TermKey("ran")!: TermKey("run")!, TermKey("indices")!: TermKey("index")!,
            ])
        #expect(keys.map { Self.source(outcome.resolutions[$0]) } == ["cached", "team", "wordnet", "wordnet", "wordnet", "wordnet", "wordnet"])
        for (form, base) in outcome.forms {
            guard case .defined(let definition) = outcome.resolutions[form] else { continue }
            #expect(definition.key == base, "\(form) links to \(base)'s page")
        }
    }

    /// Without WordNet among the providers, forms still resolve (Morphy is WordNet's), but a word WordNet has as a
    /// word of its own never stands for another.
    @Test func formsWithoutWordNetDefinitions() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = DefinitionCache(directory: folder)
        try cache.store(entry("keyboard"))
        try cache.store(entry("glass"))
        let outcome = try await resolver(nil, providers: [.api], offline: true).resolve([TermKey("keyboards")!, TermKey("glasses")!], team: [:])
        #expect(outcome.forms == [TermKey("keyboards")!: TermKey("keyboard")!])
        #expect(Self.source(outcome.resolutions[TermKey("glasses")!]) == "unavailable")
    }
}
