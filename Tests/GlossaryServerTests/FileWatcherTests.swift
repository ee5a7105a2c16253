import Foundation
import Testing

@testable import GlossaryServer

/// Every `FileWatcher` against the same edits, running on its own thread: the same batches from inotify
/// and from polling.
@Suite struct FileWatcherTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case inotify, polling
        var testDescription: String { rawValue }
    }

    /// The batches a watcher reports, to wait on one at a time.
    final class Batches: @unchecked Sendable {
        private let condition = NSCondition()
        private var received: [Set<String>] = []

        func record(_ batch: Set<String>) {
            condition.withLock {
                received.append(batch)
                condition.broadcast()
            }
        }

        /// The next batch not yet taken, or nil after `timeout` seconds.
        func next(timeout: TimeInterval = 10) async -> Set<String>? {
            await blocking {
                let deadline = Date(timeIntervalSinceNow: timeout)
                self.condition.lock()
                defer { self.condition.unlock() }
                while self.received.isEmpty {
                    if !self.condition.wait(until: deadline) { return nil }
                }
                return self.received.removeFirst()
            }
        }
    }

    /// A started watcher of `kind` over `site`, polling every 20 ms; stop it at the end. The debounce is longer
    /// than the watchers' default: on a machine shared by many (a full test run on two cores), this test's own
    /// writes and removals can stall for several hundred milliseconds, which would rightly split one step into two
    /// batches. A batch of completed writes waits as long (`settled`): each step is judged as one batch.
    static func watch(
        _ kind: Kind, _ site: ServerTestSite, paths: [String] = WatchScope.sitePaths, debounce: TimeInterval = 1
    ) throws -> (any FileWatcher, Batches) {
        let batches = Batches()
        let scope = WatchScope(root: site.root, paths: paths)
        let watcher: any FileWatcher =
            switch kind {
            case .inotify: InotifyWatcher(scope: scope, debounce: debounce, settled: debounce, onChange: batches.record)
            case .polling: PollingWatcher(scope: scope, interval: 0.02, debounce: debounce, onChange: batches.record)
            }
        try watcher.start()
        return (watcher, batches)
    }

    @Test(arguments: Kind.allCases)
    func aWriteIsReportedAsTheFilesPath(kind: Kind) async throws {
        let site = try ServerTestSite()
        let (watcher, batches) = try Self.watch(kind, site)
        defer { watcher.stop() }
        try site.write("content/guide/intro.md", "Changed.\n")
        #expect(await batches.next() == ["content/guide/intro.md"])
        // The same size again: the times tell.
        try site.write("content/guide/intro.md", "Chan9ed.\n")
        #expect(await batches.next() == ["content/guide/intro.md"])
        try site.write("glossary.yml", "title: Changed\n")
        #expect(await batches.next() == ["glossary.yml"])
        try site.write("themes/default/templates/page.mustache", "{{page.title}}\n")
        #expect(await batches.next() == ["themes/default/templates/page.mustache"])
    }

    @Test(arguments: Kind.allCases)
    func filesCreatedDeletedAndRenamed(kind: Kind) async throws {
        let site = try ServerTestSite()
        let (watcher, batches) = try Self.watch(kind, site)
        defer { watcher.stop() }
        try site.write("content/guide/new.md", "New.\n")
        #expect(await batches.next() == ["content/guide/new.md"])
        try site.move("content/guide/new.md", "content/guide/renamed.md")
        #expect(await batches.next() == ["content/guide/new.md", "content/guide/renamed.md"])
        try site.remove("content/guide/renamed.md")
        #expect(await batches.next() == ["content/guide/renamed.md"])
        // An editor's atomic save: a temporary file (ignored) renamed over the original.
        try site.write("content/guide/.intro.md.tmp", "Saved.\n")
        try site.move("content/guide/.intro.md.tmp", "content/guide/intro.md")
        #expect(await batches.next() == ["content/guide/intro.md"])
    }

    @Test(arguments: Kind.allCases)
    func aNewFolderWithFilesAlreadyInItIsReportedAndThenWatched(kind: Kind) async throws {
        let site = try ServerTestSite()
        let (watcher, batches) = try Self.watch(kind, site)
        defer { watcher.stop() }
        try site.write("content/new/deeper/page.md", "In a new folder.\n")
        #expect(await batches.next() == ["content/new"])
        try site.write("content/new/deeper/second.md", "Second.\n")
        #expect(await batches.next() == ["content/new/deeper/second.md"])
    }

    @Test(arguments: Kind.allCases)
    func aFolderRenamedWithFilesInsideIsBothNamesAndStaysWatched(kind: Kind) async throws {
        let site = try ServerTestSite()
        try site.write("content/guide/deeper/more.md", "More.\n")
        let (watcher, batches) = try Self.watch(kind, site)
        defer { watcher.stop() }
        try site.move("content/guide", "content/manual")
        #expect(await batches.next() == ["content/guide", "content/manual"])
        try site.write("content/manual/deeper/new.md", "New.\n")
        #expect(await batches.next() == ["content/manual/deeper/new.md"])
        // Moved out of the watched paths, then back in.
        try site.move("content/manual", "elsewhere")
        #expect(await batches.next() == ["content/manual"])
        try site.move("elsewhere", "content/back")
        #expect(await batches.next() == ["content/back"])
        try site.write("content/back/intro.md", "Back.\n")
        #expect(await batches.next() == ["content/back/intro.md"])
    }

    @Test(arguments: Kind.allCases)
    func aDeletedFolderIsOneChange(kind: Kind) async throws {
        let site = try ServerTestSite()
        try site.write("content/guide/deeper/more.md", "More.\n")
        let (watcher, batches) = try Self.watch(kind, site)
        defer { watcher.stop() }
        try site.remove("content/guide")
        #expect(await batches.next() == ["content/guide"])
        try site.write("content/guide/again.md", "Again.\n")
        #expect(await batches.next() == ["content/guide"])
    }

    @Test(arguments: Kind.allCases)
    func editorFilesDotfilesAndUnwatchedPathsAreIgnored(kind: Kind) async throws {
        let site = try ServerTestSite()
        let (watcher, batches) = try Self.watch(kind, site)
        defer { watcher.stop() }
        for name in [".intro.md.swp", ".intro.md.swx", "intro.md~", "4913", ".#intro.md", "#intro.md#", ".DS_Store"] {
            try site.write("content/guide/\(name)", "scratch\n")
        }
        try site.write("content/.svn/entries", "not watched\n")
        try site.write("content/guide/.intro.md.tmp", "an atomic save's temporary file\n")
        try site.write("notes.txt", "not watched\n")
        try site.write("site/index.html", "not watched\n")
        try site.write("themes/.git/HEAD", "not watched\n")
        // Whatever came of the writes above would be in this batch or an earlier one.
        try site.write("content/guide/intro.md", "Changed.\n")
        #expect(await batches.next() == ["content/guide/intro.md"])
    }

    @Test(arguments: Kind.allCases)
    func aBurstOfWritesIsOneBatch(kind: Kind) async throws {
        let site = try ServerTestSite()
        let debounce = 1.0
        let (watcher, batches) = try Self.watch(kind, site, debounce: debounce)
        defer { watcher.stop() }
        // One batch is promised for writes less than the debounce apart: an attempt where this test's own
        // writes stalled longer (a busy machine) proves nothing, and is made again in a fresh folder.
        var judged = false
        for attempt in 0..<3 where !judged {
            let paths = (0..<50).map { "content/guide/burst-\(attempt)/page-\($0).md" }
            try site.write("content/guide/burst-\(attempt)/.keep", "")
            // The new folder seen (on a busy machine a late event of the site's making may share its batch): the
            // burst below is what is judged.
            var seen: [Set<String>] = []
            while seen.last?.contains("content/guide/burst-\(attempt)") != true, let batch = await batches.next(timeout: 30) { seen.append(batch) }
            #expect(seen.last?.contains("content/guide/burst-\(attempt)") == true, "\(seen)")
            let worstGap = try writeBurst(paths, in: site)
            let sentinel = "content/guide/after-\(attempt).md"
            guard worstGap < debounce / 2 else {
                try site.write(sentinel, "x\n")
                while let batch = await batches.next(), !batch.contains(sentinel) {}
                continue
            }
            judged = true
            #expect(await batches.next() == Set(paths))
            // Nothing of the burst is left for a second batch.
            try site.write(sentinel, "x\n")
            #expect(await batches.next() == [sentinel])
        }
        #expect(judged, "three bursts in a row stalled for more than \(debounce / 2) s")
    }

    @Test(arguments: Kind.allCases)
    func aDeepWatchedPathIsSeenToAppear(kind: Kind) async throws {
        let site = try ServerTestSite()
        let (watcher, batches) = try Self.watch(kind, site, paths: WatchScope.sitePaths + [".glossary/cache"])
        defer { watcher.stop() }
        try site.write(".glossary/cache/en/kerning.json", "{}\n")
        #expect(await batches.next() == [".glossary"])
        try site.write(".glossary/cache/en/leading.json", "{}\n")
        #expect(await batches.next() == [".glossary/cache/en/leading.json"])
        // Beside the watched path, in a folder on the way to it: not watched.
        try site.write(".glossary/lock", "x\n")
        try site.write(".glossary/other/file", "x\n")
        try site.write(".glossary/cache/en/leading.json", "{\"changed\": true}\n")
        #expect(await batches.next() == [".glossary/cache/en/leading.json"])
    }

    @Test(arguments: Kind.allCases)
    func aWatchedFolderThatIsMissingAtFirstIsSeenToAppear(kind: Kind) async throws {
        let site = try ServerTestSite()
        try site.remove("themes")
        let (watcher, batches) = try Self.watch(kind, site)
        defer { watcher.stop() }
        try site.write("themes/default/assets/site.css", "body {}\n")
        #expect(await batches.next() == ["themes"])
        try site.write("themes/default/assets/site.css", "body { color: red; }\n")
        #expect(await batches.next() == ["themes/default/assets/site.css"])
    }
}

/// Writes a line to each of `paths`, one after another as fast as it can, and returns the longest time
/// between two writes (long when the machine is busy).
func writeBurst(_ paths: [String], in site: ServerTestSite) throws -> TimeInterval {
    var last = ContinuousClock.now
    var worst = 0.0
    for path in paths {
        try site.write(path, "\(path)\n")
        let now = ContinuousClock.now
        worst = max(worst, SlowlorisSwarm.seconds(last.duration(to: now)))
        last = now
    }
    return worst
}
