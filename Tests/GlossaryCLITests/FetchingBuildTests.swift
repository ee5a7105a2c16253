import Foundation
import GlossaryKit
import Synchronization
import TestSupport
import Testing

@testable import GlossaryCLI

/// End to end: the real `glossary` binary fetching from a real server on 127.0.0.1, counted request by request.
@Suite struct FetchingBuildTests {
    static let site = """
        -- glossary.yml --
        title: Fetching
        dictionary:
          concurrency: 4
          timeout_seconds: 2
        -- content/index.md --
        # Words

        [[Keyboard]], [[keyboard]] and [[KEYBOARD]]; [[café]] and [[cafe\u{301}]]; [[ice cream]], [[don't]], [[zzqx]].
        -- content/more.md --
        More [[keys|keyboard]] and [[Kerning]].
        -- content/glossary/kerning.md --
        ---
        term: Kerning
        ---
        Our own definition, never fetched.
        """

    static let paths = ["caf%C3%A9", "don%27t", "ice%20cream", "keyboard", "zzqx"].map { "/api/v2/entries/en/" + $0 }

    /// Answers like the real API: a small entry for every word, "No Definitions Found" for `zzqx`.
    static func dictionaryServer(delay: Double = 0) throws -> LoopbackServer {
        try LoopbackServer(fallback: dictionaryReply(delay: delay))
    }

    static func dictionaryReply(delay: Double = 0) -> @Sendable (LoopbackServer.Request) -> LoopbackServer.Reply {
        { request in
            let word = String(request.path.split(separator: "/").last ?? "").removingPercentEncoding ?? ""
            if word == "zzqx" {
                return .json(
                    404,
                    #"{"title":"No Definitions Found","message":"Sorry pal, we couldn't find definitions for the word you were looking for.","resolution":"You can try the search again at later time or head to the web instead."}"#,
                    delay: delay)
            }
            let escaped = word.replacingOccurrences(of: "\"", with: "\\\"")
            return .json(
                200, #"[{"word":"\#(escaped)","meanings":[{"partOfSpeech":"noun","definitions":[{"definition":"The meaning of \#(escaped)."}]}]}]"#,
                delay: delay)
        }
    }

    static func api(_ server: LoopbackServer) -> [String: String] {
        ["GLOSSARY_API_URL": server.url("/api/v2/entries/{lang}/{word}")]
    }

    @Test func fetchesEachDistinctTermOnceThenServesItFromTheCache() async throws {
        let site = try TestSite(Self.site)
        defer { site.remove() }
        let server = try Self.dictionaryServer()
        defer { server.stop() }

        let first = try await site.run(["build"], environment: Self.api(server))
        #expect(first.status == 0, "\(first.stderr)")
        #expect(server.requestPaths.sorted() == Self.paths)
        #expect(first.diagnostics == ["content/index.md:3:96: warning: no definition found for 'zzqx' [unknown-term]"])
        #expect(first.stderr.contains("(1 local, 0 cached, 4 fetched, 0 from WordNet), 1 unresolved"), "\(first.stderr)")
        // Not a terminal: no live line, but one line as fetching starts and one as it ends.
        let host = "127.0.0.1:\(server.port)"
        #expect(!first.stderr.contains("Fetching definitions:"), "no live progress line when stderr is not a terminal")
        #expect(first.stderr.hasPrefix("Fetching 5 definitions from \(host)…\nFetched 5 of 5 definitions from \(host)\n"), "\(first.stderr)")
        #expect(site.files(under: ".glossary/cache") == ["café", "don't", "ice cream", "keyboard", "zzqx"].map { "en/\(TermKey($0)!.slug).json" }.sorted())
        #expect(try #require(site.read("site/terms/keyboard/index.html")).contains("The meaning of keyboard."))

        server.resetCounters()
        let second = try await site.run(["build"], environment: Self.api(server))
        #expect(second.status == 0)
        #expect(server.requests.isEmpty, "a second build asks nothing: \(server.requestPaths)")
        #expect(second.stderr.contains("(1 local, 4 cached, 0 fetched, 0 from WordNet), 1 unresolved"), "\(second.stderr)")
        #expect(!second.stderr.contains("Fetch"), "nothing to fetch, nothing said about it")

        let connections = server.connectionCount
        let offline = try await site.run(["build", "--offline"], environment: Self.api(server))
        #expect(offline.status == 0)
        #expect(server.requests.isEmpty)
        #expect(server.connectionCount == connections, "--offline never opens a connection")

        let refreshed = try await site.run(["build", "--refresh"], environment: Self.api(server))
        #expect(refreshed.status == 0)
        #expect(server.requestPaths.sorted() == Self.paths)
        #expect(refreshed.stderr.contains("(1 local, 0 cached, 4 fetched, 0 from WordNet)"), "\(refreshed.stderr)")
    }

