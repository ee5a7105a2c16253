import Foundation
import GlossaryKit
import Testing

@testable import GlossaryServer

/// Watching, rebuilding and telling the browser: edits, failures, the event stream's lifetime. (How fast an edit
/// reaches the browser is measured by `bench/serve-latency.py`, not here: a test's wall clock is the machine's load.)
@Suite(.serialized) struct PreviewServerTests {
    @Test func anEditReachesTheBrowserAndIsServed() async throws {
        let site = try ServerTestSite()
        let running = try await site.serve()
        let events = try running.events()
        let hello = try #require(await events.next("hello"))
        #expect(hello.json["build"] as? String == running.server.state.current.site?.buildID)
        #expect((hello.json["errors"] as? [Any])?.isEmpty == true)

        // Each edit is an atomic save: one change, one build (an edit in place can rightly be seen as two on a busy
        // machine, the truncation and the text). The first makes the page use leading, the second changes its text.
        var event: EventStreamClient.Event?
        var edits = 0
        for attempt in 0..<2 {
            edits += 1
            try site.replace("content/guide/intro.md", "---\ntitle: Intro\n---\nFreshly edited (\(attempt)), with [[leading]].\n")
            event = await events.next("build")
            #expect(event != nil)
        }
        let data = try #require(event).json
        // The first edit makes the page use leading: the exports list the pages using each term. Later edits change
        // the page's text alone.
        let exports = edits == 1 ? ["/glossary.csv", "/glossary.json"] : []
        // Every edit changes the page's words, so the site search's vocabulary and postings change with it, and
        // llms-full.txt, which holds the page's text.
        let all = try #require(data["changed"] as? [String], "\(data)")
        let changed = all.filter { !$0.hasPrefix("/search/") }
        // The manifest and the shard of the page's words (named after its first term: a new one when that changes).
        let search = all.filter { $0.hasPrefix("/search/") }
        #expect(search.first == "/search/index.json" && (2...3).contains(search.count), "\(data)")
        #expect(search.dropFirst().allSatisfy { $0.hasPrefix("/search/shards/") }, "\(data)")
        let edited = ["/guide/intro/", "/llms-full.txt"]
        #expect(changed == exports + edited || changed == exports + edited + ["/terms/kerning/"], "\(data)")
        #expect(data["css_only"] as? Bool == false)
        #expect(data["build"] as? String != hello.json["build"] as? String)
        let page = try running.get("/guide/intro/")
        #expect(page.text.contains("Freshly edited"))
        #expect(page.header("Server-Timing") == "glossary-build;desc=\"\(data["build"] as? String ?? "")\"")
        // The term page no longer lists the intro among its users.
        #expect(!(try running.get("/terms/kerning/").text.contains("/guide/intro/")))
        await running.stop()
    }

    @Test func brokenFrontMatterShowsItsErrorsAndKeepsTheLastGoodSite() async throws {
        let site = try ServerTestSite()
        let running = try await site.serve()
        let events = try running.events()
        _ = await events.next("hello")
        let before = try running.get("/guide/intro/")

        try site.replace("content/guide/intro.md", "---\ntitle: [unclosed\n---\nBroken <b>page</b>.\n")
        let failed = try #require(await events.next("failed"))
        let errors = try #require(failed.json["errors"] as? [[String: Any]])
        let first = try #require(errors.first)
        #expect(first["file"] as? String == "content/guide/intro.md")
        // libyaml notices the unclosed list where the front matter ends.
        #expect(first["line"] as? Int == 3)
        #expect(first["column"] as? Int == 1)
        #expect(first["code"] as? String == "yaml-syntax")
        let text = try #require(first["text"] as? String)
        #expect(text.hasPrefix("content/guide/intro.md:3:1: error: "))
        #expect(text.hasSuffix(" [yaml-syntax]"))

        // The last good site is still served, whole.
        let during = try running.get("/guide/intro/")
        #expect(during.status == 200)
        #expect(during.body == before.body)
        // A page loaded now learns of the failure as soon as it connects.
        let late = try running.events()
        let hello = try #require(await late.next("hello"))
        #expect((hello.json["errors"] as? [[String: Any]])?.first?["text"] as? String == text)

        try site.replace("content/guide/intro.md", "---\ntitle: Intro\n---\nFixed.\n")
        #expect(await events.next("build") != nil)
        #expect(try running.get("/guide/intro/").text.contains("Fixed."))
        let again = try running.events()
        #expect((await again.next("hello")?.json["errors"] as? [Any])?.isEmpty == true)
        await running.stop()
    }

