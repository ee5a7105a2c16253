import Foundation
import TestSupport
import Testing

@testable import GlossaryKit

/// The resolver with the real dictionary client and the real cache: what gets fetched, stored and kept.
@Suite struct DefinitionResolverFetchingTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("resolver-fetch-\(UUID().uuidString)")
    var cache: DefinitionCache { DefinitionCache(directory: folder) }
    static let path = "/api/v2/entries/en/"
    static let notFound =
        #"{"title":"No Definitions Found","message":"Sorry pal, we couldn't find definitions for the word you were looking for.","resolution":"You can try the search again at later time or head to the web instead."}"#

    func resolver(_ server: LoopbackServer, offline: Bool = false, refresh: Bool = false, maxAgeDays: Int = 30) -> DefinitionResolver {
        DefinitionResolver(
            cache: cache, fetcher: DictionaryClientTests.client(server),
            options: .init(offline: offline, refresh: refresh, maxAgeDays: maxAgeDays),
            displayPath: { $0.lastPathComponent })
    }

    func stored(_ word: String, status: Int = 200, daysAgo: Double) throws -> CacheEntry {
        let body = Data(
            (status == 200 ? #"[{"word":"\#(word)","meanings":[{"partOfSpeech":"noun","definitions":[{"definition":"Old."}]}]}]"# : Self.notFound).utf8)
        let entry = CacheEntry(
            key: TermKey(word)!, language: "en", url: "https://api.dictionaryapi.dev/api/v2/entries/en/\(word)", status: status,
            fetchedAt: Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - daysAgo * 86_400).rounded(.down)),
            entries: try CacheEntry.decodeBody(body, status: status), body: body)
        try cache.store(entry)
        return entry
    }

    func fileBytes(_ word: String) -> Data? {
        FileManager.default.contents(atPath: cache.fileURL(for: TermKey(word)!, language: "en").path)
    }

    @Test func aNegativeEntryIsAskedAgainOnlyAfterMaxAgeDays() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try LoopbackServer { _ in .json(200, #"[{"word":"w"}]"#) }
        defer { server.stop() }
        _ = try stored("recent", status: 404, daysAgo: 29)
        _ = try stored("ancient", status: 404, daysAgo: 31)

        let outcome = await resolver(server).resolve([TermKey("recent")!, TermKey("ancient")!], team: [:])

        #expect(server.requestPaths == [Self.path + "ancient"])
        guard case .notFound = outcome.resolutions[TermKey("recent")!] else {
            Issue.record("fresh 404 not kept")
            return
        }
        guard case .defined = outcome.resolutions[TermKey("ancient")!] else {
            Issue.record("old 404 not refetched")
            return
        }
        guard case .entry(let refetched) = cache.lookup(TermKey("ancient")!, language: "en") else {
            Issue.record("not stored")
            return
        }
        #expect(refetched.status == 200)
    }

    @Test func aCorruptEntryIsReportedRefetchedAndRepaired() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try LoopbackServer { _ in .json(200, #"[{"word":"ink"}]"#) }
        defer { server.stop() }
        let good = try stored("ink", daysAgo: 1)
        let bytes = try #require(fileBytes("ink"))
        try bytes.prefix(bytes.count / 2).write(to: cache.fileURL(for: good.key, language: "en"))

        let outcome = await resolver(server).resolve([good.key], team: [:])

        #expect(
            outcome.diagnostics.map(\.description) == [
                "ink.json:1:1: warning: cache entry for 'ink' is not valid JSON (truncated or corrupt file); it will be refetched [cache-corrupt]"
            ])
        #expect(server.requestPaths == [Self.path + "ink"])
        #expect(outcome.fetched == 1)
        guard case .entry = cache.lookup(good.key, language: "en") else {
            Issue.record("not repaired")
            return
        }
    }

    @Test func aCorruptEntryOfflineIsReportedAndIgnored() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try LoopbackServer()
        defer { server.stop() }
        let good = try stored("ink", daysAgo: 1)
        try Data("{".utf8).write(to: cache.fileURL(for: good.key, language: "en"))

        let outcome = await resolver(server, offline: true).resolve([good.key], team: [:])

        #expect(
            outcome.diagnostics.map(\.description) == [
                "ink.json:1:1: warning: cache entry for 'ink' is not valid JSON (truncated or corrupt file); ignored offline [cache-corrupt]"
            ])
        #expect(server.requests.isEmpty)
        guard case .unavailable = outcome.resolutions[good.key] else {
            Issue.record("expected unavailable")
            return
        }
    }

    @Test func aFailedRefetchKeepsTheStaleEntryByteForByte() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try LoopbackServer()
        defer { server.stop() }
        server.script(Self.path + "old", .json(500, "down"))
        server.script(Self.path + "gone", .json(200, "<html>oops</html>"))
        let old = try stored("old", daysAgo: 40)
        let gone = try stored("gone", status: 404, daysAgo: 40)
        let before = (fileBytes("old"), fileBytes("gone"))

        let outcome = await resolver(server).resolve([old.key, gone.key], team: [:])

        let day = { (entry: CacheEntry) in String(CacheEntry.timestampFormatter.string(from: entry.fetchedAt).prefix(10)) }
        #expect(
            outcome.diagnostics.map(\.description) == [
                "\(server.url(Self.path + "gone")): warning: using the cached answer that 'gone' is not in the dictionary fetched \(day(gone)): response for 'gone' is not valid JSON [stale-definition]",
                "\(server.url(Self.path + "old")): warning: using the cached definition of 'old' fetched \(day(old)): the dictionary API answered HTTP 500 for 'old' (4 attempts) [stale-definition]",
            ])
        #expect(outcome.apiUnreachable)
        // The stale definition is used; the stale 404 is kept too, but it defines nothing.
        #expect(outcome.cached == 1)
        guard case .notFound = outcome.resolutions[gone.key] else {
            Issue.record("the cached 404 not kept")
            return
        }
        #expect(fileBytes("old") == before.0 && fileBytes("gone") == before.1, "a failed fetch never touches a good entry")
    }

    @Test func aFailedFetchWithNothingCachedStoresNothing() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try LoopbackServer()
        defer { server.stop() }
        server.script(Self.path + "w", .json(200, "not json"))

        let outcome = await resolver(server).resolve([TermKey("w")!], team: [:])

        #expect(outcome.diagnostics.map(\.description) == ["\(server.url(Self.path + "w")): error: response for 'w' is not valid JSON [bad-response]"])
        #expect(!outcome.apiUnreachable)
        #expect(fileBytes("w") == nil)
        #expect(CacheInventory.scan(cache).items.isEmpty && CacheInventory.scan(cache).leftovers.isEmpty)
    }

    /// The API's 404 for an inflected form brings exactly one request for its base form (WordNet's Morphy says
    /// which), whose answer is cached under the base's key; the form then links to the base's definition.
    @Test func anInflectedFormTheAPIDoesNotKnowBringsOneRequestForItsBase() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try LoopbackServer { request in
            request.path.hasSuffix("/keyboard")
                ? .json(200, #"[{"word":"keyboard","phonetic":"/ˈkiːbɔːd/","meanings":[{"partOfSpeech":"noun","definitions":[{"definition":"Keys."}]}]}]"#)
                : .respond(status: 404, body: Data(Self.notFound.utf8))
        }
        defer { server.stop() }
        var resolver = resolver(server)
        resolver.wordNet = WordNetDictionary(try WordNet.open())

        let outcome = await resolver.resolve([TermKey("keyboards")!], team: [:])

        #expect(server.requestPaths == [Self.path + "keyboards", Self.path + "keyboard"])
        #expect(outcome.forms == [TermKey("keyboards")!: TermKey("keyboard")!])
        guard case .defined(let definition) = outcome.resolutions[TermKey("keyboards")!] else {
            Issue.record("keyboards unresolved")
            return
        }
        #expect(definition.key == TermKey("keyboard")! && definition.phonetic == "/ˈkiːbɔːd/", "the API's answer, first of the providers")
        guard case .entry(let base) = cache.lookup(TermKey("keyboard")!, language: "en"),
            case .entry(let form) = cache.lookup(TermKey("keyboards")!, language: "en")
        else {
            Issue.record("not cached")
            return
        }
        #expect(base.status == 200 && form.isNotFound)

        // The next build asks nothing: the form's 404 and the base's answer are both in the cache.
        server.resetCounters()
        let again = await resolver.resolve([TermKey("keyboards")!], team: [:])
        #expect(server.requests.isEmpty)
        #expect(again.forms == outcome.forms)
    }

    @Test func aBaseFormDefinedElsewhereIsNotAskedFor() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try LoopbackServer { _ in .respond(status: 404, body: Data(Self.notFound.utf8)) }
        defer { server.stop() }
        _ = try stored("keyboard", daysAgo: 1)
        var resolver = resolver(server)
        resolver.wordNet = WordNetDictionary(try WordNet.open())

        let outcome = await resolver.resolve([TermKey("keyboards")!, TermKey("geese")!], team: [:])

        // keyboard is cached; goose is not, and WordNet (after the API) has it.
        #expect(server.requestPaths.sorted() == [Self.path + "geese", Self.path + "goose", Self.path + "keyboards"])
        #expect(outcome.forms == [TermKey("keyboards")!: TermKey("keyboard")!, TermKey("geese")!: TermKey("goose")!])
    }

    @Test func refreshRefetchesEvenFreshEntries() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try LoopbackServer { _ in .json(200, #"[{"word":"new"}]"#) }
        defer { server.stop() }
        _ = try stored("fresh", daysAgo: 0)

        let outcome = await resolver(server, refresh: true).resolve([TermKey("fresh")!], team: [:])

        #expect(server.requestPaths == [Self.path + "fresh"])
        #expect(outcome.fetched == 1)
    }

    @Test func twoBuildsFetchingIntoOneCacheLeaveOnlyWholeEntries() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try LoopbackServer { request in
            .json(200, #"[{"word":"\#(request.path.split(separator: "/").last!)","meanings":[]}]"#, delay: 0.005)
        }
        defer { server.stop() }
        let keys = (0..<60).map { TermKey("word\($0)")! }

        async let first = resolver(server, refresh: true).resolve(keys, team: [:])
        async let second = resolver(server, refresh: true).resolve(keys.reversed(), team: [:])
        let outcomes = await [first, second]

        #expect(outcomes.allSatisfy { $0.fetched == 60 && $0.diagnostics.isEmpty })
        let inventory = CacheInventory.scan(cache)
        #expect(inventory.items.count == 60)
        #expect(inventory.problems.isEmpty)
        #expect(inventory.leftovers.isEmpty)
    }

    @Test func readersNeverSeeHalfAnEntryWhileOthersRewriteIt() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let short = try stored("ink", daysAgo: 0)
        var long = short
        long.bodyJSON = try JSONParser.parse(Data(("[" + String(repeating: #"{"word":"ink","meanings":[]},"#, count: 400) + #"{"word":"ink"}]"#).utf8))
        long.entries = try CacheEntry.decodeBody(long.body, status: 200)
        let cache = self.cache
        let versions = [long, short]

        let failures = await withTaskGroup(of: Int.self) { group in
            for writer in 0..<2 {
                group.addTask {
                    for round in 0..<150 { try? cache.store(versions[(round + writer) % 2]) }
                    return 0
                }
            }
            group.addTask {
                var failures = 0
                for _ in 0..<600 {
                    if case .entry = cache.lookup(short.key, language: "en") { continue }
                    failures += 1
                }
                return failures
            }
            return await group.reduce(0, +)
        }

        #expect(failures == 0)
        #expect(CacheInventory.scan(cache).leftovers.isEmpty)
    }
}