    /// libcurl (and the TLS, LDAP and Kerberos libraries it brings) is loaded by a build that fetches, and by no other;
    /// libmicrohttpd by none: the dynamic loader's own account (`LD_DEBUG=files`) names each library it maps.
    @Test func libcurlIsLoadedOnlyByABuildThatFetches() async throws {
        let site = try TestSite(Self.site)
        defer { site.remove() }
        let server = try Self.dictionaryServer()
        defer { server.stop() }
        var environment = Self.api(server)
        environment["LD_DEBUG"] = "files"

        let fetching = try await site.run(["build"], environment: environment)
        #expect(fetching.status == 0, "\(fetching.stderr)")
        #expect(server.requestPaths.sorted() == Self.paths)
        #expect(fetching.stderr.contains("file=libcurl.so.4"), "the loader's account shows libcurl when it is loaded")
        #expect(!fetching.stderr.contains("libmicrohttpd"), "no server: libmicrohttpd is not loaded")
        let cached = try await site.run(["build"], environment: environment)
        #expect(cached.status == 0, "\(cached.stderr)")
        #expect(cached.stderr.contains("file=libc.so.6"), "the loader's account is there")
        #expect(!cached.stderr.contains("libcurl"), "nothing to fetch: libcurl is not loaded")
        #expect(!cached.stderr.contains("libssl"))
        #expect(!cached.stderr.contains("libmicrohttpd"))
        #expect(!cached.stderr.contains("libgnutls"), "GnuTLS comes with libcurl (through librtmp) and libmicrohttpd, and neither is loaded")
        let offline = try await site.run(["build", "--offline"], environment: environment)
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(!offline.stderr.contains("libcurl"), "--offline: libcurl is not loaded")
    }

    /// A `libcurl.so.4` that can't be loaded (here a file that isn't a library, found first through
    /// `LD_LIBRARY_PATH`) stops the fetching at once, reported once with what the loader said, as an API that can't be
    /// reached is (no word retried, no warning a word); the build goes on without those words, nothing reaches the
    /// server, nothing is cached, and `--version` says libcurl isn't loaded.
    @Test func withoutALoadableLibcurlFetchesFailWithTheLoadersReason() async throws {
        let site = try TestSite(Self.site)
        defer { site.remove() }
        let server = try Self.dictionaryServer()
        defer { server.stop() }
        let libraries = site.root.appendingPathComponent("lib")
        try FileManager.default.createDirectory(at: libraries, withIntermediateDirectories: true)
        try Data("not a library\n".utf8).write(to: libraries.appendingPathComponent("libcurl.so.4"))
        var environment = Self.api(server)
        environment["LD_LIBRARY_PATH"] = libraries.path

        let build = try await site.run(["build"], environment: environment)

        #expect(build.status == 0, "\(build.stderr)")
        #expect(server.requestPaths.isEmpty)
        let unavailable = "libcurl can't be used: \(libraries.path)/libcurl.so.4: "
        let failed = build.diagnostics.filter { $0.contains("[api-unreachable]") }
        #expect(failed.count == 1, "\(build.stderr)")
        let host = "127.0.0.1:\(server.port)"
        #expect(failed.first?.hasPrefix("http://\(host): warning: can't send requests to the dictionary API at \(host): \(unavailable)") == true, "\(failed)")
        #expect(failed.first?.hasSuffix("; stopped asking it, so 5 words were not looked up there [api-unreachable]") == true, "\(failed)")
        #expect(build.diagnostics.contains { $0.contains("no definition found for 'zzqx' (the dictionary could not be reached)") }, "\(build.stderr)")
        #expect(build.stderr.contains("0 fetched"), "\(build.stderr)")
        #expect(site.exists("site/index.html"))
        #expect(!site.exists(".glossary/cache/en/keyboard.json"))
        #expect(!site.exists(".glossary/cache/en/zzqx.json"))

        let version = try await site.run(["--version"], environment: environment)
        #expect(version.status == 0)
        #expect(version.stdout.contains("libcurl not loaded (\(unavailable)"), "\(version.stdout)")
    }