    @Test func errorsAreEscapedInTheEventData() async throws {
        let data = LiveReload.failed([
            Diagnostic(.templateSyntax(detail: "bad <script>\"quoted\""), at: SourceLocation(file: "content/a.md\nx", line: 3, column: 4))
        ])
        #expect(!data.contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any])
        let error = try #require((object["errors"] as? [[String: Any]])?.first)
        #expect(error["text"] as? String == "content/a.md\\nx:3:4: error: bad <script>\"quoted\" [template-syntax]")
        // The script puts error text in with textContent, never as HTML.
        #expect(LiveReload.script.contains("item.textContent = error.text"))
        #expect(!LiveReload.script.contains("innerHTML"))
    }

    @Test func aFirstBuildThatFailsServesAPlaceholderThatShowsTheErrors() async throws {
        let site = try ServerTestSite()
        try site.write("content/index.md", "---\ntitle: [broken\n---\nx\n")
        let running = try await site.serve()
        #expect(running.first.result.outputs == nil)
        let page = try running.get("/")
        #expect(page.status == 503)
        #expect(page.text.contains("data-glossary-live-reload"))
        let events = try running.events()
        let hello = try #require(await events.next("hello"))
        #expect(hello.json["build"] is NSNull)
        #expect((hello.json["errors"] as? [Any])?.count == 1)
        try site.replace("content/index.md", "---\ntitle: Home\n---\nNow fine.\n")
        let build = try #require(await events.next("build"))
        #expect(build.json["all"] as? Bool == false)
        #expect((build.json["changed"] as? [String])?.contains("/") == true)
        #expect(try running.get("/").status == 200)
        await running.stop()
    }

    @Test func aStylesheetChangeIsMarkedForASwapWithoutReload() async throws {
        let site = try ServerTestSite()
        let running = try await site.serve()
        let events = try running.events()
        _ = await events.next("hello")
        try site.replace("themes/default/assets/site.css", "body { color: red; }\n")
        let event = try #require(await events.next("build"))
        #expect(event.json["css_only"] as? Bool == true)
        #expect(event.json["changed"] as? [String] == ["/assets/site.css"])
        #expect(try running.get("/assets/site.css").text == "body { color: red; }\n")

        try site.replace("themes/default/assets/app.js", "console.log('changed');\n")
        #expect(await events.next("build")?.json["css_only"] as? Bool == false)
        await running.stop()
    }

    @Test func aTemplateChangeRerendersEveryPageThatUsesIt() async throws {
        let site = try ServerTestSite()
        let running = try await site.serve()
        let events = try running.events()
        _ = await events.next("hello")
        try site.replace("themes/default/templates/term.mustache", "{{<base}}{{$content}}<h1 class=\"changed\">{{term.word}}</h1>{{/content}}{{/base}}\n")
        let event = try #require(await events.next("build"))
        #expect(event.json["changed"] as? [String] == ["/terms/kerning/", "/terms/leading/"])
        #expect(try running.get("/terms/kerning/").text.contains("<h1 class=\"changed\">Kerning</h1>"))

        try site.replace("themes/default/templates/base.mustache", "<!doctype html><html><body class=\"new-base\">{{$content}}{{/content}}</body></html>\n")
        let all = try #require(await events.next("build"))
        let pages = try #require(running.first.result.outputs).paths.filter { $0.hasSuffix(".html") }
            .map { "/" + ($0.hasSuffix("index.html") ? String($0.dropLast("index.html".count)) : $0) }
        #expect(all.json["changed"] as? [String] == pages.sorted())
        #expect(try running.get("/").text.contains("new-base"))
        await running.stop()
    }

