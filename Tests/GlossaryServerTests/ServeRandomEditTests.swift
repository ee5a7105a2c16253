import Foundation
import GlossaryKit
import GlossaryServer
import TestSupport
import Testing

/// Issue 32: whatever an editor or a shell does to a site's files — saves in place and atomic ones, new pages and
/// folders, deletions, glossary entries, the theme, `glossary.yml`, pages moved into folders made a moment before,
/// folders moved with their pages, pages moved out of `content/` and back, a build broken and mended, several edits at
/// once — the preview server stays up and, once it has caught up, serves byte for byte what a build from nothing of the
/// same files gives, and 404 for every page that is gone. A failed build is an event, and the last good site stays
/// served.
///
/// A random sequence is replayed by its seed: `GLOSSARY_SERVE_SEED=n` runs seed n alone (any number),
/// `GLOSSARY_SERVE_STEPS=n` sets its length (30 by default). `make soak` runs fresh seeds for many steps.
@Suite(.serialized) struct ServeRandomEditTests {
    static let seeds: [UInt64] = [1, 2]

    @Test(arguments: seeds)
    func randomEditSequencesAreServedAsABuildFromNothingWouldBe(seed: UInt64) async throws {
        let environment = ProcessInfo.processInfo.environment
        var seed = seed
        if let only = environment["GLOSSARY_SERVE_SEED"].flatMap(UInt64.init) {
            // The seed asked for runs once, in the first case.
            guard seed == Self.seeds[0] else { return }
            seed = only
        }
        let steps = environment["GLOSSARY_SERVE_STEPS"].flatMap(Int.init) ?? 30
        // Odd seeds use the tests' small theme, with the navigation shown so a stale one would be seen, even seeds the
        // built-in theme with a template and a stylesheet of the site's own; seeds 2 and 3 (modulo 4) poll for changes.
        let theme: SiteEditor.Theme = seed % 2 == 1 ? .own : .builtInOverridden
        let watchMode: PreviewServer.WatchMode = seed / 2 % 2 == 1 ? .polling : .automatic
        let replay = "replay: make soak SOAK_SEEDS=\(seed) SOAK_STEPS=\(steps)"
        print("serve random edits: seed \(seed), \(theme) theme, watching by \(watchMode), \(steps) steps (\(replay))")
        let started = ContinuousClock.now
        let site = try ServerTestSite(ServerTestSite.basic, theme: theme.files)
        var editor = SiteEditor(site: site, theme: theme, seed: seed)
        try await ServeCheck.run(site, watchMode: watchMode) { check in
            var log: [String] = []
            guard await check.settle("seed \(seed), the first build\n\(replay)") else { return }
            for step in 0..<steps {
                var edits: [String] = []
                do {
                    let count = editor.burstLength()
                    for part in 0..<count {
                        let seen = check.running.reports.changes.count
                        edits.append(try editor.next())
                        // Now and then the next edit of a burst waits until the server has seen this one: it comes while
                        // the server builds.
                        if part < count - 1, !editor.leftNoTrace, editor.toss() {
                            _ = await check.running.reports.waitForChanges(seen + 1, timeout: 10)
                        }
                    }
                } catch {
                    let steps = (log + ["\(step): \(edits.joined(separator: "; "))"]).suffix(12).joined(separator: "\n")
                    Issue.record("seed \(seed) step \(step): an edit failed: \(error)\n\(replay)\nsteps so far:\n\(steps)")
                    return
                }
                log.append("\(step): " + (edits.count > 1 ? "burst: " : "") + edits.joined(separator: "; "))
                let context = "seed \(seed) \(log.last!)\n\(replay)\nsteps so far:\n" + log.suffix(12).joined(separator: "\n")
                guard await check.settle(context) else { return }
            }
            let kinds = SiteEditor.Kind.allCases.map { "\($0) \(editor.done[$0] ?? 0)" }
            print(
                "serve random edits: seed \(seed) done in \(ContinuousClock.now - started): \(check.failedSteps) of \(steps) steps "
                    + "ended in a failed build, \(check.events) events; \(kinds.joined(separator: ", "))")
        }
    }

