import Foundation
import Testing

/// `glossary serve` as a user runs it: the real binary, its output, its exit.
@Suite struct ServeCommandTests {
    static let binary: URL = {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [folder, folder.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent("glossary")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/debug/glossary")
    }()

    /// A running `glossary serve`, its output collected as it comes.
    final class Child: @unchecked Sendable {
        let process = Process()
        private let lock = NSLock()
        private var out = ""
        private var err = ""

        init(_ arguments: [String], in folder: URL) throws {
            process.executableURL = ServeCommandTests.binary
            process.arguments = arguments
            process.currentDirectoryURL = folder
            var environment = ProcessInfo.processInfo.environment
            environment["GLOSSARY_API_URL"] = "http://127.0.0.1:9/api/v2/entries/{lang}/{word}"
            process.environment = environment
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
        func waitForURL(timeout: TimeInterval = 20) -> UInt16? {
            let deadline = Date(timeIntervalSinceNow: timeout)
            while Date() < deadline && process.isRunning {
                if let range = stdout.range(of: #"http://127\.0\.0\.1:[0-9]+/"#, options: .regularExpression) {
                    return UInt16(stdout[range].dropFirst("http://127.0.0.1:".count).dropLast())
                }
                usleep(20_000)
            }
            return nil
        }

        func waitForExit(timeout: TimeInterval = 10) -> Int32? {
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
        let port = try #require(child.waitForURL(), "\(child.stderr)")
        #expect(child.stdout.hasPrefix("Serving Test Glossary at http://127.0.0.1:\(port)/ (Ctrl-C to stop)"))
        #expect(child.stderr.contains("Built 2 pages, 2 terms"))

        // An open event stream and a keep-alive connection must not keep it from stopping.
        let events = try EventStreamClient(port: port)
        #expect(events.next("hello") != nil)
        let idle = try RawHTTPClient(port: port)
        #expect(try idle.request("GET", "/").status == 200)
        try site.write("content/index.md", "---\ntitle: Home\n---\nEdited.\n")
        #expect(events.next("build", timeout: 5) != nil)

        kill(child.process.processIdentifier, signal)
        #expect(child.waitForExit() == 0)
        #expect(child.stderr.contains(signal == SIGINT ? "Interrupted; stopping the server." : "Terminated; stopping the server."))
        #expect(events.next(timeout: 2) == nil)
        #expect(events.isEnded)
        #expect(idle.isClosedByServer())
        // No trace: nothing written into the site (no site/ folder, no temporary files).
        #expect(Self.tree(site.root) == before)
    }

    @Test func aBusyPortIsAnErrorThatNamesIt() async throws {
        let site = try ServerTestSite()
        let first = try Child(["serve", "--offline", "--port", "0"], in: site.root)
        let port = try #require(first.waitForURL())
        let second = try Child(["serve", "--offline", "--port", String(port)], in: site.root)
        #expect(second.waitForExit() == 1)
        #expect(second.stderr.contains("error: 127.0.0.1:\(port) is already in use"))
        #expect(second.stderr.contains("--port"))
        #expect(second.stdout.isEmpty)
        kill(first.process.processIdentifier, SIGTERM)
        #expect(first.waitForExit() == 0)
    }

    @Test func aNonLoopbackAddressIsWarnedAbout() async throws {
        let site = try ServerTestSite()
        // 192.0.2.1 (TEST-NET-1) is not this machine's: the warning comes first, then the bind fails.
        let child = try Child(["serve", "--offline", "--host", "192.0.2.1", "--port", "0"], in: site.root)
        #expect(child.waitForExit() == 1)
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
        #expect(child.waitForExit() == 64)
        #expect(child.stderr.contains(message))
    }

    @Test func helpDescribesEveryOption() async throws {
        let site = try ServerTestSite()
        let child = try Child(["serve", "--help"], in: site.root)
        #expect(child.waitForExit() == 0)
        for option in ["--source", "--host", "--port", "--offline", "--api-url"] {
            #expect(child.stdout.contains(option))
        }
    }

    @Test func withoutASiteThereIsNothingToServe() async throws {
        let site = try ServerTestSite()
        try site.remove("glossary.yml")
        let child = try Child(["serve", "--offline", "--port", "0"], in: site.root)
        #expect(child.waitForExit() == 1)
        #expect(child.stderr.contains("no glossary.yml"))
    }

    @Test func buildNeverInjectsTheLiveReloadScript() async throws {
        let site = try ServerTestSite()
        let child = try Child(["build", "--offline"], in: site.root)
        #expect(child.waitForExit() == 0)
        let page = try String(contentsOf: site.url("site/guide/intro/index.html"), encoding: .utf8)
        #expect(!page.contains("glossary-live-reload"))
        #expect(!page.contains("_glossary/events"))
    }
}