    @Test(arguments: [PreviewServer.WatchMode.automatic, .polling])
    func theWatcherFollowsNewFoldersRenamesAndDeletions(mode: PreviewServer.WatchMode) async throws {
        let site = try ServerTestSite()
        // Each step is several file operations: a debounce with room for a busy machine keeps each one build.
        let running = try await site.serve {
            $0.watchMode = mode
            $0.pollInterval = 0.05
            $0.debounce = 0.3
            $0.settled = 0.3
        }
        let events = try running.events()
        _ = await events.next("hello")

        try site.write("content/new/deeper/page.md", "---\ntitle: New\n---\nIn a new folder.\n")
        #expect(await events.next("build") != nil)
        #expect(try running.get("/new/deeper/page/").status == 200)
        // A file written later into the new folder is seen: the folder is watched now.
        try site.write("content/new/deeper/second.md", "Second.\n")
        #expect(await events.next("build") != nil)
        #expect(try running.get("/new/deeper/second/").status == 200)

        try site.move("content/new/deeper/page.md", "content/new/renamed.md")
        #expect(await events.next("build") != nil)
        #expect(try running.get("/new/deeper/page/").status == 404)
        #expect(try running.get("/new/renamed/").status == 200)

        try site.move("content/new", "content/moved")
        #expect(await events.next("build") != nil)
        #expect(try running.get("/moved/deeper/second/").status == 200)
        try site.write("content/moved/deeper/third.md", "Third.\n")
        #expect(await events.next("build") != nil)
        #expect(try running.get("/moved/deeper/third/").status == 200)

        try site.remove("content/moved")
        #expect(await events.next("build") != nil)
        #expect(try running.get("/moved/renamed/").status == 404)

        try site.replace("glossary.yml", "title: Renamed Glossary\n")
        #expect(await events.next("build") != nil)
        #expect(try running.get("/").text.contains("Renamed Glossary"))
        await running.stop()
    }

    @Test func editorTempFilesAndDotfilesStartNoBuild() async throws {
        let site = try ServerTestSite()
        let running = try await site.serve()
        let events = try running.events()
        _ = await events.next("hello")
        for name in [".intro.md.swp", "intro.md~", "4913", ".#intro.md", "#intro.md#", ".DS_Store"] {
            try site.write("content/guide/\(name)", "scratch\n")
        }
        try site.write("site/index.html", "not watched\n")
        // Then a real edit (an atomic save, so one change): the only change seen, and the only build after
        // the first.
        try site.replace("content/guide/intro.md", "---\ntitle: Intro\n---\nEdited.\n")
        #expect(await events.next("build") != nil)
        #expect(await running.reports.waitForBuilds(2))
        #expect(running.reports.changes == [["content/guide/intro.md"]])
        #expect(running.reports.builds == 2)
        await running.stop()
    }

    @Test func aBurstOfWritesIsOneBuild() async throws {
        let site = try ServerTestSite()
        let debounce = 0.5
        let running = try await site.serve {
            $0.debounce = debounce
            $0.settled = debounce
        }
        // As in FileWatcherTests: only a burst whose writes really came less than the debounce apart is judged.
        var judged = false
        for attempt in 0..<3 where !judged {
            let folder = "content/burst-\(attempt)"
            try site.write("\(folder)/index.md", "Burst \(attempt).\n")
            #expect(await running.reports.waitForChange(folder))
            let before = running.reports.changes.count
            let sources = (0..<50).map { "\(folder)/page-\($0).md" }
            let tight = try writeBurst(sources, in: site) < debounce / 2
            #expect(await running.reports.waitForChange(sources[0]))
            // A later edit is a batch of its own, and nothing of the burst is left for a second one.
            let sentinel = "content/guide/after-\(attempt).md"
            try site.write(sentinel, "After.\n")
            #expect(await running.reports.waitForChange(sentinel))
            guard tight else { continue }
            judged = true
            #expect(Array(running.reports.changes.dropFirst(before)) == [Set(sources), [sentinel]])
            #expect(await waitUntil(timeout: serverWait) { (try? running.get("/guide/after-\(attempt)/").status) == 200 })
            #expect(try running.get("/burst-\(attempt)/page-49/").status == 200)
        }
        #expect(judged, "three bursts in a row stalled for more than \(debounce / 2) s")
        await running.stop()
    }

