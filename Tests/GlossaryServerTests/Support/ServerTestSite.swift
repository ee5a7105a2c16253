import Foundation
import GlossaryKit
import GlossaryServer
import TestSupport
import Testing

/// A small site in a fresh temporary folder, written inline (`-- path --` starts each file), with a small
/// theme of its own, and a secret file *beside* the site that the server must never reveal.
final class ServerTestSite: @unchecked Sendable {
    /// The folder holding the site folder and the secrets next to it.
    let sandbox: URL
    let root: URL
    let secret: String

    static let theme: [String: String] = [
        "themes/default/templates/base.mustache": """
        <!doctype html><html><head><title>{{page_title}}</title><link rel="stylesheet" href="{{assets}}site.css"></head>
        <body>{{$content}}{{/content}}</body></html>
        """,
        "themes/default/templates/page.mustache": """
        {{<base}}{{$content}}<main>{{{page.content}}}</main><ul class="terms">{{#page.terms}}<li>{{word}}: {{summary}}</li>{{/page.terms}}</ul>{{/content}}{{/base}}
        """,
        "themes/default/templates/term.mustache": """
        {{<base}}{{$content}}<h1>{{term.word}}</h1><div class="definition">{{{term.body}}}</div><ul class="used-on">{{#term.used_on}}<li><a href="{{url}}">{{title}}</a></li>{{/term.used_on}}</ul>{{/content}}{{/base}}
        """,
        "themes/default/templates/terms.mustache": """
        {{<base}}{{$content}}{{#letters}}<h2>{{letter}}</h2>{{#terms}}<a href="{{url}}">{{word}}</a> {{/terms}}{{/letters}}{{/content}}{{/base}}
        """,
        "themes/default/templates/search.mustache": "{{<base}}{{$content}}<form data-dictionary-search></form>{{/content}}{{/base}}\n",
        "themes/default/templates/404.mustache": "{{<base}}{{$content}}<h1>Not found (theme 404)</h1>{{/content}}{{/base}}\n",
        "themes/default/assets/site.css": "body { color: black; }\n",
        "themes/default/assets/app.js": "console.log('app');\n",
    ]

    static let basic = """
        -- glossary.yml --
        title: Test Glossary
        -- content/index.md --
        ---
        title: Home
        ---
        Welcome to [[Kerning]].
        -- content/guide/intro.md --
        ---
        title: Intro
        ---
        # Intro

        Mind the [[kerning]] and the [[leading]].
        -- content/glossary/kerning.md --
        ---
        term: Kerning
        ---
        Adjusting the space between two letters.
        -- content/glossary/leading.md --
        ---
        term: Leading
        ---
        The space between lines.
        """

    init(_ text: String = ServerTestSite.basic, theme: [String: String] = ServerTestSite.theme) throws {
        sandbox = FileManager.default.temporaryDirectory.appendingPathComponent("glossary-serve-\(UUID().uuidString)", isDirectory: true)
        root = sandbox.appendingPathComponent("site-source", isDirectory: true)
        secret = "TOP-SECRET-\(UUID().uuidString)"
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try Data("\(secret)\n".utf8).write(to: sandbox.appendingPathComponent("secret.txt"))
        try FileManager.default.createDirectory(at: sandbox.appendingPathComponent("private"), withIntermediateDirectories: true)
        try Data("\(secret)\n".utf8).write(to: sandbox.appendingPathComponent("private/secret.txt"))
        for (path, contents) in theme { try write(path, contents) }
        for (path, contents) in Self.parse(text) { try write(path, contents) }
    }

    deinit {
        try? FileManager.default.removeItem(at: sandbox)
    }

    static func parse(_ text: String) -> [String: String] { InlineSite.parse(text) }

    func url(_ path: String) -> URL { root.appendingPathComponent(path) }

    func write(_ path: String, _ contents: String) throws {
        try write(path, Data(contents.utf8))
    }