    /// Issue 32's moves one after another, each checked: a page into a folder made just before (`mkdir content/g; mv
    /// content/a/p1.md content/g/p1.md` crashed the server), a folder with its pages, new folders several deep, a folder
    /// into another, a page and a folder out of `content/` to the site's root and back in.
    @Test func movesAreServedAsABuildFromNothingWouldBe() async throws {
        let site = try ServerTestSite(
            ServerTestSite.basic + """

                -- content/a/p1.md --
                ---
                title: P1
                ---
                One, on [[kerning]].
                -- content/a/p2.md --
                ---
                title: P2
                ---
                Two, on [[leading]].
                """)
        let moves: [(String, () throws -> Void)] = [
            (
                "mkdir content/g; mv content/a/p1.md content/g/p1.md",
                {
                    try FileManager.default.createDirectory(at: site.url("content/g"), withIntermediateDirectories: false)
                    try site.move("content/a/p1.md", "content/g/p1.md")
                }
            ),
            ("mv content/g content/h", { try site.move("content/g", "content/h") }),
            (
                "mkdir -p content/x/y/z; mv content/a/p2.md content/x/y/z/p.md",
                {
                    try FileManager.default.createDirectory(at: site.url("content/x/y/z"), withIntermediateDirectories: true)
                    try site.move("content/a/p2.md", "content/x/y/z/p.md")
                }
            ),
            ("mv content/x content/h/x", { try site.move("content/x", "content/h/x") }),
            ("mv content/h/p1.md p1.md", { try site.move("content/h/p1.md", "p1.md") }),
            ("mv p1.md content/a/p1.md", { try site.move("p1.md", "content/a/p1.md") }),
            ("mv content/h h", { try site.move("content/h", "h") }),
            ("mv h content/back", { try site.move("h", "content/back") }),
        ]
        try await ServeCheck.run(site) { check in
            guard await check.settle("the first build") else { return }
            for (name, move) in moves {
                try move()
                guard await check.settle(name) else { return }
            }
        }
    }
}

/// What a build from nothing gives for a site's files as they are now, as the preview server would serve it.
struct CleanBuild: Sendable {
    /// Its errors: none when it succeeded.
    var errors: [Diagnostic]
    /// Every file of the site by path below its root; empty when the build failed.
    var files: [String: Data]
    /// The path the site is served under.
    var mount: String
    var succeeded: Bool

    init(of site: ServerTestSite) async {
        var options = site.options()
        // As the server builds: every page carries the live-reload tag.
        options.bodySuffix = LiveReload.tag
        let result = await SiteBuilder(options: options).build(into: MemorySink())
        errors = result.errors
        mount = result.rootPath ?? "/"
        succeeded = result.output != nil
        var files = result.output?.files ?? [:]
        for (path, url) in result.output?.copies ?? [:] { files[path] = FileManager.default.contents(atPath: url.path) }
        self.files = files
    }
}

/// A preview server of a site, and how to wait until it serves what a build from nothing would.
final class ServeCheck: @unchecked Sendable {
    let site: ServerTestSite
    let running: RunningServer
    let stream: EventStreamClient
    /// Every path a good clean build has had: those no longer built must answer 404.
    private var seen: Set<String> = []
    /// The last good clean build, and the id of the server's build that served it.
    private var lastGood: (build: CleanBuild, buildID: String)?
    /// Steps whose clean build failed (the server's too).
    private(set) var failedSteps = 0
    /// The server's `build` and `failed` events received.
    private(set) var events = 0

    private init(site: ServerTestSite, running: RunningServer, stream: EventStreamClient) {
        self.site = site
        self.running = running
        self.stream = stream
    }