    @Test func whenInotifyCannotWatchTheServerPollsAndSaysSoOnce() async throws {
        let site = try ServerTestSite()
        let running = try await site.serve {
            $0.inotifyWatchLimit = 1
            $0.pollInterval = 0.05
        }
        #expect(
            running.reports.warnings.map(\.description) == [
                "warning: can't watch files with inotify (inotify_add_watch .glossary: No space left on device — the system's limit on inotify watches (fs.inotify.max_user_watches) is reached); checking them for changes every 50 ms instead [watch-polling]"
            ])
        let events = try running.events()
        _ = await events.next("hello")
        try site.replace("content/guide/intro.md", "---\ntitle: Intro\n---\nSeen by polling.\n")
        #expect(await events.next("build") != nil)
        #expect(try running.get("/guide/intro/").text.contains("Seen by polling."))
        try site.write("content/new/page.md", "New.\n")
        #expect(await events.next("build") != nil)
        #expect(running.reports.warnings.count == 1)
        await running.stop()
    }

    @Test func theEventStreamOutlivesTheIdleTimeoutWithHeartbeats() async throws {
        let site = try ServerTestSite()
        let running = try await site.serve {
            $0.idleTimeoutSeconds = 1
            $0.heartbeat = 0.3
        }
        let events = try running.events()
        _ = await events.next("hello")
        // Eight heartbeats take 2.4 s, more than twice the idle timeout: the stream must still be open by then.
        let start = Date()
        #expect(await waitUntil(timeout: serverWait) { events.heartbeats >= 8 || events.isEnded })
        #expect(!events.isEnded)
        #expect(Date().timeIntervalSince(start) > 2)
        try site.replace("content/index.md", "After a long idle.\n")
        #expect(await events.next("build") != nil)
        await running.stop()
    }

    @Test func stoppingEndsEveryStreamAndClosesConnections() async throws {
        let site = try ServerTestSite()
        let running = try await site.serve()
        let streams = try (0..<5).map { _ in try running.events() }
        for stream in streams { _ = await stream.next("hello") }
        let idle = try RawHTTPClient(port: running.port)
        #expect(try idle.request("GET", "/").status == 200)
        await running.stop()
        #expect(running.server.events.clientCount == 0)
        for stream in streams {
            #expect(await stream.next(timeout: 2) == nil)
            #expect(stream.isEnded)
        }
        #expect(await idle.closedByServer())
        #expect((try? RawHTTPClient(port: running.port)) == nil)
        // The served folder is removed (by a process of its own, so the stop doesn't wait for it).
        let folder = running.server.folder.path
        let deadline = Date().addingTimeInterval(30)
        while FileManager.default.fileExists(atPath: folder) && Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(!FileManager.default.fileExists(atPath: folder), "the served folder is removed")
    }

    @Test func aDisconnectedBrowserIsForgottenAtOnce() async throws {
        let site = try ServerTestSite()
        // No heartbeat for a minute: only the server's watch on the socket can notice the browser leave.
        let running = try await site.serve { $0.heartbeat = 60 }
        let events = try running.events()
        _ = await events.next("hello")
        #expect(running.server.events.clientCount == 1)
        events.disconnect()
        let forgotten = await waitUntil(timeout: 2) { running.server.events.clientCount == 0 }
        #expect(forgotten)
        await running.stop()
    }

    @Test func eventStreamsBeyondTheLimitAreRefusedAndLeaveNoSubscriber() async throws {
        let site = try ServerTestSite()
        let running = try await site.serve { $0.streamLimit = 2 }
        let streams = try (0..<2).map { _ in try running.events() }
        for stream in streams { #expect(await stream.next("hello") != nil) }
        let refused = try running.get("/_glossary/events")
        #expect(refused.status == 503)
        #expect(refused.text.contains("at most 2 at once"))
        #expect(running.server.events.clientCount == 2)
        #expect(try running.get("/").status == 200)
        await running.stop()
    }

    @Test func theLiveReloadScriptIsInjectedOnlyWhenServing() async throws {
        let site = try ServerTestSite()
        let running = try await site.serve()
        let served = try running.get("/guide/intro/").text
        #expect(served.contains(#"<script src="/_glossary/live-reload.js" data-glossary-live-reload></script>"#))
        #expect(served.range(of: "data-glossary-live-reload")!.lowerBound < served.range(of: "</body>")!.lowerBound)
        let script = try running.get("/_glossary/live-reload.js")
        #expect(script.status == 200)
        #expect(script.header("Content-Type") == "text/javascript; charset=utf-8")
        #expect(script.text == LiveReload.script)
        let etag = try #require(script.header("ETag"))
        #expect(try running.get("/_glossary/live-reload.js", headers: ["If-None-Match: \(etag)"]).status == 304)
        #expect(try running.get("/_glossary/other").status == 404)
        await running.stop()
        let built = await SiteBuilder(options: site.options()).build(into: MemorySink())
        let output = try #require(built.output)
        #expect(!output.files.values.contains { String(decoding: $0, as: UTF8.self).contains("glossary-live-reload") })
    }
}
