import Foundation
import TestSupport
import Testing

/// `glossary serve` as a user runs it: the real binary, its output, its exit.
@Suite struct ServeCommandTests {
    static let binary = GlossaryBinary.url

    /// A running `glossary serve`, its output collected as it comes. Every wait is on an event — output
    /// arriving, a pipe reaching its end, the process exiting — with a deadline.
    final class Child: @unchecked Sendable {
        let process = Subprocess()
        private let condition = NSCondition()
        private var out = ""
        private var err = ""
        private var openPipes = 2
        private var exited = false

        init(_ arguments: [String], in folder: URL, environment extra: [String: String] = [:], executable: URL = ServeCommandTests.binary) throws {
            process.executableURL = executable
            process.arguments = arguments
            process.currentDirectoryURL = folder
            process.environment = GlossaryBinary.environment(extra)
            let outPipe = Pipe()
            let errPipe = Pipe()
            process.standardOutput = outPipe
            process.standardError = errPipe
            process.terminationHandler = { [self] _ in
                condition.withLock {
                    exited = true
                    condition.broadcast()
                }
            }
            try process.run()
            // A thread per pipe reading until end of file: Foundation's readabilityHandler may miss the end
            // on Linux (swift-corelibs-foundation#3275).
            for (pipe, isError) in [(outPipe, false), (errPipe, true)] {
                let descriptor = pipe.fileHandleForReading.fileDescriptor
                Thread { [self] in drain(descriptor, isError: isError, keeping: pipe) }.start()
            }
        }

        private func drain(_ descriptor: Int32, isError: Bool, keeping pipe: Pipe) {
            var chunk = [UInt8](repeating: 0, count: 16384)
            while true {
                let count = read(descriptor, &chunk, chunk.count)
                if count < 0 && errno == EINTR { continue }
                let text = count > 0 ? String(decoding: chunk[..<count], as: UTF8.self) : nil
                condition.withLock {
                    if let text {
                        if isError { err += text } else { out += text }
                    } else {
                        openPipes -= 1
                    }
                    condition.broadcast()
                }
                if text == nil { break }
            }
            withExtendedLifetime(pipe) {}
        }

        var stdout: String { condition.withLock { out } }
        var stderr: String { condition.withLock { err } }

        /// Waits until `done` holds for the state so far (checked at each change); false after `timeout`.
        private func wait(timeout: TimeInterval, until done: @escaping @Sendable (Child) -> Bool) async -> Bool {
            await blocking { self.waitBlocking(timeout: timeout, until: done) }
        }

        /// `wait` on the calling thread (`done` runs with the lock held: it reads the private state).
        private func waitBlocking(timeout: TimeInterval, until done: (Child) -> Bool) -> Bool {
            let deadline = Date(timeIntervalSinceNow: timeout)
            condition.lock()
            defer { condition.unlock() }
            while !done(self) {
                if !condition.wait(until: deadline) { return done(self) }
            }
            return true
        }

        /// Waits for the line announcing the address and returns the port in it.
        func waitForURL(timeout: TimeInterval = 30) async -> UInt16? {
            let pattern = #"http://127\.0\.0\.1:[0-9]+/"#
            guard await wait(timeout: timeout, until: { $0.out.range(of: pattern, options: .regularExpression) != nil || $0.exited }) else { return nil }
            let out = stdout
            guard let range = out.range(of: pattern, options: .regularExpression) else { return nil }
            return UInt16(out[range].dropFirst("http://127.0.0.1:".count).dropLast())
        }

        /// Waits until standard error holds `text`.
        func waitForStderr(_ text: String, timeout: TimeInterval = serverWait) async -> Bool {
            await blocking { self.waitForStderrBlocking(text, timeout: timeout) }
        }

        func waitForStderrBlocking(_ text: String, timeout: TimeInterval = serverWait) -> Bool {
            waitBlocking(timeout: timeout) { $0.err.contains(text) }
        }

