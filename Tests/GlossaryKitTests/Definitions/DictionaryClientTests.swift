import Foundation
import Synchronization
import TestSupport
import Testing

@testable import GlossaryKit

/// The dictionary client end to end: real libcurl, a real server on 127.0.0.1, the real API's responses.
@Suite struct DictionaryClientTests {
    static let entriesPath = "/api/v2/entries/en/"
    static let notFoundBody =
        #"{"title":"No Definitions Found","message":"Sorry pal, we couldn't find definitions for the word you were looking for.","resolution":"You can try the search again at later time or head to the web instead."}"#

    /// A client for `server` with quick timeouts and backoffs, so failure cases finish fast.
    static func client(
        _ server: LoopbackServer, concurrency: Int = 4, configure: (inout DictionaryClient.Configuration) -> Void = { _ in }
    ) -> DictionaryClient {
        var configuration = DictionaryClient.Configuration(template: DictionaryURLTemplate(server.url("/api/v2/entries/{lang}/{word}"))!)
        configuration.concurrency = concurrency
        configuration.timeoutSeconds = 1
        configuration.backoffBase = 0.02
        configuration.rateLimitRequests = 10_000
        configuration.rateLimitWindow = 1
        configure(&configuration)
        return DictionaryClient(configuration: configuration)
    }

    static func key(_ text: String) -> TermKey { TermKey(text)! }

    static func fetch(_ client: DictionaryClient, _ words: [String]) async -> [TermKey: FetchOutcome] {
        await client.fetch(words.map(key), language: "en", progress: { _ in })
    }