    /// Starts a server for `site`, runs `body` with it, then checks the server is still up and stops it.
    static func run(
        _ site: ServerTestSite, watchMode: PreviewServer.WatchMode = .automatic, _ body: (ServeCheck) async throws -> Void
    ) async throws {
        let running = try await site.serve {
            $0.watchMode = watchMode
            $0.pollInterval = 0.05
        }
        do {
            let stream = try running.events()
            #expect(await stream.next("hello") != nil)
            let check = ServeCheck(site: site, running: running, stream: stream)
            try await body(check)
            // Still up: the browsers' stream is open and the site's files are served.
            #expect(!stream.isEnded, "the event stream ended")
            let served = try #require(running.server.state.current.site)
            let path = try #require(served.paths.sorted().first)
            #expect(try running.get(served.mount + path).status == 200)
        } catch {
            await running.stop()
            throw error
        }
        await running.stop()
    }

    /// Makes a clean build of the site's files as they are now, then waits, event by event, until the server serves
    /// the same; records what still differs when `serverWait` passes with no event (or the server keeps rebuilding without
    /// catching up). Returns whether it caught up.
    func settle(_ step: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) async -> Bool {
        let expected = await CleanBuild(of: site)
        var waited = 0
        while true {
            let found = await blocking { self.differences(from: expected) }
            if found.isEmpty { break }
            // One edit may be seen as several changes, each a build; a few dozen without catching up is a loop.
            guard waited < 40, let event = await stream.next(timeout: serverWait) else {
                let shown = found.prefix(8).joined(separator: "\n") + (found.count > 8 ? "\n… and \(found.count - 8) more" : "")
                Issue.record("\(step)\nafter \(waited) events the server serves what a clean build doesn't:\n\(shown)", sourceLocation: sourceLocation)
                return false
            }
            #expect(event.name == "build" || event.name == "failed", "\(step): an event \(event.name)", sourceLocation: sourceLocation)
            waited += 1
            events += 1
        }
        if expected.succeeded, let served = running.server.state.current.site {
            seen.formUnion(expected.files.keys)
            lastGood = (expected, served.buildID)
        } else {
            failedSteps += 1
        }
        return true
    }

    /// How what the server serves now differs from `expected`: its errors, the files it has, then every file and every
    /// page that is gone, asked for over HTTP. Empty when it serves exactly that.
    private func differences(from expected: CleanBuild) -> [String] {
        let snapshot = running.server.state.current
        guard expected.succeeded else {
            guard snapshot.errors == expected.errors else {
                return ["errors: the server has \(Self.describe(snapshot.errors)), a clean build \(Self.describe(expected.errors))"]
            }
            // The last good site stays served — unless an edit of several had a good build of its own in between.
            guard let lastGood, snapshot.site?.buildID == lastGood.buildID else { return [] }
            return fetched(lastGood.build, gone: [])
        }
        guard snapshot.errors.isEmpty else { return ["errors: the server has \(Self.describe(snapshot.errors)), a clean build none"] }
        guard let site = snapshot.site else { return ["no site served"] }
        guard site.mount == expected.mount else { return ["mount: the server's \(site.mount), a clean build's \(expected.mount)"] }
        let built = Set(expected.files.keys)
        guard site.paths == built else {
            return ["files: served, not built: \(site.paths.subtracting(built).sorted()); built, not served: \(built.subtracting(site.paths).sorted())"]
        }
        return fetched(expected, gone: seen.subtracting(built))
    }