    func write(_ path: String, _ data: Data) throws {
        let url = url(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }

    /// Replaces `path` in one step, as an editor's atomic save does: written beside the site, then renamed
    /// over it, so a watcher sees one change and never a half-written file.
    func replace(_ path: String, _ contents: String) throws {
        let temporary = sandbox.appendingPathComponent("replacement-\(UUID().uuidString)")
        try Data(contents.utf8).write(to: temporary)
        guard rename(temporary.path, url(path).path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    func remove(_ path: String) throws {
        try FileManager.default.removeItem(at: url(path))
    }

    func move(_ from: String, _ to: String) throws {
        try FileManager.default.createDirectory(at: url(to).deletingLastPathComponent(), withIntermediateDirectories: true)
        guard rename(url(from).path, url(to).path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    func options() -> BuildOptions {
        var options = BuildOptions(source: root)
        options.offline = true
        options.jobs = 2
        return options
    }

    /// Starts a preview server for the site on a free loopback port.
    func serve(_ adjust: (inout PreviewServer.Configuration) -> Void = { _ in }) async throws -> RunningServer {
        var configuration = PreviewServer.Configuration(options: options(), address: ListenAddress(host: "127.0.0.1", port: 0)!)
        adjust(&configuration)
        let reports = ServerReports()
        let server = PreviewServer(configuration: configuration, makeFetcher: nil, report: reports.record)
        let first = try await server.start()
        return RunningServer(server: server, first: first, reports: reports)
    }
}

/// What a preview server has reported so far: the changes its watcher saw, its builds, its warnings.
final class ServerReports: @unchecked Sendable {
    private let condition = NSCondition()
    private var changeBatches: [Set<String>] = []
    private var buildCount = 0
    private var warningList: [Diagnostic] = []

    @Sendable func record(_ report: PreviewServer.Report) {
        condition.withLock {
            switch report {
            case .changed(let paths): changeBatches.append(paths)
            case .built: buildCount += 1
            case .warning(let warning): warningList.append(warning)
            }
            condition.broadcast()
        }
    }

    /// Each batch of changed paths, in order.
    var changes: [Set<String>] { condition.withLock { changeBatches } }
    /// Builds finished, the first one included.
    var builds: Int { condition.withLock { buildCount } }
    var warnings: [Diagnostic] { condition.withLock { warningList } }

    /// Waits until a batch of changes includes `path`; false after `timeout` seconds.
    func waitForChange(_ path: String, timeout: TimeInterval = serverWait) async -> Bool {
        await blocking {
            let deadline = Date(timeIntervalSinceNow: timeout)
            self.condition.lock()
            defer { self.condition.unlock() }
            while !self.changeBatches.contains(where: { $0.contains(path) }) {
                if !self.condition.wait(until: deadline) { return false }
            }
            return true
        }
    }

    /// Waits until `count` batches of changes have been seen; false after `timeout` seconds.
    func waitForChanges(_ count: Int, timeout: TimeInterval = serverWait) async -> Bool {
        await blocking {
            let deadline = Date(timeIntervalSinceNow: timeout)
            self.condition.lock()
            defer { self.condition.unlock() }
            while self.changeBatches.count < count {
                if !self.condition.wait(until: deadline) { return false }
            }
            return true
        }
    }

    /// Waits until `count` builds have finished; false after `timeout` seconds.
    func waitForBuilds(_ count: Int, timeout: TimeInterval = serverWait) async -> Bool {
        await blocking {
            let deadline = Date(timeIntervalSinceNow: timeout)
            self.condition.lock()
            defer { self.condition.unlock() }
            while self.buildCount < count {
                if !self.condition.wait(until: deadline) { return false }
            }
            return true
        }
    }
}

/// A started preview server; `stop()` it at the end of the test.
struct RunningServer: @unchecked Sendable {
    let server: PreviewServer
    let first: IncrementalBuild
    let reports: ServerReports

    var port: UInt16 { server.port }

    func get(_ target: String, method: String = "GET", headers: [String] = []) throws -> RawHTTPClient.Response {
        try RawHTTPClient.get(port, target, method: method, headers: headers)
    }

    func events() throws -> EventStreamClient {
        try EventStreamClient(port: port)
    }

    func stop() async {
        await server.stop()
    }
}
