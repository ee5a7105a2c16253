import Foundation
import TestSupport
import Testing

/// `glossary serve` as a user runs it: the real binary, its output, its exit.
@Suite struct ServeCommandTests {
    static let binary = GlossaryBinary.url

    /// A running `glossary serve`, its output collected as it comes.
    final class Child: @unchecked Sendable {
        let process = Process()
        private let lock = NSLock()
        private var out = ""
        private var err = ""

        init(_ arguments: [String], in folder: URL, environment extra: [String: String] = [:]) throws {
            process.executableURL = ServeCommandTests.binary
            process.arguments = arguments
            process.currentDirectoryURL = folder
            process.environment = GlossaryBinary.environment(extra)
            let outPipe = Pipe()
            let errPipe = Pipe()
            process.standardOutput = outPipe
            process.standardError = errPipe
            outPipe.fileHandleForReading.readabilityHandler = { [self] handle in
                let text = String(decoding: handle.availableData, as: UTF8.self)
                lock.withLock { out += text }
            }
            errPipe.fileHandleForReading.readabilityHandler = { [self] handle in
                let text = String(decoding: handle.availableData, as: UTF8.self)
                lock.withLock { err += text }
            }
            try process.run()
        }

        var stdout: String { lock.withLock { out } }
        var stderr: String { lock.withLock { err } }

        /// Waits for the line announcing the address and returns the port in it.
        func waitForURL(timeout: TimeInterval = 30) async -> UInt16? {
            await blocking { self.waitForURLBlocking(timeout: timeout) }
        }

        func waitForExit(timeout: TimeInterval = 20) async -> Int32? {
            await blocking { self.waitForExitBlocking(timeout: timeout) }
        }

        private func waitForURLBlocking(timeout: TimeInterval) -> UInt16? {
            let deadline = Date(timeIntervalSinceNow: timeout)
            while Date() < deadline && process.isRunning {
                if let range = stdout.range(of: #"http://127\.0\.0\.1:[0-9]+/"#, options: .regularExpression) {
                    return UInt16(stdout[range].dropFirst("http://127.0.0.1:".count).dropLast())
                }
                usleep(20_000)
            }
            return nil
        }

        private func waitForExitBlocking(timeout: TimeInterval) -> Int32? {
            let deadline = Date(timeIntervalSinceNow: timeout)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            if process.isRunning {
                process.terminate()
                return nil
            }
            usleep(50_000)  // let the pipes drain
            return process.terminationStatus
        }
    }