    /// What differs when every file of `build` is asked for (pages by their folder's URL, as browsers do), each of `gone`
    /// must answer 404, and so must a page that never was, with the theme's 404 page.
    private func fetched(_ build: CleanBuild, gone: Set<String>) -> [String] {
        var found: [String] = []
        // One connection kept alive, as a browser's; opened again once when the server has closed it meanwhile.
        var client: RawHTTPClient?
        func get(_ target: String) -> RawHTTPClient.Response? {
            for attempt in 0..<2 {
                do {
                    let connection = try client ?? RawHTTPClient(port: running.port)
                    client = connection
                    return try connection.request("GET", target)
                } catch {
                    client = nil
                    if attempt == 1 { found.append("\(target): \(error)") }
                }
            }
            return nil
        }
        for (path, data) in build.files.sorted(by: { $0.key < $1.key }) {
            let target = build.mount + (path.hasSuffix("index.html") ? String(path.dropLast("index.html".count)) : path)
            guard let response = get(target) else { continue }
            if response.status != 200 {
                found.append("\(target): status \(response.status)")
            } else if response.body != data {
                found.append("\(target): \(Self.firstDifference(served: response.body, built: data))")
            }
        }
        for path in gone.sorted() {
            guard let response = get(build.mount + path) else { continue }
            if response.status != 404 { found.append("\(build.mount + path), built no more: status \(response.status)") }
        }
        if let response = get(build.mount + "never-a-page/") {
            if response.status != 404 || response.body != build.files["404.html"] ?? Data("Not found\n".utf8) {
                found.append("\(build.mount)never-a-page/: status \(response.status), not the theme's 404 page")
            }
        }
        return found
    }

    static func describe(_ diagnostics: [Diagnostic]) -> String {
        diagnostics.isEmpty ? "none" : diagnostics.map { "'\($0.description)'" }.joined(separator: ", ")
    }

    /// Where the served bytes first differ from the built ones, with some text around it from each.
    static func firstDifference(served: Data, built: Data) -> String {
        let at = zip(served, built).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(served.count, built.count)
        let line = built.prefix(at).filter { $0 == UInt8(ascii: "\n") }.count + 1
        func around(_ data: Data) -> String {
            let start = data.startIndex + max(0, at - 80)
            let end = data.startIndex + min(data.count, at + 160)
            return start < end ? "'\(String(decoding: data[start..<end], as: UTF8.self))'" : "(end)"
        }
        return "byte \(at) (line \(line)) served \(around(served)), built \(around(built))"
    }
}

/// Edits a site's files at random as an editor or a shell would, and keeps track of what is where.
struct SiteEditor {
    enum Kind: CaseIterable {
        case addPage, savePage, appendText, deletePage, deleteFolder
        case addEntry, editEntry, deleteEntry
        case editTemplate, editAsset, editConfig, breakConfig, editCache
        case moveIntoNewFolder, moveFolder, moveIntoNestedFolders, moveOut, moveBackIn, renameCase, replaceContent
        case breakPage, mend
    }

    /// The theme the site starts with.
    enum Theme: CustomStringConvertible {
        /// The server tests' small theme, its page showing the navigation.
        case own
        /// The built-in theme, with a template and a stylesheet of the site's own.
        case builtInOverridden

        var files: [String: String] {
            switch self {
            case .own:
                ServerTestSite.theme.merging([
                    "themes/default/templates/page.mustache": Self.page(marker: ""),
                    "themes/default/templates/level.mustache":
                        "<ul>{{#items}}<li{{#current}} class=c{{/current}}{{#open}} class=o{{/open}}>{{title}} {{url}}{{#children}}{{>level}}{{/children}}</li>{{/items}}</ul>",
                ]) { $1 }
            case .builtInOverridden:
                [
                    "themes/default/templates/footer.mustache": "<footer class=\"site\">{{site.title}} · {{page.title}}</footer>\n",
                    "themes/default/assets/css/extra.css": "body { margin: 0; }\n",
                ]
            }
        }

        static func page(marker: String) -> String {
            "{{<base}}{{$content}}<nav>{{#navigation.sidebar}}{{>level}}{{/navigation.sidebar}}</nav>"
                + "{{#navigation.breadcrumbs}}<a href=\"{{url}}\">{{title}}</a>{{/navigation.breadcrumbs}}\(marker)<main>{{{page.content}}}</main>"
                + "<ul class=\"terms\">{{#page.terms}}<li>{{word}}: {{summary}}</li>{{/page.terms}}</ul>"
                + "{{#navigation.previous}}<a rel=prev href=\"{{url}}\">{{title}}</a>{{/navigation.previous}}"
                + "{{#navigation.next}}<a rel=next href=\"{{url}}\">{{title}}</a>{{/navigation.next}}{{/content}}{{/base}}\n"
        }

