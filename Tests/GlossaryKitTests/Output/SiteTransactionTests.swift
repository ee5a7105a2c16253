import Foundation
import Synchronization
import TestSupport
import Testing

@testable import GlossaryKit

/// Writing a new version of an output folder beside it and swapping it in whole.
@Suite struct SiteTransactionTests {
    let parent: URL
    var output: URL { parent.appendingPathComponent("site") }

    init() throws {
        parent = try InlineSite.temporaryFolder("glossary-transaction")
    }

    func read(_ path: String, in folder: URL? = nil) -> String? {
        FileManager.default.contents(atPath: (folder ?? output).appendingPathComponent(path).path).map { String(decoding: $0, as: UTF8.self) }
    }

    func write(_ transaction: SiteTransaction, _ files: [String: String]) throws {
        for (path, text) in files {
            let data = Data(text.utf8)
            try transaction.write(path, data, fingerprint: Fingerprint.of(bytes: data), bytesHash: Fingerprint.of(bytes: data))
        }
        _ = try transaction.finish(paths: Set(files.keys))
    }

    @Test func replacesTheOutputWholeAndKeepsTopLevelDotfiles() throws {
        defer { try? FileManager.default.removeItem(at: parent) }
        try InlineSite.write(["site/old/index.html": "stale", "site/.gitkeep": "", "site/.git/HEAD": "ref: gh-pages\n"], into: parent)
        let transaction = try SiteTransaction(output: output)
        try write(transaction, ["index.html": "<p>new</p>", "a/b/index.html": "deep"])
        try transaction.commit()
        #expect(read("old/index.html") == nil)
        #expect(read("a/b/index.html") == "deep")
        #expect(read(".gitkeep") == "")
        #expect(read(".git/HEAD") == "ref: gh-pages\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path).sorted() == [".site.previous", "site"])
        // An old site no state knew is no use to the next build: the previous folder is the new site's files, linked.
        let previous = parent.appendingPathComponent(".site.previous")
        #expect(read("old/index.html", in: previous) == nil && read("a/b/index.html", in: previous) == "deep")
        #expect(
            FileSignature(path: previous.appendingPathComponent("a/b/index.html").path)?.identity
                == FileSignature(path: output.appendingPathComponent("a/b/index.html").path)?.identity)
        #expect(read(".git/HEAD", in: previous) == nil, "the dotfiles are the new site's only")
        #expect(transaction.committed().previous?.outputs.keys.sorted() == ["a/b/index.html", "index.html"])
    }

    /// The previous folder of links is made as the files are written; when a link of it can't be made (here a file
    /// stands where one of its folders goes), the commit links the whole tree afresh instead.
    @Test func aPreviousFolderThatCouldNotBeLinkedAlongIsLinkedAtTheCommit() throws {
        defer { try? FileManager.default.removeItem(at: parent) }
        let transaction = try SiteTransaction(output: output)
        let first = Data("top".utf8)
        try transaction.write("index.html", first, fingerprint: .zero, bytesHash: Fingerprint.of(bytes: first))
        let linking = parent.appendingPathComponent(".site.linking-\(getpid())")
        #expect(read("index.html", in: linking) == "top", "linked as it was written")
        try Data("in the way".utf8).write(to: linking.appendingPathComponent("a"))
        try write(transaction, ["a/b/index.html": "deep"])
        try transaction.commit()
        let previous = parent.appendingPathComponent(".site.previous")
        for path in ["index.html", "a/b/index.html"] {
            #expect(
                FileSignature(path: previous.appendingPathComponent(path).path)?.identity
                    == FileSignature(path: output.appendingPathComponent(path).path)?.identity, "\(path) is a link to the live file")
        }
        #expect(read("a", in: previous) == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path).sorted() == [".site.previous", "site"])
    }

    /// With a state that knows the old site, the old site itself waits as the previous folder.
    @Test func aKnownOldSiteWaitsAsThePreviousFolder() throws {
        defer { try? FileManager.default.removeItem(at: parent) }
        let state = BuildState()
        let first = try SiteTransaction(output: output, state: state)
        try write(first, ["old/index.html": "stale"])
        try first.commit()
        state.written(first.committed())
        try InlineSite.write(["site/.git/HEAD": "ref: gh-pages\n"], into: parent)
        let second = try SiteTransaction(output: output, state: state)
        try write(second, ["index.html": "new"])
        try second.commit()
        let previous = parent.appendingPathComponent(".site.previous")
        #expect(read("old/index.html", in: previous) == "stale", "the old site waits for the next build")
        #expect(read(".git/HEAD") == "ref: gh-pages\n" && read(".git/HEAD", in: previous) == nil, "its dotfiles moved into the new site")
        #expect(second.committed().previous?.outputs.keys.sorted() == ["old/index.html"])
    }

    @Test func anAbandonedTransactionLeavesTheOldOutputUntouched() throws {
        defer { try? FileManager.default.removeItem(at: parent) }
        try InlineSite.write(["site/index.html": "old"], into: parent)
        let transaction = try SiteTransaction(output: output)
        let data = Data("new".utf8)
        try transaction.write("index.html", data, fingerprint: .zero, bytesHash: .zero)
        #expect(throws: OutputFailure.self) {
            try transaction.copy("missing.png", from: parent.appendingPathComponent("nope.png"), fingerprint: .zero, bytesHash: .zero)
        }
        transaction.abandon()
        #expect(read("index.html") == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path) == ["site"])
    }

    @Test func theSwapIsOneExchangeSoTheSiteIsNeverMissing() async throws {
        defer { try? FileManager.default.removeItem(at: parent) }
        try InlineSite.write(["site/index.html": "v0"], into: parent)
        // A reader checks all along that index.html exists while builds replace the site.
        let stop = Mutex(false)
        let misses = Mutex(0)
        let checks = Mutex(0)
        let reader = Thread { [output] in
            let path = output.appendingPathComponent("index.html").path
            while !stop.withLock({ $0 }) {
                if access(path, F_OK) != 0 { misses.withLock { $0 += 1 } }
                checks.withLock { $0 += 1 }
            }
        }
        reader.start()
        for version in 1...40 {
            let transaction = try SiteTransaction(output: output)
            try write(transaction, ["index.html": "v\(version)", "page/index.html": "p\(version)"])
            try transaction.commit()
        }
        stop.withLock { $0 = true }
        while !reader.isFinished { try await Task.sleep(for: .milliseconds(1)) }
        #expect(read("index.html") == "v40")
        #expect(checks.withLock { $0 } > 0)
        #expect(misses.withLock { $0 } == 0)
    }

    @Test func leftoversOfDeadBuildsAreRemovedButTheirDotfilesAreNot() throws {
        defer { try? FileManager.default.removeItem(at: parent) }
        try InlineSite.write(
            [
                "site/index.html": "live", ".site.building-99999998/half.html": "partial", ".site.old-99999999/.git/HEAD": "ref: old\n",
                ".site.old-99999999/index.html": "older",
            ], into: parent)
        let transaction = try SiteTransaction(output: output)
        try write(transaction, ["index.html": "new"])
        try transaction.commit()
        let names = try FileManager.default.contentsOfDirectory(atPath: parent.path).sorted()
        #expect(names == [".site.previous", "site"])
        #expect(read(".git/HEAD") == "ref: old\n", "a dead build's old site held the .git: it was carried over, not deleted")
    }

    @Test func theStateLetsTheNextBuildUpdateThePreviousSiteInPlace() throws {
        defer { try? FileManager.default.removeItem(at: parent) }
        let state = BuildState()
        func build(_ files: [String: String]) throws -> SiteTransaction {
            let transaction = try SiteTransaction(output: output, state: state)
            for (path, text) in files {
                let data = Data(text.utf8)
                let fingerprint = Fingerprint.of(bytes: data)
                if try !transaction.keep(path, fingerprint: fingerprint) {
                    try transaction.write(path, data, fingerprint: fingerprint, bytesHash: fingerprint)
                }
            }
            _ = try transaction.finish(paths: Set(files.keys))
            try transaction.commit()
            state.written(transaction.committed())
            return transaction
        }
        _ = try build(["a/index.html": "a1", "b/index.html": "b1"])
        let second = try build(["a/index.html": "a2", "b/index.html": "b1"])
        #expect(second.reusedPrevious, "the first build left a previous folder of links to its files")
        #expect(read("a/index.html", in: parent.appendingPathComponent(".site.previous")) == "a1", "a1 is the first build's, not in place")
        let third = try build(["a/index.html": "a2", "b/index.html": "b1", "c/index.html": "c1"])
        #expect(third.reusedPrevious, "the site of the first build became the staging folder")
        #expect(read("a/index.html") == "a2")
        #expect(read("b/index.html") == "b1")
        #expect(read("c/index.html") == "c1")
        let fourth = try build(["a/index.html": "a2", "c/index.html": "c1"])
        #expect(fourth.reusedPrevious)
        #expect(read("b/index.html") == nil, "a removed output is gone from the updated folder")
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).sorted() == ["a", "c"], "and so is its empty folder")
        // A file edited by hand in the previous folder is not trusted: it is written again.
        try Data("tampered".utf8).write(to: parent.appendingPathComponent(".site.previous/a/index.html"))
        _ = try build(["a/index.html": "a2", "c/index.html": "c1"])
        #expect(read("a/index.html") == "a2")
    }
}
