import Foundation
import Testing

@testable import GlossaryServer

/// The watcher driven step by step, without its thread.
@Suite struct FileWatcherTests {
    @Test func anEventQueueOverflowRescansAndWatchesWhatAppearedMeanwhile() throws {
        let site = try ServerTestSite()
        let watcher = FileWatcher(root: site.root) { _ in }
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
        #expect(watcher.readAvailable(into: &buffer).isEmpty)
        #expect(watcher.handle(bytes[...]) == ["*"])

        // After the rescan the new folder is watched.
        try site.write("content/appeared/second.md", "Again.\n")
        #expect(watcher.readAvailable(into: &buffer).contains("content/appeared/second.md"))
    }

    @Test func reportsTheRightPathsAndIgnoresEditorFiles() throws {
        let site = try ServerTestSite()
        let watcher = FileWatcher(root: site.root) { _ in }
        try watcher.open()
        defer { watcher.stop() }
        var buffer = [UInt8](repeating: 0, count: 65536)
        try site.write("content/guide/intro.md", "Changed.\n")
        try site.write("content/guide/.intro.md.swp", "x")
        try site.write("content/guide/intro.md~", "x")
        try site.write("content/guide/4913", "x")
        try site.write("notes.txt", "not watched")
        try site.write("glossary.yml", "title: Changed\n")
        try site.write("themes/default/templates/page.mustache", "{{page.title}}\n")
        #expect(watcher.readAvailable(into: &buffer) == ["content/guide/intro.md", "glossary.yml", "themes/default/templates/page.mustache"])

        try site.move("content/guide", "content/manual")
        #expect(watcher.readAvailable(into: &buffer) == ["content/guide", "content/manual"])
        try site.write("content/manual/new.md", "New.\n")
        #expect(watcher.readAvailable(into: &buffer) == ["content/manual/new.md"])
        try site.remove("content/manual")
        #expect(watcher.readAvailable(into: &buffer).contains("content/manual"))
    }

    @Test(arguments: [".intro.md.swp", ".intro.md.swx", "intro.md~", "4913", ".#intro.md", "#intro.md#", ".DS_Store"])
    func editorTemporaryFilesAreIgnored(name: String) {
        #expect(FileWatcher.isIgnored(name))
    }

    @Test(arguments: ["intro.md", "logo.svg", "swp.md", "a~b.md", "49134"])
    func ordinaryFilesAreNot(name: String) {
        #expect(!FileWatcher.isIgnored(name))
    }
}