        var description: String { self == .own ? "the tests'" : "the built-in" }
    }

    let site: ServerTestSite
    let theme: Theme
    private var random: SeededRandom
    /// The pages below `content/`; the glossary entries and their terms; pages moved out to the site's root; files
    /// broken on purpose (a build error until mended).
    private var pages = ["content/index.md", "content/guide/intro.md"]
    private var entries: [(path: String, term: String)] = [("content/glossary/kerning.md", "Kerning"), ("content/glossary/leading.md", "Leading")]
    private var outside: [String] = []
    private var broken: Set<String> = []
    /// How many edits so far: names each new file and folder.
    private var count = 0
    /// How many edits of each kind were made.
    private(set) var done: [Kind: Int] = [:]
    /// Whether the last edit left the files as they were (a folder moved away and straight back): a watcher that
    /// compares what it sees now with what it saw (polling) rightly sees no change.
    private(set) var leftNoTrace = false
    /// The kinds not made yet, in an order of the seed's: each is made once, as soon as it can be, before any is picked
    /// at random, so a short sequence makes every kind.
    private var firstRound: [Kind]

    init(site: ServerTestSite, theme: Theme, seed: UInt64) {
        self.site = site
        self.theme = theme
        random = SeededRandom(seed: seed)
        firstRound = Kind.allCases
        for index in firstRound.indices.dropLast() {
            firstRound.swapAt(index, index + random.next(firstRound.count - index))
        }
    }

    /// How many edits the next step makes: mostly one, now and then a burst of two to five, all made before the server
    /// is waited for.
    mutating func burstLength() -> Int {
        random.next(6) == 0 ? 2 + random.next(4) : 1
    }

    /// The next edit: each kind in turn at first, then at random; a broken file is mended one time in two, so most steps
    /// are checked against a good build.
    mutating func next() throws -> String {
        if let index = firstRound.firstIndex(where: applicable) { return try edit(firstRound.remove(at: index)) }
        if random.next(2) == 0, applicable(.mend) { return try edit(.mend) }
        return try edit()
    }

    /// A coin tossed by the sequence's own generator.
    mutating func toss() -> Bool {
        random.next(2) == 0
    }

    private func applicable(_ kind: Kind) -> Bool {
        switch kind {
        case .addPage, .addEntry, .editTemplate, .editAsset, .editConfig: true
        case .breakConfig, .replaceContent, .editCache: true
        case .savePage, .appendText, .moveIntoNewFolder, .moveIntoNestedFolders, .renameCase, .breakPage: !pages.isEmpty
        case .deletePage, .moveOut: pages.count > 1
        case .editEntry, .deleteEntry: !entries.isEmpty
        case .moveFolder, .deleteFolder: !movableFolders.isEmpty
        case .moveBackIn: !outside.isEmpty
        case .mend: !mendable.isEmpty
        }
    }

