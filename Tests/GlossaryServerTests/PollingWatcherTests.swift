import Foundation
import Testing

@testable import GlossaryServer

/// The polling watcher's looks, driven one pass at a time.
@Suite struct PollingWatcherTests {
    static func watcher(_ site: ServerTestSite) -> PollingWatcher {
        PollingWatcher(scope: WatchScope(root: site.root)) { _ in }
    }

    @Test func aLookFindsEveryWatchedFileAndNothingElse() throws {
        let site = try ServerTestSite()
        try site.write("content/guide/.intro.md.swp", "x")
        try site.write("notes.txt", "x")
        let watcher = Self.watcher(site)
        _ = watcher.pass()
        let found = watcher.snapshot()
        #expect(found.keys.contains("content/guide/intro.md"))
        #expect(found.keys.contains("content/guide"))
        #expect(found.keys.contains("glossary.yml"))
        #expect(found.keys.contains("themes/default/templates/page.mustache"))
        #expect(!found.keys.contains { $0.hasSuffix(".swp") || $0 == "notes.txt" || $0.isEmpty })
        #expect(found.keys.allSatisfy { WatchScope(root: site.root).contains($0) })
    }

    @Test func aTouchIsAChangeAndAFolderOnlyWhenReplaced() throws {
        let site = try ServerTestSite()
        let watcher = Self.watcher(site)
        _ = watcher.pass()
        #expect(watcher.pass().isEmpty)
        // Only the times change.
        var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, site.url("content/index.md").path, &times, 0) == 0)
        #expect(watcher.pass() == ["content/index.md"])
        // A folder's own times change with its entries; the entries are what is reported.
        try site.write("content/guide/new.md", "x")
        #expect(watcher.pass() == ["content/guide/new.md"])
        try site.move("content/guide", "content/old")
        try FileManager.default.createDirectory(at: site.url("content/guide"), withIntermediateDirectories: false)
        let replaced = watcher.pass()
        #expect(replaced.contains("content/guide"))
        #expect(ChangeBatcher.collapse(replaced) == ["content/guide", "content/old"])
    }

    @Test func changesAreFoundWhereverTheFolderListsThem() throws {
        let site = try ServerTestSite()
        for index in 0..<200 { try site.write("content/many/page-\(index).md", "\(index)\n") }
        let watcher = Self.watcher(site)
        _ = watcher.pass()
        #expect(watcher.pass().isEmpty)
        // Entries gone, new and renamed shift what comes where in the listing.
        for index in [0, 1, 57, 199] { try site.remove("content/many/page-\(index).md") }
        for index in 200..<205 { try site.write("content/many/page-\(index).md", "\(index)\n") }
        try site.move("content/many/page-100.md", "content/many/renamed.md")
        try site.write("content/many/page-150.md", "changed\n")
        let expected = Set([0, 1, 57, 199, 200, 201, 202, 203, 204, 100, 150].map { "content/many/page-\($0).md" } + ["content/many/renamed.md"])
        #expect(watcher.pass() == expected)
        #expect(watcher.pass().isEmpty)
        #expect(watcher.snapshot().keys.count { $0.hasPrefix("content/many/") } == 200 - 4 + 5)
    }

    @Test func aSymlinkedFolderIsNotFollowed() throws {
        let site = try ServerTestSite()
        try FileManager.default.createSymbolicLink(at: site.url("content/linked"), withDestinationURL: site.sandbox.appendingPathComponent("private"))
        let watcher = Self.watcher(site)
        _ = watcher.pass()
        let found = watcher.snapshot()
        #expect(found["content/linked"]?.isFolder == false)
        #expect(!found.keys.contains { $0.hasPrefix("content/linked/") })
    }
}