    /// Every path below `folder`, relative to it.
    static func tree(_ folder: URL) -> [String] {
        (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).sorted()
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func aSignalStopsTheServerCleanly(signal: Int32) async throws {
        let site = try ServerTestSite()
        let before = Self.tree(site.root)
        let child = try Child(["serve", "--offline", "--port", "0"], in: site.root)
        let port = try #require(await child.waitForURL(), "\(child.stderr)")
        #expect(child.stdout.hasPrefix("Serving Test Glossary at http://127.0.0.1:\(port)/ (Ctrl-C to stop)"))
        #expect(child.stderr.contains("Built 2 pages, 2 terms"))

        // An open event stream and a keep-alive connection must not keep it from stopping.
        let events = try EventStreamClient(port: port)
        #expect(await events.next("hello") != nil)
        let idle = try RawHTTPClient(port: port)
        #expect(try idle.request("GET", "/").status == 200)
        try site.write("content/index.md", "---\ntitle: Home\n---\nEdited.\n")
        #expect(await events.next("build", timeout: 20) != nil)
        try site.write("content/index.md", "---\ntitle: [oops\n---\nEdited.\n")
        #expect(await events.next("failed", timeout: 20) != nil)
        try await Task.sleep(for: .milliseconds(100))
        #expect(child.stderr.contains("Rebuilt after content/index.md changed in "))
        #expect(child.stderr.contains(": 2 files changed\n"))  // the home page, and the term page that listed it
        #expect(child.stderr.contains("content/index.md:3:1: error: "))
        #expect(child.stderr.contains("Build failed after content/index.md changed: 1 error; still serving the last good build\n"))

        kill(child.process.processIdentifier, signal)
        #expect(await child.waitForExit() == 0)
        #expect(child.stderr.contains(signal == SIGINT ? "Interrupted; stopping the server." : "Terminated; stopping the server."))
        #expect(await events.next(timeout: 2) == nil)
        #expect(events.isEnded)
        #expect(await idle.closedByServer())
        // No trace: nothing written into the site (no site/ folder, no temporary files).
        #expect(Self.tree(site.root) == before)
    }

    @Test func aBusyPortIsAnErrorThatNamesIt() async throws {
        let site = try ServerTestSite()
        let first = try Child(["serve", "--offline", "--port", "0"], in: site.root)
        let port = try #require(await first.waitForURL())
        let second = try Child(["serve", "--offline", "--port", String(port)], in: site.root)
        #expect(await second.waitForExit() == 1)
        #expect(second.stderr.contains("error: 127.0.0.1:\(port) is already in use"))
        #expect(second.stderr.contains("--port"))
        #expect(second.stdout.isEmpty)
        kill(first.process.processIdentifier, SIGTERM)
        let status = await first.waitForExit()
        #expect(status == 0, "exit \(String(describing: status)); stderr: \(first.stderr)")
    }

    @Test func aNonLoopbackAddressIsWarnedAbout() async throws {
        let site = try ServerTestSite()
        // 192.0.2.1 (TEST-NET-1) is not this machine's: the warning comes first, then the bind fails.
        let child = try Child(["serve", "--offline", "--host", "192.0.2.1", "--port", "0"], in: site.root)
        #expect(await child.waitForExit() == 1)
        #expect(child.stderr.contains("warning: listening on 192.0.2.1:0, which other machines can reach"))
        #expect(child.stderr.contains("error: can't listen on 192.0.2.1:0: Cannot assign requested address"))
    }

    @Test(arguments: [
        (["serve", "--port", "70000"], "--port must be a whole number from 0 to 65535"),
        (["serve", "--host", "example.com"], "--host must be an IP address or localhost"),
        (["serve", "extra"], "unexpected argument 'extra'"),
        (["serve", "--output", "x"], "unknown option '--output'"),
    ])
    func usageMistakesExit64(arguments: [String], message: String) async throws {
        let site = try ServerTestSite()
        let child = try Child(arguments, in: site.root)
        #expect(await child.waitForExit() == 64)
        #expect(child.stderr.contains(message))
    }

    @Test func helpDescribesEveryOption() async throws {
        let site = try ServerTestSite()
        let child = try Child(["serve", "--help"], in: site.root)
        #expect(await child.waitForExit() == 0)
        for option in ["--source", "--host", "--port", "--offline", "--api-url"] {
            #expect(child.stdout.contains(option))
        }
    }

    @Test func withoutASiteThereIsNothingToServe() async throws {
        let site = try ServerTestSite()
        try site.remove("glossary.yml")
        let child = try Child(["serve", "--offline", "--port", "0"], in: site.root)
        #expect(await child.waitForExit() == 1)
        #expect(child.stderr.contains("no glossary.yml"))
    }

    @Test func buildNeverInjectsTheLiveReloadScript() async throws {
        let site = try ServerTestSite()
        let child = try Child(["build", "--offline"], in: site.root)
        #expect(await child.waitForExit() == 0)
        let page = try String(contentsOf: site.url("site/guide/intro/index.html"), encoding: .utf8)
        #expect(!page.contains("glossary-live-reload"))
        #expect(!page.contains("_glossary/events"))
    }

    @Test func termsFetchedWhileServingLandInTheCache() async throws {
        let api = try LoopbackServer { request in
            let word = String(request.path.split(separator: "/").last ?? "").removingPercentEncoding ?? ""
            return .json(200, #"[{"word":"\#(word)","meanings":[{"partOfSpeech":"noun","definitions":[{"definition":"Fetched meaning of \#(word)."}]}]}]"#)
        }
        defer { api.stop() }
        let site = try ServerTestSite(ServerTestSite.basic + "\n-- content/words.md --\nA [[keyboard]].\n")
        let child = try Child(["serve", "--port", "0"], in: site.root, environment: ["GLOSSARY_API_URL": api.url("/api/v2/entries/{lang}/{word}")])
        let port = try #require(await child.waitForURL(), "\(child.stderr)")
        #expect(api.requestPaths == ["/api/v2/entries/en/keyboard"])
        #expect(FileManager.default.fileExists(atPath: site.url(".glossary/cache/en/keyboard.json").path))

        let events = try EventStreamClient(port: port)
        #expect(await events.next("hello") != nil)
        try site.write("content/words.md", "A [[keyboard]] and a [[mouse]].\n")
        #expect(await events.next("build") != nil)
        // Only the new word is fetched; it is cached exactly as `glossary build` caches it.
        #expect(api.requestPaths == ["/api/v2/entries/en/keyboard", "/api/v2/entries/en/mouse"])
        let cached = try String(contentsOf: site.url(".glossary/cache/en/mouse.json"), encoding: .utf8)
        #expect(cached.contains("Fetched meaning of mouse."))
        #expect(try RawHTTPClient.get(port, "/terms/mouse/").status == 200)
        #expect(try RawHTTPClient.get(port, "/words/").text.contains("mouse: Fetched meaning of mouse."))
        kill(child.process.processIdentifier, SIGTERM)
        #expect(await child.waitForExit() == 0)
    }

    /// A site whose first build waits 4 s on a slow dictionary, so a signal can arrive during it.
    static func slowFirstBuild() throws -> (ServerTestSite, LoopbackServer) {
        let api = try LoopbackServer { _ in .json(200, #"[{"word":"slow","meanings":[]}]"#, delay: 4) }
        let site = try ServerTestSite(ServerTestSite.basic + "\n-- content/slow.md --\nA [[slowword]].\n")
        return (site, api)
    }

    /// Sends `signals` as soon as the first build is fetching (the slow dictionary has the request), from a
    /// thread of its own: a test task may resume late when the machine is busy, the signal must not.
    static func signalWhileFetching(_ api: LoopbackServer, _ child: Child, _ signals: [Int32]) async -> Bool {
        let pid = child.process.processIdentifier
        return await blocking {
            for _ in 0..<1000 where api.requests.isEmpty { usleep(10_000) }
            guard !api.requests.isEmpty else { return false }
            for (index, signal) in signals.enumerated() {
                if index > 0 { usleep(200_000) }
                kill(pid, signal)
            }
            return true
        }
    }

    @Test func aSignalDuringTheFirstBuildStopsOnceItIsDone() async throws {
        let (site, api) = try Self.slowFirstBuild()
        defer { api.stop() }
        let child = try Child(["serve", "--port", "0"], in: site.root, environment: ["GLOSSARY_API_URL": api.url("/{lang}/{word}")])
        #expect(await Self.signalWhileFetching(api, child, [SIGTERM]))
        #expect(await child.waitForExit() == 0)
        #expect(child.stderr.contains("Stopping once the build in progress is done (again to quit now)."))
        #expect(!child.stdout.contains("Serving"))
    }

    @Test func aSecondSignalQuitsAtOnce() async throws {
        let (site, api) = try Self.slowFirstBuild()
        defer { api.stop() }
        let child = try Child(["serve", "--port", "0"], in: site.root, environment: ["GLOSSARY_API_URL": api.url("/{lang}/{word}")])
        #expect(await Self.signalWhileFetching(api, child, [SIGINT, SIGINT]))
        #expect(await child.waitForExit() == 130)
        #expect(!child.stdout.contains("Serving"))  // it did not wait for the 4 s fetch
        #expect(child.stderr.contains("Quitting now."))
    }

    @Test func aFirstBuildThatFailsStillServesAndSaysSo() async throws {
        let site = try ServerTestSite()
        try site.write("content/index.md", "---\ntitle: [broken\n---\nx\n")
        let child = try Child(["serve", "--offline", "--port", "0"], in: site.root)
        let port = try #require(await child.waitForURL())
        #expect(child.stderr.contains("content/index.md:3:1: error: "))
        #expect(child.stderr.contains("Build failed: 1 error; pages show them until a build succeeds"))
        #expect(try RawHTTPClient.get(port, "/").status == 503)
        kill(child.process.processIdentifier, SIGTERM)
        #expect(await child.waitForExit() == 0)
    }
}