    /// Makes one edit, of `kind` or of a random kind (adding a page when that kind can't be made); says what it did.
    private mutating func edit(_ kind: Kind? = nil) throws -> String {
        var kind = kind ?? Kind.allCases[random.next(Kind.allCases.count)]
        if !applicable(kind) { kind = .addPage }
        done[kind, default: 0] += 1
        count += 1
        leftNoTrace = false
        let n = count
        switch kind {
        case .addPage:
            // At the top, in a folder there is, or in new folders several deep.
            let folders = ["content", "content/n\(n)/a/b"] + Set(pages.map(Self.folder)).sorted()
            let path = "\(folders[random.next(folders.count)])/p\(n).md"
            try site.write(path, pageText("Page \(n)"))
            pages.append(path)
            return "add \(path)"
        case .savePage:
            let path = pick(pages)
            let style = try save(path, pageText("Saved \(n)"), n)
            broken.remove(path)
            return "save \(path) \(style)"
        case .appendText:
            // Truncated and written again in place.
            let path = pick(pages)
            let text = try String(contentsOf: site.url(path), encoding: .utf8)
            try site.write(path, text + "\nMore at \(n), on [[\(word())]].\n")
            return "append to \(path) in place"
        case .deletePage:
            let path = pages.remove(at: random.next(pages.count))
            try site.remove(path)
            broken.remove(path)
            return "delete \(path)"
        case .addEntry:
            // One time in five its term is another entry's: a build error until mended.
            let duplicate = random.next(5) == 0 && !entries.isEmpty
            let term = duplicate ? pick(entries).term : "Term\(n)"
            let path = "content/glossary/e\(n).md"
            try site.write(path, entryText(term, n))
            entries.append((path, term))
            if duplicate { broken.insert(path) }
            return "add \(path) (\(term))"
        case .editEntry:
            let entry = pick(entries)
            try site.replace(entry.path, entryText(entry.term, n))
            return "edit \(entry.path)"
        case .deleteFolder:
            let folder = pick(movableFolders)
            try site.remove(folder)
            pages.removeAll { $0.hasPrefix(folder + "/") }
            broken = broken.filter { !$0.hasPrefix(folder + "/") }
            return "rm -r \(folder)"
        case .deleteEntry:
            let entry = entries.remove(at: random.next(entries.count))
            try site.remove(entry.path)
            broken.remove(entry.path)
            return "delete \(entry.path)"
        case .editTemplate:
            switch theme {
            case .own where random.next(2) == 0:
                try site.replace("themes/default/templates/page.mustache", Theme.page(marker: "<p class=\"v\(n)\"></p>"))
                return "edit the page template"
            case .own:
                try site.write("themes/default/templates/404.mustache", "{{<base}}{{$content}}<h1>Gone (\(n))</h1>{{/content}}{{/base}}\n")
                return "edit the 404 template in place"
            case .builtInOverridden:
                try site.replace("themes/default/templates/footer.mustache", "<footer class=\"site\">{{site.title}} · {{page.title}} · \(n)</footer>\n")
                return "edit the site's footer template"
            }
        case .editAsset:
            let path = theme == .own ? "themes/default/assets/site.css" : "themes/default/assets/css/extra.css"
            try site.replace(path, "body { margin: \(n)px; }\n")
            return "edit \(path)"
        case .editConfig:
            // The title shows on every page; now and then the whole site moves under another path.
            let base = random.next(4) == 0 ? "base_url: /sub/\n" : ""
            try site.replace("glossary.yml", "title: Glossary \(n)\n\(base)")
            broken.remove("glossary.yml")
            return "glossary.yml: title Glossary \(n)\(base.isEmpty ? "" : ", base_url /sub/")"
        case .breakConfig:
            // Mended by the next edit of glossary.yml, or by `mend`.
            broken.insert("glossary.yml")
            if random.next(2) == 0, FileManager.default.fileExists(atPath: site.url("glossary.yml").path) {
                try site.remove("glossary.yml")
                return "rm glossary.yml"
            }
            try site.replace("glossary.yml", "title: [Glossary \(n)\n")
            return "break glossary.yml"
        case .moveIntoNewFolder:
            // `mkdir content/gN; mv content/…/p.md content/gN/p.md`: the folder is new when the page arrives.
            let path = pick(pages)
            let target = "content/g\(n)/" + Self.name(path)
            try FileManager.default.createDirectory(at: site.url("content/g\(n)"), withIntermediateDirectories: false)
            try site.move(path, target)
            rename(path, to: target)
            return "mkdir content/g\(n); mv \(path) \(target)"
        case .moveFolder:
            // To a new name, or into another folder.
            let folders = movableFolders
            let folder = pick(folders)
            let others = folders.filter { $0 != folder && !$0.hasPrefix(folder + "/") }
            let target = (random.next(2) == 0 || others.isEmpty ? "content" : pick(others)) + "/r\(n)"
            try site.move(folder, target)
            rename(folder, to: target)
            return "mv \(folder) \(target)"
        case .moveIntoNestedFolders:
            let path = pick(pages)
            let target = "content/x\(n)/y/z/" + Self.name(path)
            try site.move(path, target)
            rename(path, to: target)
            return "mkdir -p content/x\(n)/y/z; mv \(path) \(target)"
        case .moveOut:
            let path = pages.remove(at: random.next(pages.count))
            let target = "away\(n).md"
            try site.move(path, target)
            outside.append(target)
            if broken.remove(path) != nil { broken.insert(target) }
            return "mv \(path) \(target) (out of content/)"
        case .moveBackIn:
            let path = outside.remove(at: random.next(outside.count))
            let folders = ["content/back\(n)"] + Set(pages.map(Self.folder)).sorted()
            let target = "\(folders[random.next(folders.count)])/\(path)"
            try site.move(path, target)
            pages.append(target)
            if broken.remove(path) != nil { broken.insert(target) }
            return "mv \(path) \(target) (back in)"
        case .editCache:
            // The definitions cache, which the server watches too: an entry written by hand, corrupted or deleted.
            let cached = pick(["quill", "ligature", "nosuchword"])
            let path = ".glossary/cache/en/\(cached).json"
            switch random.next(3) {
            case 0 where FileManager.default.fileExists(atPath: site.url(path).path):
                try site.remove(path)
                return "delete \(path)"
            case 1:
                try site.write(path, "{ not json \(n)")
                return "corrupt \(path)"
            default:
                let body = #"[{"word":"\#(cached)","meanings":[{"partOfSpeech":"noun","definitions":[{"definition":"Cached at \#(n)."}]}]}]"#
                try site.write(
                    path,
                    #"{"body":\#(body),"fetched_at":"2026-01-01T00:00:00Z","format":1,"key":"\#(cached)","language":"en","status":200,"url":"x"}"#
                        + "\n")
                return "write \(path)"
            }
        case .renameCase:
            // Another file on disk, the same name but for its case.
            let path = pick(pages)
            let name = Self.name(path)
            let renamed = name.first!.isUppercase ? name.lowercased() : name.prefix(1).uppercased() + name.dropFirst()
            let target = Self.folder(path) + "/" + renamed
            guard !pages.contains(target) else { return try edit(.addPage) }
            try site.move(path, target)
            rename(path, to: target)
            return "mv \(path) \(target)"
        case .replaceContent:
            // As a checkout does: the whole folder away and back at once, or copied, deleted and the copy renamed in, so
            // every folder in it is a new one.
            if random.next(2) == 0 {
                try site.move("content", "content.old")
                try site.move("content.old", "content")
                leftNoTrace = true
                return "mv content content.old; mv content.old content"
            }
            try FileManager.default.copyItem(at: site.url("content"), to: site.url("content.new"))
            try site.remove("content")
            try site.move("content.new", "content")
            return "cp -r content content.new; rm -r content; mv content.new content"
        case .breakPage:
            let path = pick(pages)
            try site.replace(path, "---\ntitle: [unclosed\n---\nBroken at \(n).\n")
            broken.insert(path)
            return "break \(path)'s front matter"
        case .mend:
            let path = pick(mendable)
            broken.remove(path)
            if path == "glossary.yml" {
                try site.write(path, "title: Glossary \(n)\n")
            } else if let index = entries.firstIndex(where: { $0.path == path }) {
                entries[index].term = "Term\(n)"
                try site.replace(path, entryText(entries[index].term, n))
            } else {
                try site.replace(path, pageText("Mended \(n)"))
            }
            return "mend \(path)"
        }
    }