        /// Waits for the exit and for both pipes to reach their end (so the output is all there); the exit
        /// status, or nil (and the process terminated) after `timeout`.
        func waitForExit(timeout: TimeInterval = serverWait) async -> Int32? {
            guard await wait(timeout: timeout, until: { $0.exited && $0.openPipes == 0 }) else {
                if process.isRunning { process.terminate() }
                return nil
            }
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
        // Written before the address, but on the other pipe: it may be read later.
        #expect(await child.waitForStderr("Built 2 pages, 2 terms"))

        // An open event stream and a keep-alive connection must not keep it from stopping.
        let events = try EventStreamClient(port: port)
        #expect(await events.next("hello") != nil)
        let idle = try RawHTTPClient(port: port)
        #expect(try idle.request("GET", "/").status == 200)
        try site.replace("content/index.md", "---\ntitle: Home\n---\nEdited.\n")
        #expect(await events.next("build") != nil)
        try site.replace("content/index.md", "---\ntitle: [oops\n---\nEdited.\n")
        #expect(await events.next("failed") != nil)
        // The browsers hear of a build before the terminal does: wait for the line.
        #expect(await child.waitForStderr("Build failed after content/index.md changed"))
        #expect(child.stderr.contains("Rebuilt after content/index.md changed in "))
        // The home page, the term page that listed it, the two exports that list each term's pages, the site search's
        // vocabulary and postings (the page's words changed), and llms-full.txt (which holds the page's text).
        #expect(child.stderr.contains(": 7 files changed\n"))
        #expect(child.stderr.contains("content/index.md:3:1: error: "))
        #expect(child.stderr.contains("Build failed after content/index.md changed: 1 error; still serving the last good build\n"))

        kill(child.process.processIdentifier, signal)
        #expect(await child.waitForExit() == 0)
        #expect(child.stderr.contains(signal == SIGINT ? "Interrupted; stopping the server." : "Terminated; stopping the server."))
        // Whatever the stream still held is read; then it ends.
        for _ in 0..<10 where await events.next(timeout: 2) != nil {}
        #expect(events.isEnded)
        #expect(await idle.closedByServer())
        // No trace: nothing written into the site (no site/ folder, no temporary files).
        #expect(Self.tree(site.root) == before)
    }