    static func entry(_ outcome: FetchOutcome?, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> CacheEntry? {
        guard case .fetched(let entry) = outcome else {
            Issue.record("expected a fetched entry, got \(String(describing: outcome))", sourceLocation: sourceLocation)
            return nil
        }
        return entry
    }

    static func failure(_ outcome: FetchOutcome?, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> (String, Bool)? {
        guard case .failed(let diagnostic, let unreachable) = outcome else {
            Issue.record("expected a failure, got \(String(describing: outcome))", sourceLocation: sourceLocation)
            return nil
        }
        return (diagnostic.description, unreachable)
    }

    // MARK: Real responses

    /// What each real response must decode to: entries, first word, phonetic, parts of speech, noun synonyms.
    struct Expected: Sendable {
        var word: String
        var entries: Int
        var phonetic: String?
        var partsOfSpeech: [String]
        var firstSynonyms: [String]
        var sourceUrls: Int
    }

    static let expectations: [String: Expected] = [
        "aaa": Expected(word: "aaa", entries: 1, phonetic: nil, partsOfSpeech: ["noun", "noun"], firstSynonyms: [], sourceUrls: 2),
        "banana": Expected(
            word: "banana", entries: 1, phonetic: "/bəˈnɑːnə/", partsOfSpeech: ["noun", "adjective"], firstSynonyms: ["Twinkie", "jook-sing"], sourceUrls: 1),
        "charlie": Expected(word: "charlie", entries: 1, phonetic: nil, partsOfSpeech: ["noun"], firstSynonyms: ["snow", "fool"], sourceUrls: 1),
        "hello": Expected(
            word: "hello", entries: 1, phonetic: nil, partsOfSpeech: ["noun", "verb", "interjection"], firstSynonyms: ["greeting"], sourceUrls: 1),
        "hi": Expected(
            word: "hi", entries: 2, phonetic: "/haɪ/", partsOfSpeech: ["noun", "interjection", "adjective"], firstSynonyms: ["greeting", "hello"], sourceUrls: 3
        ),
        "honor": Expected(
            word: "honor", entries: 1, phonetic: "/ˈɒn.ə/", partsOfSpeech: ["noun", "verb"], firstSynonyms: ["chivalry", "gentlemanliness", "glory"],
            sourceUrls: 1),
        "keyboard": Expected(
            word: "keyboard", entries: 1, phonetic: "/ˈkiːbɔːd/", partsOfSpeech: ["noun", "verb"], firstSynonyms: ["electronic keyboard"], sourceUrls: 1),
        "keyboard-duplicated-synonyms": Expected(
            word: "keyboard", entries: 1, phonetic: "/ˈkiːbɔːd/", partsOfSpeech: ["noun", "verb"], firstSynonyms: ["electronic keyboard"], sourceUrls: 1),
    ]

    @Test func theRealResponseFixturesArePresent() {
        #expect(DictionaryFixtures.isAvailable, "\(DictionaryFixtures.missingMessage)")
        #expect(Set(DictionaryFixtures.names).isSuperset(of: Self.expectations.keys))
    }

    @Test(arguments: expectations.keys.sorted())
    func decodesEachRealResponse(fixture: String) async throws {
        let expected = try #require(Self.expectations[fixture])
        let body = try #require(DictionaryFixtures.data(fixture), "\(DictionaryFixtures.missingMessage)")
        let server = try LoopbackServer()
        defer { server.stop() }
        server.script(Self.entriesPath + expected.word, .respond(status: 200, headers: ["Content-Type": "application/json"], body: body))

        let outcomes = await Self.fetch(Self.client(server), [expected.word])

        let entry = try #require(Self.entry(outcomes[Self.key(expected.word)]))
        #expect(entry.status == 200)
        #expect(entry.url == server.url(Self.entriesPath + expected.word))
        #expect(entry.entries.count == expected.entries)
        #expect(entry.entries.first?.word == expected.word)
        #expect(entry.entries.first?.phonetic == expected.phonetic)
        #expect(entry.entries.flatMap(\.meanings).map(\.partOfSpeech) == expected.partsOfSpeech)
        #expect(entry.entries.first?.meanings.first?.synonyms == expected.firstSynonyms)
        #expect(entry.entries.flatMap(\.sourceUrls).count == expected.sourceUrls)
        #expect(entry.entries.flatMap(\.phonetics).allSatisfy { $0.audio != "" })
        // The stored body is the response as received (canonical JSON), so the cache round-trips it.
        #expect(try CacheEntry.decode(entry.encoded()) == entry)
    }

    @Test func theAPIsNotFoundAnswerIsANegativeEntry() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.script(Self.entriesPath + "keybord", .respond(status: 404, body: try #require(DictionaryFixtures.data("not-found"))))

        let outcomes = await Self.fetch(Self.client(server), ["keybord"])

        let entry = try #require(Self.entry(outcomes[Self.key("keybord")]))
        #expect(entry.status == 404)
        #expect(entry.isNotFound)
        #expect(entry.entries.isEmpty)
        #expect(server.count(Self.entriesPath + "keybord") == 1)
    }

    // MARK: Words on the wire

    @Test(arguments: [
        ("ice cream", "/api/v2/entries/en/ice%20cream"),
        ("don't", "/api/v2/entries/en/don%27t"),
        ("don\u{2019}t", "/api/v2/entries/en/don%27t"),
        ("Café", "/api/v2/entries/en/caf%C3%A9"),
        ("Cafe\u{301}", "/api/v2/entries/en/caf%C3%A9"),
        ("naïve façade", "/api/v2/entries/en/na%C3%AFve%20fa%C3%A7ade"),
        ("Straße", "/api/v2/entries/en/strasse"),
        ("日本", "/api/v2/entries/en/%E6%97%A5%E6%9C%AC"),
        ("a/b?c#d", "/api/v2/entries/en/a%2Fb%3Fc%23d"),
    ])
    func encodesTheWordInThePath(word: String, path: String) async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.script(path, .json(200, #"[{"word":"w"}]"#))

        let outcomes = await Self.fetch(Self.client(server), [word])

        #expect(server.requestPaths == [path])
        #expect(Self.entry(outcomes[Self.key(word)])?.url == server.url(path))
    }

    @Test func requestsEachKeyOnceWhateverItsSpelling() async throws {
        let server = try LoopbackServer { _ in .json(200, #"[{"word":"w"}]"#) }
        defer { server.stop() }
        let keys = ["Keyboard", "keyboard", "KEYBOARD", "café", "cafe\u{301}", "keyboard"].map(Self.key)

        let outcomes = await Self.client(server).fetch(keys, language: "en", progress: { _ in })

        #expect(server.requestPaths.sorted() == ["/api/v2/entries/en/caf%C3%A9", "/api/v2/entries/en/keyboard"])
        #expect(outcomes.count == 2)
    }

    // MARK: Statuses and failures

    @Test func honoursRetryAfterAndPausesEveryWord() async throws {
        let server = try LoopbackServer { _ in .json(200, #"[{"word":"w"}]"#) }
        defer { server.stop() }
        server.script(Self.entriesPath + "first", .json(429, "{}", headers: ["Retry-After": "1"]), .json(200, #"[{"word":"first"}]"#))
        let started = ContinuousClock.now

        // One slot: "first" is told to wait; nothing else may leave for a second, "second" included.
        let outcomes = await Self.fetch(Self.client(server, concurrency: 1), ["first", "second"])

        #expect(Self.entry(outcomes[Self.key("first")])?.entries.first?.word == "first")
        #expect(Self.entry(outcomes[Self.key("second")]) != nil)
        #expect(server.requestPaths.sorted() == ["first", "first", "second"].map { Self.entriesPath + $0 })
        for request in server.requests.dropFirst() {
            #expect(request.receivedAt - started >= .milliseconds(950), "\(request.path) left during the pause")
        }
    }

    @Test func aRateLimitPausesWordsAlreadyQueuedOrInFlightElsewhere() async throws {
        let server = try LoopbackServer { _ in .json(200, #"[{"word":"w"}]"#, delay: 0.05) }
        defer { server.stop() }
        server.script(Self.entriesPath + "a", .json(429, "{}", headers: ["Retry-After": "1"]), .json(200, #"[{"word":"a"}]"#))

        let outcomes = await Self.fetch(Self.client(server, concurrency: 2), ["a", "b", "c", "d"])

        #expect(outcomes.values.allSatisfy { if case .fetched = $0 { true } else { false } })
        // Only "a" and possibly "b" (sent beside it, before the 429 came back) may leave before the pause ends:
        // the retry of "a" and the queued "c" and "d" all wait it out.
        // Timed from the first request, not the test's start: a loaded machine may be slow to send it.
        let first = try #require(server.requests.first?.receivedAt)
        let early = server.requests.filter { $0.receivedAt - first < .milliseconds(950) }.map(\.path)
        #expect(early.contains(Self.entriesPath + "a"))
        #expect(
            early.count <= 2 && Set(early).count == early.count && Set(early).isSubset(of: Set(["a", "b"].map { Self.entriesPath + $0 })),
            "\(early) left during the pause")
        #expect(server.requests.count == 5)
    }

    @Test func aRateLimitWithoutRetryAfterStillPausesBriefly() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.script(Self.entriesPath + "w", .json(429, "{}"), .json(200, #"[{"word":"w"}]"#))
        let started = ContinuousClock.now

        let outcomes = await Self.fetch(Self.client(server), ["w"])

        #expect(Self.entry(outcomes[Self.key("w")]) != nil)
        #expect(try #require(server.requests.last).receivedAt - started >= .milliseconds(1950))
    }

    @Test func boundsRetryAfter() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.script(Self.entriesPath + "w", .json(429, "{}", headers: ["Retry-After": "3600"]), .json(200, #"[{"word":"w"}]"#))
        let started = ContinuousClock.now

        let outcomes = await Self.fetch(Self.client(server) { $0.maxRetryAfter = 0.2 }, ["w"])

        #expect(Self.entry(outcomes[Self.key("w")]) != nil)
        #expect(ContinuousClock.now - started < .seconds(30), "3600 s would never end")
    }

    /// Found by fuzzing (Fuzz/, api-response): a Retry-After too long for Int64 milliseconds trapped when the 429
    /// arrived; a server could stop any build that asked it a word.
    @Test func aRetryAfterTooLongForMillisecondsIsBoundedToo() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.script(
            Self.entriesPath + "w", .json(429, "{}", headers: ["Retry-After": "99999999999999999"]), .json(200, #"[{"word":"w"}]"#))
        let started = ContinuousClock.now

        let outcomes = await Self.fetch(Self.client(server) { $0.maxRetryAfter = 0.2 }, ["w"])

        #expect(Self.entry(outcomes[Self.key("w")]) != nil)
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    /// Found by fuzzing (Fuzz/, front-matter): glossary.yml accepts any finite timeout and any window, and one too
    /// long for milliseconds trapped as the client started (the window) or as libcurl was set up (the timeout).
    @Test(arguments: ["timeout_seconds: 1e300", "rate_limit: 1/100000000000000000"])
    func aTimeoutOrRateWindowTooLongForMillisecondsStillFetches(setting: String) async throws {
        let server = try LoopbackServer { _ in .json(200, #"[{"word":"w"}]"#) }
        defer { server.stop() }
        let (config, problems) = SiteConfig.load(yaml: "dictionary:\n  \(setting)\n", file: "glossary.yml")
        #expect(problems.isEmpty)

        let client = Self.client(server) {
            $0.timeoutSeconds = config.dictionary.timeoutSeconds
            $0.rateLimitRequests = config.dictionary.rateLimit.requests
            $0.rateLimitWindow = Double(config.dictionary.rateLimit.windowSeconds)
        }
        let outcomes = await Self.fetch(client, ["w"])

        #expect(Self.entry(outcomes[Self.key("w")]) != nil)
    }

    @Test func givesUpWhenTheAPIKeepsSaying429() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.script(Self.entriesPath + "w", .json(429, "{}", headers: ["Retry-After": "0"]))

        let outcomes = await Self.fetch(Self.client(server) { $0.rateLimitedRetries = 2 }, ["w"])

        let url = server.url(Self.entriesPath + "w")
        #expect(
            Self.failure(outcomes[Self.key("w")])! == (
                "\(url): warning: the dictionary API kept answering HTTP 429 (too many requests) for 'w' (3 attempts) [api-rate-limited]", true
            ))
        #expect(server.count(Self.entriesPath + "w") == 3)
    }

    @Test func retriesAServerErrorThenSucceeds() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.script(Self.entriesPath + "w", .json(500, "oops"), .json(503, "busy"), .json(200, #"[{"word":"w"}]"#))

        let outcomes = await Self.fetch(Self.client(server), ["w"])

        #expect(Self.entry(outcomes[Self.key("w")])?.entries.first?.word == "w")
        #expect(server.count(Self.entriesPath + "w") == 3)
    }

    @Test func givesUpOnAServerErrorAfterTheRetries() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.script(Self.entriesPath + "w", .json(502, "bad gateway"))

        let outcomes = await Self.fetch(Self.client(server), ["w"])

        let url = server.url(Self.entriesPath + "w")
        #expect(Self.failure(outcomes[Self.key("w")])! == ("\(url): warning: the dictionary API answered HTTP 502 for 'w' (4 attempts) [api-error]", true))
        #expect(server.count(Self.entriesPath + "w") == 4)
    }

    @Test func aServerThatNeverAnswersTimesOutAfterTheRetries() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.script(Self.entriesPath + "w", .hang)
        let started = ContinuousClock.now

        let outcomes = await Self.fetch(Self.client(server) { $0.retries = 1 }, ["w"])

        let url = server.url(Self.entriesPath + "w")
        #expect(
            Self.failure(outcomes[Self.key("w")])! == (
                "\(url): warning: no answer from the dictionary API for 'w' within 1 s (2 attempts) [api-unreachable]", true
            ))
        #expect(server.count(Self.entriesPath + "w") == 2)
        #expect(ContinuousClock.now - started < .seconds(30), "the server never answers: only the timeouts end this")
    }

    @Test func aRefusedConnectionIsRetriedThenReported() async throws {
        let url = try CurlTransportTests.closedPortURL()
        var configuration = DictionaryClient.Configuration(template: DictionaryURLTemplate(url.replacingOccurrences(of: "/en/word", with: "/{lang}/{word}"))!)
        configuration.backoffBase = 0.02
        let attempts = Counter()
        let client = DictionaryClient(
            configuration: configuration,
            makeTransport: { configuration, pacer in
                CountingTransport(base: DictionaryClient.curlTransport(configuration, pacer: pacer), counter: attempts)
            })

        let outcomes = await client.fetch([Self.key("word")], language: "en", progress: { _ in })

        #expect(
            Self.failure(outcomes[Self.key("word")])! == (
                "\(url): warning: can't connect to the dictionary API for 'word' (4 attempts) [api-unreachable]", true
            ))
        #expect(attempts.value == 4)
    }

    @Test func aTruncatedBodyIsRetriedThenReported() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.script(Self.entriesPath + "w", .truncated(declaredLength: 500, body: Data(#"[{"word":"w","#.utf8)))

        let outcomes = await Self.fetch(Self.client(server), ["w"])

        let url = server.url(Self.entriesPath + "w")
        #expect(
            Self.failure(outcomes[Self.key("w")])! == (
                "\(url): warning: the dictionary API's response for 'w' failed: transferred a partial file (4 attempts) [api-unreachable]", true
            ))
    }

    @Test func aTruncatedBodyThatRecoversIsFetched() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.script(Self.entriesPath + "w", .truncated(declaredLength: 500, body: Data("[".utf8)), .json(200, #"[{"word":"w"}]"#))

        let outcomes = await Self.fetch(Self.client(server), ["w"])

        #expect(Self.entry(outcomes[Self.key("w")]) != nil)
    }

    @Test(arguments: [
        ("<html>Service unavailable</html>", "is not valid JSON"),
        (#"[{"word":"w","#, "is not valid JSON"),
        (#"{"word":"w"}"#, "does not have the expected shape (expected a non-empty array of entries)"),
        ("[]", "does not have the expected shape (expected a non-empty array of entries)"),
        (#"[{"meanings":[]}]"#, "does not have the expected shape (missing 'word' at [0])"),
    ])
    func aBodyThatIsNotAnAnswerIsAnErrorAndNotRetried(body: String, problem: String) async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.script(Self.entriesPath + "w", .json(200, body))

        let outcomes = await Self.fetch(Self.client(server), ["w"])

        let url = server.url(Self.entriesPath + "w")
        #expect(Self.failure(outcomes[Self.key("w")])! == ("\(url): error: response for 'w' \(problem) [bad-response]", false))
        #expect(server.count(Self.entriesPath + "w") == 1)
    }

    @Test func anHTMLNotFoundPageIsNotANegativeEntry() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.script(Self.entriesPath + "w", .respond(status: 404, body: Data("<h1>Not Found</h1>".utf8)))

        let outcomes = await Self.fetch(Self.client(server), ["w"])

        let url = server.url(Self.entriesPath + "w")
        #expect(Self.failure(outcomes[Self.key("w")])! == ("\(url): error: response for 'w' is not valid JSON [bad-response]", false))
    }

    @Test func anOversizedBodyIsAnError() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let huge = "[" + String(repeating: #"{"word":"w"},"#, count: 200_000) + #"{"word":"w"}]"#
        server.script(Self.entriesPath + "w", .json(200, huge))
        server.script(Self.entriesPath + "v", .closeDelimited(body: Data(huge.utf8)))

        let outcomes = await Self.fetch(Self.client(server), ["w", "v"])

        for word in ["w", "v"] {
            let url = server.url(Self.entriesPath + word)
            #expect(Self.failure(outcomes[Self.key(word)])! == ("\(url): error: response for '\(word)' is larger than 2 MiB [bad-response]", false))
        }
    }

    @Test func anUnexpectedStatusIsAnError() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.script(Self.entriesPath + "w", .json(403, #"{"title":"Forbidden"}"#))

        let outcomes = await Self.fetch(Self.client(server), ["w"])

        let url = server.url(Self.entriesPath + "w")
        #expect(Self.failure(outcomes[Self.key("w")])! == ("\(url): error: unexpected HTTP 403 from the dictionary API for 'w' [bad-response]", false))
        #expect(server.count(Self.entriesPath + "w") == 1)
    }

    // MARK: Pace

    @Test(arguments: [1, 4, 16])
    func keepsTheConfiguredNumberOfRequestsInFlight(concurrency: Int) async throws {
        let server = try LoopbackServer { _ in .json(200, #"[{"word":"w"}]"#, delay: 0.05) }
        defer { server.stop() }
        let words = (0..<(concurrency * 4)).map { "word\($0)" }

        let outcomes = await Self.fetch(Self.client(server, concurrency: concurrency), words)

        #expect(outcomes.count == words.count)
        #expect(server.maxInFlight == concurrency)
    }

    @Test func neverSendsFasterThanTheRateLimit() async throws {
        let server = try LoopbackServer { _ in .json(200, #"[{"word":"w"}]"#) }
        defer { server.stop() }
        let started = ContinuousClock.now

        let outcomes = await Self.fetch(
            Self.client(server, concurrency: 8) {
                $0.rateLimitRequests = 5
                $0.rateLimitWindow = 1
            }, (0..<12).map { "w\($0)" })

        #expect(outcomes.count == 12)
        // 12 requests at 5 per second: the sixth waits a second, the eleventh two.
        #expect(ContinuousClock.now - started >= .milliseconds(2000))
        // As the server saw them: the first requests also paid for connecting, so allow that much skew.
        let arrived = server.requests.map(\.receivedAt).sorted()
        for index in 5..<arrived.count {
            #expect(arrived[index] - arrived[index - 5] >= .milliseconds(950), "request \(index) came too soon after \(index - 5)")
        }
    }

    @Test func reportsProgressUpToTheTotal() async throws {
        let server = try LoopbackServer { request in
            request.path.hasSuffix("bad") ? .json(200, "not json") : .json(200, #"[{"word":"w"}]"#)
        }
        defer { server.stop() }
        let reports = Mutex<[FetchProgress]>([])

        _ = await Self.client(server).fetch(["a", "b", "bad", "c"].map(Self.key), language: "en") { progress in
            reports.withLock { $0.append(progress) }
        }

        let all = reports.withLock { $0 }
        #expect(all.first.map { [$0.done, $0.total, $0.failed] } == [0, 4, 0])
        #expect(all.last.map { [$0.done, $0.total, $0.failed] } == [4, 4, 1])
        #expect(all.last.map { $0.requestsPerSecond > 0 } == true)
        #expect(zip(all, all.dropFirst()).allSatisfy { $0.done <= $1.done })
    }

    @Test func fetchingNothingMakesNoRequestAndNoTransport() async throws {
        let made = Counter()
        let configuration = DictionaryClient.Configuration(template: DictionaryURLTemplate("http://127.0.0.1:9/{word}")!)
        let client = DictionaryClient(
            configuration: configuration,
            makeTransport: { configuration, pacer in
                made.increment()
                return DictionaryClient.curlTransport(configuration, pacer: pacer)
            })

        #expect(await client.fetch([], language: "en", progress: { _ in }).isEmpty)
        #expect(made.value == 0)
    }
}

/// A count shared between a test and the transports it makes.
final class Counter: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}

/// Counts the attempts a client makes through a real transport.
struct CountingTransport: HTTPTransport {
    let base: any HTTPTransport
    let counter: Counter

    func get(_ url: String) async -> Result<HTTPResponse, TransportFailure> {
        counter.increment()
        return await base.get(url)
    }
}