    /// Saves `text` as one of the editors does; says how.
    private mutating func save(_ path: String, _ text: String, _ n: Int) throws -> String {
        let folder = Self.folder(path)
        switch random.next(5) {
        case 0:
            // Written beside it, then renamed over it.
            try site.replace(path, text)
            return "atomically"
        case 1:
            // vim, keeping a backup: a scratch file to probe the folder, the page renamed away, written anew, the backup
            // deleted.
            try site.write(folder + "/4913", "")
            try site.remove(folder + "/4913")
            try site.move(path, path + "~")
            try site.write(path, text)
            try site.remove(path + "~")
            return "as vim does"
        case 2:
            // emacs: a lock (a symbolic link to nowhere) and an auto-save file while editing, the old file kept as a
            // backup.
            let name = Self.name(path)
            guard symlink("editor@localhost.\(n):1700000000", site.url(folder + "/.#" + name).path) == 0 else { throw CocoaError(.fileWriteUnknown) }
            try site.write(folder + "/#\(name)#", text)
            try site.move(path, path + "~")
            try site.write(path, text)
            try site.remove(folder + "/#\(name)#")
            try site.remove(folder + "/.#" + name)
            return "as emacs does"
        case 3:
            // GIO (gedit, GNOME): a hidden file beside it, renamed over it.
            let temporary = folder + "/.goutputstream-\(n)"
            try site.write(temporary, text)
            try site.move(temporary, path)
            return "as gedit does"
        default:
            // A JetBrains IDE's safe write: the new text beside it, the old file renamed away, the new one renamed in,
            // the old one deleted.
            try site.write(path + "___jb_tmp___", text)
            try site.move(path, path + "___jb_old___")
            try site.move(path + "___jb_tmp___", path)
            try site.remove(path + "___jb_old___")
            return "as a JetBrains IDE does"
        }
    }

