import Foundation
import Testing

@testable import GlossaryServer

/// The inotify watcher driven step by step, without its thread, and its failures.
@Suite struct InotifyWatcherTests {
    static func watcher(_ site: ServerTestSite, paths: [String] = WatchScope.sitePaths) -> InotifyWatcher {
        InotifyWatcher(scope: WatchScope(root: site.root, paths: paths)) { _ in }
    }

    /// A watcher of `site`, opened, with whatever the site's making left queued read (not part of a test).
    static func opened(_ site: ServerTestSite) throws -> InotifyWatcher {
        let watcher = Self.watcher(site)
        try watcher.open()
        var buffer = [UInt8](repeating: 0, count: 65536)
        _ = watcher.readAvailable(into: &buffer)
        return watcher
    }

    @Test func anEventQueueOverflowRescansAndWatchesWhatAppearedMeanwhile() throws {
        let site = try ServerTestSite()
        let watcher = Self.watcher(site)
        try watcher.open()
        defer { watcher.stop() }
        var buffer = [UInt8](repeating: 0, count: 65536)
        _ = watcher.readAvailable(into: &buffer)

        // Pretend the kernel dropped events while a folder was created: its events are lost.
        var overflow = inotify_event()
        overflow.wd = -1
        overflow.mask = UInt32(IN_Q_OVERFLOW)
        let bytes = withUnsafeBytes(of: &overflow) { Array($0) }
        try site.write("content/appeared/page.md", "Hello.\n")
        watcher.discardAvailable()
        try site.write("content/appeared/lost.md", "Unseen.\n")
        #expect(watcher.readAvailable(into: &buffer).paths.isEmpty)
        #expect(watcher.handle(bytes[...]) == InotifyWatcher.Changes(paths: ["*"]))

        // After the rescan the new folder is watched.
        try site.write("content/appeared/second.md", "Again.\n")
        #expect(watcher.readAvailable(into: &buffer).paths.contains("content/appeared/second.md"))
    }

    @Test func reportsTheRightPathsAndIgnoresEditorFiles() throws {
        let site = try ServerTestSite()
        let watcher = try Self.opened(site)
        defer { watcher.stop() }
        var buffer = [UInt8](repeating: 0, count: 65536)
        try site.write("content/guide/intro.md", "Changed.\n")
        try site.write("content/guide/.intro.md.swp", "x")
        try site.write("content/guide/intro.md~", "x")
        try site.write("content/guide/4913", "x")
        try site.write("notes.txt", "not watched")
        try site.write("glossary.yml", "title: Changed\n")
        try site.write("themes/default/templates/page.mustache", "{{page.title}}\n")
        #expect(watcher.readAvailable(into: &buffer).paths == ["content/guide/intro.md", "glossary.yml", "themes/default/templates/page.mustache"])

        try site.move("content/guide", "content/manual")
        #expect(watcher.readAvailable(into: &buffer).paths == ["content/guide", "content/manual"])
        try site.write("content/manual/new.md", "New.\n")
        #expect(watcher.readAvailable(into: &buffer).paths == ["content/manual/new.md"])
        try site.remove("content/manual")
        #expect(watcher.readAvailable(into: &buffer).paths.contains("content/manual"))
    }

    /// A file closed after writing, or moved into place, completes a write (an editor's save ends so); anything
    /// after it, or else, leaves the path being written.
    @Test func saysWhichPathsWereLastSeenCompletingAWrite() throws {
        let site = try ServerTestSite()
        let watcher = try Self.opened(site)
        defer { watcher.stop() }
        var buffer = [UInt8](repeating: 0, count: 65536)
        try site.write("content/guide/intro.md", "Written in place.\n")
        try site.replace("content/index.md", "Moved into place.\n")
        let saved = watcher.readAvailable(into: &buffer)
        #expect(saved.paths == ["content/guide/intro.md", "content/index.md"])
        #expect(saved.completed == saved.paths)
        // Written, then renamed away: the name's last change is a removal.
        try site.write("content/guide/intro.md", "Again.\n")
        try site.move("content/guide/intro.md", "content/guide/moved.md")
        try site.remove("content/index.md")
        try site.write("content/fresh/page.md", "In a new folder.\n")
        let rest = watcher.readAvailable(into: &buffer)
        #expect(rest.paths == ["content/guide/intro.md", "content/guide/moved.md", "content/index.md", "content/fresh"])
        #expect(rest.completed == ["content/guide/moved.md"])
        // A file opened for writing and not yet closed is being written.
        let handle = try FileHandle(forWritingTo: site.url("content/guide/moved.md"))
        try handle.write(contentsOf: Data("more".utf8))
        #expect(watcher.readAvailable(into: &buffer) == InotifyWatcher.Changes(paths: ["content/guide/moved.md"]))
        try handle.close()
        #expect(watcher.readAvailable(into: &buffer) == InotifyWatcher.Changes(paths: ["content/guide/moved.md"], completed: ["content/guide/moved.md"]))
    }

    @Test func theWatchLimitAtTheStartIsAFailureThatSaysSo() throws {
        let site = try ServerTestSite()
        let watcher = Self.watcher(site)
        watcher.watchLimit = 2
        #expect(
            throws: WatchFailure(
                "inotify_add_watch content/glossary: No space left on device — the system's limit on inotify watches (fs.inotify.max_user_watches) is reached"
            )
        ) {
            try watcher.start()
        }
        watcher.stop()
    }

    @Test func theWatchLimitReachedWhileRunningStopsTheWatcherAndSaysSo() async throws {
        let site = try ServerTestSite()
        let failures = FileWatcherTests.Batches()
        let watcher = InotifyWatcher(scope: WatchScope(root: site.root), onChange: { _ in }, onFailure: { failures.record([$0.description]) })
        try watcher.open()
        let watches = watcher.watchCount
        watcher.stop()
        watcher.watchLimit = watches
        try watcher.start()
        defer { watcher.stop() }
        try site.write("content/unwatchable/page.md", "x\n")
        let failure = try #require(await failures.next())
        #expect(
            failure == [
                "inotify_add_watch content/unwatchable: No space left on device — the system's limit on inotify watches (fs.inotify.max_user_watches) is reached"
            ])
    }

    @Test func aFolderThatVanishesBeforeItsWatchIsNoFailure() throws {
        let site = try ServerTestSite()
        let watcher = Self.watcher(site, paths: ["content", "missing/deeper", "glossary.yml"])
        try watcher.open()
        watcher.stop()
    }
}