    @Test func theCommandLineURLOverridesTheEnvironmentAndTheConfig() async throws {
        let site = try TestSite(Self.site)
        defer { site.remove() }
        let server = try Self.dictionaryServer()
        defer { server.stop() }

        let result = try await site.run(["build", "--api-url", server.url("/v9/{lang}/{word}")], environment: Self.api(server))

        #expect(result.status == 0, "\(result.stderr)")
        #expect(server.requestPaths.sorted() == Self.paths.map { $0.replacingOccurrences(of: "/api/v2/entries/", with: "/v9/") })
    }

    @Test func strictWithTheAPIUnreachableAndNothingCachedExits69() async throws {
        let site = try TestSite(
            """
            -- content/index.md --
            A [[zzqx]].
            """)
        defer { site.remove() }
        let closed = try CurlTransportTestsSupport.closedPort()
        let environment = ["GLOSSARY_API_URL": "http://127.0.0.1:\(closed)/api/v2/entries/{lang}/{word}"]

        let strict = try await site.run(["build", "--strict"], environment: environment)

        #expect(strict.status == 69, "\(strict.stderr)")
        #expect(
            strict.diagnostics == [
                "content/index.md:1:3: error: no definition found for 'zzqx' (the dictionary could not be reached) [unknown-term]",
                "http://127.0.0.1:\(closed)/api/v2/entries/en/zzqx: error: can't connect to the dictionary API for 'zzqx' (4 attempts) [api-unreachable]",
            ])
        #expect(!site.exists("site/index.html"))
    }

    /// The API unreachable, WordNet answers for what it knows; the rest is unresolved, and the build goes on.
    @Test func withoutStrictAnUnreachableAPILeavesWarningsAndBuilds() async throws {
        let site = try TestSite(
            """
            -- content/index.md --
            A [[keyboard]], a [[zzqx]].
            """)
        defer { site.remove() }
        let closed = try CurlTransportTestsSupport.closedPort()

        let result = try await site.run(["build", "--no-source-lines"], environment: ["GLOSSARY_API_URL": "http://127.0.0.1:\(closed)/{word}"])

        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.diagnostics == [
                "content/index.md:1:19: warning: no definition found for 'zzqx' (the dictionary could not be reached) [unknown-term]",
                "http://127.0.0.1:\(closed): warning: can't connect to the dictionary API at 127.0.0.1:\(closed) (5 attempts in a row failed); stopped asking it, so 2 words were not looked up there [api-unreachable]",
            ])
        #expect(result.stderr.contains("(0 local, 0 cached, 0 fetched, 1 from WordNet), 1 unresolved"), "\(result.stderr)")
        #expect(try #require(site.read("site/terms/keyboard/index.html")).contains("· WordNet entry"))
        #expect(site.files(under: ".glossary/cache").isEmpty)
    }

    /// A dead API fails fast: after 5 refused attempts in a row the build stops asking (200 uncached words are not
    /// each tried), and says so once.
    @Test func twoHundredWordsAgainstARefusedPortStopAfterFiveAttempts() async throws {
        let site = try TestSite(Self.manyWordsSite(count: 200))
        defer { site.remove() }
        let closed = try CurlTransportTestsSupport.closedPort()

        let result = try await site.run(["build", "--no-source-lines"], environment: ["GLOSSARY_API_URL": "http://127.0.0.1:\(closed)/{lang}/{word}"])

        #expect(result.status == 0, "\(result.stderr)")
        let words = Self.manyWords(count: 200)
        let unknown = words.enumerated().map { index, word in
            "content/index.md:1:\(1 + index * (word.count + 5)): warning: no definition found for '\(word)' (the dictionary could not be reached) [unknown-term]"
        }
        // One file's warnings of one code are capped: 20 shown, the last counting the rest.
        #expect(result.stderr.contains(unknown[19] + "\nnote: … and 180 more [unknown-term] in content/index.md, not shown\n"), "\(result.stderr)")
        #expect(
            result.diagnostics == unknown.prefix(20) + [
                "http://127.0.0.1:\(closed): warning: can't connect to the dictionary API at 127.0.0.1:\(closed) (5 attempts in a row failed); stopped asking it, so 200 words were not looked up there [api-unreachable]"
            ])
        let host = "127.0.0.1:\(closed)"
        #expect(result.stderr.hasPrefix("Fetching 200 definitions from \(host)…\nFetched 0 of 200 definitions from \(host) (200 failed)\n"))
    }

    /// An API that accepts connections and never answers fails fast too: the build stops asking after 5 timeouts in
    /// a row rather than waiting out 4 for each of 80 words, and says once how many words it gave up.
    @Test func eightyWordsAgainstAnAPIThatNeverAnswersStopAfterFiveTimeouts() async throws {
        let site = try TestSite("-- glossary.yml --\ntitle: T\ndictionary:\n  timeout_seconds: 1\n" + Self.manyWordsSite(count: 80))
        defer { site.remove() }
        let server = try LoopbackServer { _ in .hang }
        defer { server.stop() }

        let result = try await site.run(["build", "--no-source-lines"], environment: Self.api(server))

        #expect(result.status == 0, "\(result.stderr)")
        let host = "127.0.0.1:\(server.port)"
        #expect(
            result.diagnostics.last
                == "\(server.url("")): warning: no answer from the dictionary API at \(host) within 1 s (5 attempts in a row); stopped asking it, so 80 words were not looked up there [api-unreachable]",
            "\(result.stderr)")
        #expect(result.diagnostics.filter { $0.hasSuffix("[api-unreachable]") }.count == 1)
        #expect(result.stderr.hasPrefix("Fetching 80 definitions from \(host)…\nFetched 0 of 80 definitions from \(host) (80 failed)\n"))
        // The five timeouts that opened the breaker, and at most the rest of the window (8) that was under way then.
        #expect(server.requests.count <= 5 + 8, "\(server.requests.count) requests")
    }

    /// `Retry-After: 999999` is more than a build waits in all: the client stops at once and says so.
    @Test func aRetryAfterOfElevenDaysStopsTheFetchingAtOnce() async throws {
        let site = try TestSite(
            """
            -- glossary.yml --
            title: Patience
            dictionary:
              concurrency: 1
            -- content/index.md --
            [[zzqx]] [[qzzx]] [[xqzz]]
            """)
        defer { site.remove() }
        let server = try LoopbackServer { _ in .json(429, "{}", headers: ["Retry-After": "999999"]) }
        defer { server.stop() }

        let result = try await site.run(["build", "--no-source-lines"], environment: Self.api(server))

        // One request, and no waiting for the 999,999 seconds asked for.
        #expect(server.requests.count == 1)
        #expect(
            result.diagnostics == ["zzqx", "qzzx", "xqzz"].enumerated().map { index, word in
                "content/index.md:1:\(1 + index * 9): warning: no definition found for '\(word)' (the dictionary could not be reached) [unknown-term]"
            } + [
                "\(server.url("")): warning: the dictionary API at 127.0.0.1:\(server.port) asked to wait 999999 s (Retry-After), more than a build waits in all (60 s); stopped asking it, so 3 words were not looked up there [api-rate-limited]"
            ])
    }

    /// Values the client can't use are configuration errors, reported before anything is fetched.
    @Test(arguments: [
        ("1e300", "glossary.yml:3:20: error: 'timeout_seconds' must be more than 0 and at most 600 (seconds), found '1e300' [config-value]"),
        (".inf", "glossary.yml:3:20: error: 'timeout_seconds' must be a number, found '.inf' [config-type]"),
        ("-0", "glossary.yml:3:20: error: 'timeout_seconds' must be more than 0 and at most 600 (seconds), found '-0' [config-value]"),
        ("nan", "glossary.yml:3:20: error: 'timeout_seconds' must be a number, found 'nan' [config-type]"),
    ])
    func aTimeoutTheClientCantUseStopsTheBuildBeforeAnyRequest(value: String, expected: String) async throws {
        let site = try TestSite("-- glossary.yml --\ntitle: T\ndictionary:\n  timeout_seconds: \(value)\n-- content/index.md --\n[[keyboard]] and [[zzqx]]\n")
        defer { site.remove() }
        let server = try Self.dictionaryServer()
        defer { server.stop() }

        let result = try await site.run(["build", "--no-source-lines"], environment: Self.api(server))

        #expect(result.status == 1)
        #expect(result.stderr == expected + "\nBuild failed: 1 error; site/ left unchanged\n")
        #expect(server.requests.isEmpty && server.connectionCount == 0)
    }

    @Test func anUnusableAnswerIsNotCalledUnreachable() async throws {
        let site = try TestSite("-- content/index.md --\nA [[zzqx]].\n")
        defer { site.remove() }
        let server = try LoopbackServer { _ in .json(200, "<html>maintenance</html>") }
        defer { server.stop() }

        let result = try await site.run(["build", "--no-source-lines"], environment: Self.api(server))

        #expect(
            result.diagnostics == [
                "content/index.md:1:3: warning: no definition found for 'zzqx' (the dictionary's answer could not be used) [unknown-term]",
                "\(server.url("/api/v2/entries/en/zzqx")): error: response for 'zzqx' is not valid JSON [bad-response]",
            ])
    }

    @Test func aBadResponseIsAnErrorNamingTheWordAndURL() async throws {
        let site = try TestSite(
            """
            -- content/index.md --
            A [[keyboard]].
            """)
        defer { site.remove() }
        let server = try LoopbackServer { _ in .json(200, "<html>maintenance</html>") }
        defer { server.stop() }

        let result = try await site.run(["build"], environment: Self.api(server))

        #expect(result.status == 1)
        #expect(result.diagnostics.contains("\(server.url("/api/v2/entries/en/keyboard")): error: response for 'keyboard' is not valid JSON [bad-response]"))
        #expect(site.files(under: ".glossary/cache").isEmpty, "nothing is cached from a bad response")
    }

    @Test func twoBuildsAtOnceShareOneCacheSafely() async throws {
        let site = try TestSite(Self.manyWordsSite(count: 120))
        defer { site.remove() }
        let server = try Self.dictionaryServer(delay: 0.01)
        defer { server.stop() }

        let builds = try (0..<2).map { index in
            try BackgroundBuild(site: site, arguments: ["build", "--refresh", "--output", "out\(index)"], environment: Self.api(server))
        }
        var statuses: [Int32] = []
        for build in builds { statuses.append(await build.wait()) }

        #expect(statuses == [0, 0])
        let inventory = CacheInventory.scan(DefinitionCache(directory: site.root.appendingPathComponent(".glossary/cache")))
        #expect(inventory.items.count == 120)
        #expect(inventory.problems.isEmpty)
        #expect(inventory.leftovers.isEmpty)
    }

    @Test func aBuildKilledMidFetchLeavesOnlyWholeEntries() async throws {
        let site = try TestSite(Self.manyWordsSite(count: 300))
        defer { site.remove() }
        // The 100th request kills the build, from the server's own thread: mid-fetch, whatever the machine's load.
        let target = Mutex<(build: BackgroundBuild?, seen: Int)>((nil, 0))
        let answer = Self.dictionaryReply(delay: 0.05)
        let server = try LoopbackServer { request in
            target.withLock { state in
                state.seen += 1
                if state.seen == 100 { state.build?.kill() }
            }
            return answer(request)
        }
        defer { server.stop() }
        let cache = site.root.appendingPathComponent(".glossary/cache/en")

        let build = try BackgroundBuild(site: site, arguments: ["build"], environment: Self.api(server))
        target.withLock { $0.build = build }
        let status = await build.wait()
        #expect(status == -9 || status == 9)
        let fetchedBeforeKill = server.requests.count
        #expect(fetchedBeforeKill >= 100 && fetchedBeforeKill < 300)

        let inventory = CacheInventory.scan(DefinitionCache(directory: cache.deletingLastPathComponent()))
        #expect(inventory.items.count > 0, "entries are stored as they arrive, so a killed build keeps them")
        #expect(inventory.problems.isEmpty, "\(inventory.problems)")
        let verify = try await site.run(["cache", "verify"])
        #expect(verify.status == 0, "\(verify.stderr)")

        // The next build completes the job and asks only for what was not stored.
        server.resetCounters()
        let next = try await site.run(["build"], environment: Self.api(server))
        #expect(next.status == 0, "\(next.stderr)")
        #expect(server.requests.count == 300 - inventory.items.count)
        #expect(CacheInventory.scan(DefinitionCache(directory: cache.deletingLastPathComponent())).items.count == 300)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs script(1) for a pseudo-terminal"))
    func showsALiveProgressLineOnATerminalOnly() async throws {
        let site = try TestSite(Self.site)
        defer { site.remove() }
        let server = try Self.dictionaryServer()
        defer { server.stop() }

        let onTerminal = try await Self.runOnTerminal(site, ["build"], environment: Self.api(server))
        #expect(onTerminal.status == 0)
        #expect(onTerminal.stdout.contains("\r\u{1B}[2KFetching definitions: 0/5, 0.0 req/s"), "\(onTerminal.stdout.debugDescription)")
        #expect(onTerminal.stdout.contains("\r\u{1B}[2KFetching definitions: 5/5, "), "\(onTerminal.stdout.debugDescription)")

        let quiet = try await Self.runOnTerminal(site, ["build", "--quiet", "--refresh"], environment: Self.api(server))
        #expect(quiet.status == 0)
        #expect(server.requests.count == 10)
        #expect(!quiet.stdout.contains("Fetching definitions"), "\(quiet.stdout.debugDescription)")
    }

    /// A runaway reference (`[[` closed 100,000 characters later) is an error at its place, echoed shortened, and the
    /// dictionary is never asked for it; the other words still are.
    @Test func aTermLongerThanATermCanBeIsAnErrorAndNeverSent() async throws {
        let long = String(repeating: "ab", count: 50_000)
        let site = try TestSite("-- content/index.md --\nSee [[\(long)]] and [[keyboard]].\n")
        defer { site.remove() }
        try site.write("content/declared.md", "---\nterms: [\(String(repeating: "é", count: 201))]\n---\nHi.\n")
        let server = try Self.dictionaryServer()
        defer { server.stop() }

        let result = try await site.run(["build", "--no-source-lines"], environment: Self.api(server))
        #expect(result.status == 1)
        let shown = String(long.prefix(79)) + "…"
        #expect(
            result.diagnostics == [
                "content/declared.md:2:8: error: term '\(String(repeating: "é", count: 79))…' is 201 characters long, more than a term may have (200) [term-too-long]",
                "content/index.md:1:5: error: term '\(shown)' is 100000 characters long, more than a term may have (200) [term-too-long]",
            ])
        #expect(server.requestPaths == ["/api/v2/entries/en/keyboard"], "only the word of a sane length is asked for")
        #expect(result.stderr.utf8.count < 2_000, "the term is not echoed whole: \(result.stderr.utf8.count) bytes")
    }

    @Test func theProgressLineCountsFailuresAndRate() {
        let lines = Lines()
        let context = CommandContext(
            console: Console(out: { _ in }, err: { lines.append($0) }, errIsTerminal: true), environment: [:],
            currentDirectory: URL(fileURLWithPath: "/"), makeFetcher: { _, _ in nil })
        let printer = BuildCommand.progressPrinter(context: context, quiet: false)
        printer(FetchProgress(done: 3, total: 10, failed: 1, requestsPerSecond: 12.34))
        printer(FetchProgress(done: 10, total: 10, failed: 1, requestsPerSecond: 20))
        #expect(lines.all == ["\r\u{1B}[2KFetching definitions: 3/10, 1 failed, 12.3 req/s", "\r\u{1B}[2KFetching definitions: 10/10, 1 failed, 20.0 req/s\n"])

        let quiet = BuildCommand.progressPrinter(context: context, quiet: true)
        quiet(FetchProgress(done: 1, total: 1, failed: 0, requestsPerSecond: 1))
        #expect(lines.all.count == 2)
    }

    @Test func withoutATerminalFetchingIsAnnouncedOnceAtEachEnd() {
        let lines = Lines()
        let context = CommandContext(
            console: Console(out: { _ in }, err: { lines.append($0) }, errIsTerminal: false), environment: [:],
            currentDirectory: URL(fileURLWithPath: "/"), makeFetcher: { _, _ in nil })
        let printer = BuildCommand.progressPrinter(context: context, quiet: false)
        for done in 0...3 { printer(FetchProgress(done: done, total: 3, failed: done == 3 ? 1 : 0, requestsPerSecond: 5, host: "api.example")) }
        #expect(lines.all == ["Fetching 3 definitions from api.example…\n", "Fetched 2 of 3 definitions from api.example (1 failed)\n"])
        printer(FetchProgress(done: 0, total: 1, failed: 0, requestsPerSecond: 0, host: "api.example"))
        printer(FetchProgress(done: 1, total: 1, failed: 0, requestsPerSecond: 1, host: "api.example"))
        #expect(lines.all.suffix(2) == ["Fetching 1 definition from api.example…\n", "Fetched 1 of 1 definition from api.example\n"])
    }

    @Test func theDefaultFetcherFollowsTheConfiguration() async throws {
        var config = SiteConfig()
        config.dictionary.api = "https://example.org/{lang}/{word}"
        config.dictionary.concurrency = 16
        config.dictionary.rateLimit = RateLimit(requests: 10, windowSeconds: 60)
        config.dictionary.timeoutSeconds = 2.5
        let client = try #require(DefaultFetcher.make(config: config, options: BuildOptions(source: URL(fileURLWithPath: "/"))) as? DictionaryClient)
        #expect(client.configuration.template.template == "https://example.org/{lang}/{word}")
        #expect(client.configuration.concurrency == 16)
        #expect(client.configuration.rateLimitRequests == 10 && client.configuration.rateLimitWindow == 60)
        #expect(client.configuration.timeoutSeconds == 2.5)
        #expect(client.configuration.userAgent == "glossary/\(GlossaryVersion.current)")

        var offline = BuildOptions(source: URL(fileURLWithPath: "/"))
        offline.offline = true
        #expect(DefaultFetcher.make(config: config, options: offline) == nil)
    }

    /// A site referencing `count` distinct made-up words (`wurdaa`, `wurdab`, …: letters only, like real words).
    static func manyWordsSite(count: Int) -> String {
        "-- content/index.md --\n" + manyWords(count: count).map { "[[\($0)]]" }.joined(separator: " ") + "\n"
    }

    /// `wurdaa`, `wurdab`, …: words neither WordNet nor Morphy know (`words` would be a form of word).
    static func manyWords(count: Int) -> [String] {
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        return (0..<count).map { "wurd\(letters[$0 / 26 % 26])\(letters[$0 % 26])" }
    }

    /// Runs `glossary ARGS` under script(1), so its stdout and stderr are a pseudo-terminal; returns what it wrote.
    static func runOnTerminal(_ site: TestSite, _ arguments: [String], environment: [String: String]) async throws -> TestSite.Output {
        // script(1) hands the command to a shell: each word quoted, as a clone's path may hold spaces or quotes.
        let command = ([GlossaryBinary.url.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let process = Subprocess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", command, "/dev/null"]
        process.currentDirectoryURL = site.root
        process.environment = GlossaryBinary.environment(environment)
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return TestSite.Output(status: process.terminationStatus, stdout: String(decoding: data, as: UTF8.self), stderr: "")
    }
}

/// Lines a console printed, collected across threads.
final class Lines: @unchecked Sendable {
    private var lines: [String] = []
    private let lock = NSLock()
    var all: [String] { lock.withLock { lines } }
    func append(_ line: String) { lock.withLock { lines.append(line) } }
}

enum CurlTransportTestsSupport {
    /// A port nothing listens on: bind one, note its number, close it.
    static func closedPort() throws -> Int {
        try ClosedPort.make()
    }
}
