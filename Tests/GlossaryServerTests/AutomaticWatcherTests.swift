import Foundation
import GlossaryKit
import Testing

@testable import GlossaryServer

/// inotify when it can be had, polling when not — said once.
@Suite struct AutomaticWatcherTests {
    final class Warnings: @unchecked Sendable {
        private let lock = NSLock()
        private var received: [Diagnostic] = []
        func record(_ warning: Diagnostic) { lock.withLock { received.append(warning) } }
        var all: [Diagnostic] { lock.withLock { received } }
    }

    static func watcher(_ site: ServerTestSite, watchLimit: Int?) -> (AutomaticWatcher, FileWatcherTests.Batches, Warnings) {
        let batches = FileWatcherTests.Batches()
        let warnings = Warnings()
        let watcher = AutomaticWatcher(scope: WatchScope(root: site.root), pollInterval: 0.02, onChange: batches.record, onFallback: warnings.record)
        watcher.inotifyWatchLimit = watchLimit
        return (watcher, batches, warnings)
    }

    @Test func usesInotifyWhenItCan() async throws {
        let site = try ServerTestSite()
        let (watcher, batches, warnings) = Self.watcher(site, watchLimit: nil)
        watcher.start()
        defer { watcher.stop() }
        #expect(!watcher.isPolling)
        try site.write("content/guide/intro.md", "Changed.\n")
        // The write's batch, which a batch of what the site's making left queued may precede on a loaded machine (as
        // `InotifyWatcherTests` found): such a batch is shown, not judged.
        var batch = await batches.next()
        while let seen = batch, !seen.contains("content/guide/intro.md") {
            print("AutomaticWatcherTests: a batch before the write's: \(seen.sorted())")
            batch = await batches.next()
        }
        #expect(batch == ["content/guide/intro.md"])
        #expect(warnings.all.isEmpty)
    }

    @Test func fallsBackToPollingWhenTheWatchLimitIsReachedAtTheStart() async throws {
        let site = try ServerTestSite()
        let (watcher, batches, warnings) = Self.watcher(site, watchLimit: 1)
        watcher.start()
        defer { watcher.stop() }
        #expect(watcher.isPolling)
        #expect(
            warnings.all.map(\.description) == [
                "warning: can't watch files with inotify (inotify_add_watch content: No space left on device — the system's limit on inotify watches (fs.inotify.max_user_watches) is reached); checking them for changes every 20 ms instead [watch-polling]"
            ])
        try site.write("content/guide/intro.md", "Changed.\n")
        #expect(await batches.next() == ["content/guide/intro.md"])
        try site.write("content/new/page.md", "New.\n")
        #expect(await batches.next() == ["content/new"])
        #expect(warnings.all.count == 1)
    }

    @Test func fallsBackToPollingWhenAFolderCannotBeWatchedLater() async throws {
        let site = try ServerTestSite()
        let probe = InotifyWatcher(scope: WatchScope(root: site.root)) { _ in }
        try probe.open()
        let watches = probe.watchCount
        probe.stop()
        let (watcher, batches, warnings) = Self.watcher(site, watchLimit: watches)
        watcher.start()
        defer { watcher.stop() }
        #expect(!watcher.isPolling)

        // A folder moved in whole can't be watched: whatever happened meanwhile is unknown, so everything changed.
        try site.write("staging/unwatchable/page.md", "x\n")
        try site.move("staging/unwatchable", "content/unwatchable")
        #expect(await batches.next() == ["*"])
        #expect(watcher.isPolling)
        #expect(warnings.all.count == 1)
        #expect(warnings.all.first?.message.contains("inotify_add_watch content/unwatchable: No space left on device") == true)
        // From now on polling sees every change, in the new folder too.
        try site.write("content/unwatchable/second.md", "y\n")
        #expect(await batches.next() == ["content/unwatchable/second.md"])
        try site.write("content/more/page.md", "z\n")
        #expect(await batches.next() == ["content/more"])
        #expect(warnings.all.count == 1)
    }
}