    /// Whether the process holds an inotify instance (Linux shows it as a descriptor on `anon_inode:inotify`).
    static func holdsInotify(_ pid: Int32) -> Bool {
        let folder = "/proc/\(pid)/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\($0)")) == "anon_inode:inotify" }
    }

    @Test(arguments: [["--poll=50"], ["--poll"], []])
    func pollingIsUsedWhenAskedForAndOtherwiseInotify(extra: [String]) async throws {
        let site = try ServerTestSite()
        let child = try Child(["serve", "--offline", "--port", "0"] + extra, in: site.root)
        let port = try #require(await child.waitForURL(), "\(child.stderr)")
        #expect(Self.holdsInotify(child.process.processIdentifier) == extra.isEmpty)
        let events = try EventStreamClient(port: port)
        #expect(await events.next("hello") != nil)
        try site.replace("content/index.md", "---\ntitle: Home\n---\nPolled.\n")
        #expect(await events.next("build") != nil)
        #expect(try RawHTTPClient.get(port, "/").text.contains("Polled."))
        #expect(await child.waitForStderr("Rebuilt after content/index.md changed"))
        #expect(!child.stderr.contains("watch-polling"))
        kill(child.process.processIdentifier, SIGTERM)
        #expect(await child.waitForExit() == 0)
    }

    /// Whether this machine lets a process make a user namespace of its own, where the inotify limits
    /// (`/proc/sys/user/max_inotify_*`) can be lowered for it alone.
    static let canLowerInotifyLimits: Bool = {
        let probe = Subprocess()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        probe.arguments = ["-U", "-r", "sh", "-c", "echo 3 > /proc/sys/user/max_inotify_watches"]
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()

    @Test(.enabled(if: canLowerInotifyLimits, "needs unprivileged user namespaces (unshare -U -r)"))
    func theKernelsWatchLimitMakesServePollAndSayOnce() async throws {
        let site = try ServerTestSite()
        // Three watches: the site's folder, content/ and one more; the fourth folder is refused (ENOSPC).
        let script = "echo 3 > /proc/sys/user/max_inotify_watches && exec \"$0\" serve --offline --port 0"
        let child = try Child(
            ["-U", "-r", "sh", "-c", script, Self.binary.path], in: site.root, executable: URL(fileURLWithPath: "/usr/bin/unshare"))
        let port = try #require(await child.waitForURL(), "\(child.stderr)")
        let warning =
            "warning: can't watch files with inotify (inotify_add_watch content/guide: No space left on device — the system's limit on inotify watches (fs.inotify.max_user_watches) is reached); checking them for changes every 500 ms instead [watch-polling]\n"
        #expect(await child.waitForStderr(warning))
        let events = try EventStreamClient(port: port)
        #expect(await events.next("hello") != nil)
        try site.replace("content/guide/intro.md", "---\ntitle: Intro\n---\nPolled.\n")
        #expect(await events.next("build") != nil)
        try site.write("content/new/page.md", "New.\n")
        #expect(await events.next("build") != nil)
        #expect(try RawHTTPClient.get(port, "/new/page/").status == 200)
        #expect(child.stderr.components(separatedBy: "[watch-polling]").count == 2)
        kill(child.process.processIdentifier, SIGTERM)
        #expect(await child.waitForExit() == 0)
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

    /// libmicrohttpd is loaded when the server starts: one that can't be loaded (here a file that isn't a library,
    /// found first through `LD_LIBRARY_PATH`) is an error naming what the loader said, before any build.
    @Test func anUnloadableLibmicrohttpdIsAnErrorBeforeTheFirstBuild() async throws {
        let site = try ServerTestSite()
        let libraries = site.root.appendingPathComponent("lib")
        try FileManager.default.createDirectory(at: libraries, withIntermediateDirectories: true)
        try Data("not a library\n".utf8).write(to: libraries.appendingPathComponent("libmicrohttpd.so.12"))
        let child = try Child(["serve", "--offline", "--port", "0"], in: site.root, environment: ["LD_LIBRARY_PATH": libraries.path])
        #expect(await child.waitForExit() == 1)
        let reason = "error: can't start the server: libmicrohttpd can't be used: \(libraries.path)/libmicrohttpd.so.12: "
        #expect(child.stderr.hasPrefix(reason), "\(child.stderr)")
        #expect(!child.stderr.contains("Built"), "no build before the error: \(child.stderr)")
        #expect(child.stdout.isEmpty)
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
        (["serve", "--poll", "250"], "--poll takes its interval after '=': --poll=250"),
        (["serve", "--poll=fast"], "--poll must be a whole number from 50 to 60000, not 'fast'"),
        (["serve", "--poll=10"], "--poll must be a whole number from 50 to 60000, not '10'"),
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
        for option in ["--source", "--host", "--port", "--poll[=MS]", "--offline", "--api-url"] {
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
        try site.replace("content/words.md", "A [[keyboard]] and a [[mouse]].\n")
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
    /// thread of its own: a test task may resume late when the machine is busy, the signal must not. Each
    /// signal after the first waits for the first to be acknowledged: two at once may be taken as one.
    static func signalWhileFetching(_ api: LoopbackServer, _ child: Child, _ signals: [Int32]) async -> Bool {
        let pid = child.process.processIdentifier
        return await blocking {
            // The fake dictionary has no event to wait on: look every 10 ms, for at most 10 s.
            for _ in 0..<1000 where api.requests.isEmpty { usleep(10_000) }
            guard !api.requests.isEmpty else { return false }
            kill(pid, signals[0])
            for signal in signals.dropFirst() {
                guard child.waitForStderrBlocking("Stopping once the build in progress is done") else { return false }
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
        #expect(await child.waitForStderr("Build failed: 1 error; pages show them until a build succeeds"))
        #expect(child.stderr.contains("content/index.md:3:1: error: "))
        #expect(try RawHTTPClient.get(port, "/").status == 503)
        kill(child.process.processIdentifier, SIGTERM)
        #expect(await child.waitForExit() == 0)
    }
}