    /// Broken files in the site (not those moved out of it).
    private var mendable: [String] {
        broken.filter { path in path == "glossary.yml" || pages.contains(path) || entries.contains { $0.path == path } }.sorted()
    }

    /// The folders below `content/` holding pages, and those on the way to them; not the glossary's.
    private var movableFolders: [String] {
        var folders = Set<String>()
        for page in pages {
            var folder = Self.folder(page)
            while folder != "content", folder.hasPrefix("content/") {
                folders.insert(folder)
                folder = Self.folder(folder)
            }
        }
        folders.remove("content/glossary")
        return folders.sorted()
    }

    /// Records that `path`, a file or a folder, is now at `target`.
    private mutating func rename(_ path: String, to target: String) {
        func moved(_ file: String) -> String {
            file == path ? target : file.hasPrefix(path + "/") ? target + file.dropFirst(path.count) : file
        }
        pages = pages.map(moved)
        broken = Set(broken.map(moved))
    }

    private mutating func pick<T>(_ items: [T]) -> T {
        items[random.next(items.count)]
    }

    /// A word to reference: an entry's term, one WordNet defines, or one nothing defines (a warning).
    private mutating func word() -> String {
        pick(["kerning", "leading", "quill", "ligature", "nosuchword"] + entries.map { $0.term.lowercased() })
    }

    /// A page: a weight now and then, so the navigation's order changes; headings, so its table of contents does.
    private mutating func pageText(_ title: String) -> String {
        let weight = random.next(3) == 0 ? "weight: \(random.next(5))\n" : ""
        let headings = (0..<random.next(3)).map { "## Part \($0)\n\nPart \($0).\n\n" }.joined()
        return "---\ntitle: \(title)\n\(weight)---\n# \(title)\n\n\(headings)On [[\(word())]] and [[\(word())]]; see [home](/). Plain \(word()).\n"
    }

    private mutating func entryText(_ term: String, _ n: Int) -> String {
        "---\nterm: \(term)\naliases: [alias\(n)]\n---\nDefined at \(n), see [[\(word())]].\n"
    }

    static func folder(_ path: String) -> String { (path as NSString).deletingLastPathComponent }
    static func name(_ path: String) -> String { (path as NSString).lastPathComponent }
}
