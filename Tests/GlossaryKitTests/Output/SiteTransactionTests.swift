import Foundation
import Synchronization
import TestSupport
import Testing

@testable import GlossaryKit

/// Writing a new version of an output folder beside it and swapping it in whole.
@Suite struct SiteTransactionTests {
    let parent: URL
    var output: URL { parent.appendingPathComponent("site") }
    var previous: URL { parent.appendingPathComponent(".site.previous") }

    init() throws {
        parent = try InlineSite.temporaryFolder("glossary-transaction")
    }

    func read(_ path: String, in folder: URL? = nil) -> String? {
        FileManager.default.contents(atPath: (folder ?? output).appendingPathComponent(path).path).map { String(decoding: $0, as: UTF8.self) }
    }

    func identity(_ path: String, in folder: URL) -> FileSignature.Identity? {
        FileSignature(path: folder.appendingPathComponent(path).path)?.identity
    }

    /// One build of `files` into the output, from `state` (what the last one left), keeping each file whose
    /// fingerprint (its bytes') the state has, after `beforeWriting`: the transaction and the state it leaves.
    func build(
        _ files: [String: String], from state: BuildState?, beforeWriting: (SiteTransaction) throws -> Void = { _ in }
    ) throws -> (SiteTransaction, BuildState) {
        let transaction = SiteTransaction(output: output)
        _ = transaction.start(from: state, jobs: 2)
        try beforeWriting(transaction)
        for (path, text) in files {
            let data = Data(text.utf8)
            if try !transaction.keep(path, fingerprint: .of(bytes: data)) { try transaction.write(path, data, fingerprint: .of(bytes: data), slots: nil) }
        }
        _ = try transaction.finish(paths: Set(files.keys))
        return (transaction, try transaction.commit(BuildState(context: .zero), jobs: 2))
    }

    @Test func replacesTheOutputWholeAndKeepsTopLevelDotfiles() throws {
        defer { try? FileManager.default.removeItem(at: parent) }
        try InlineSite.write(["site/old/index.html": "stale", "site/.gitkeep": "", "site/.git/HEAD": "ref: gh-pages\n"], into: parent)
        let (_, state) = try build(["index.html": "<p>new</p>", "a/b/index.html": "deep"], from: nil)
        #expect(read("old/index.html") == nil)
        #expect(read("a/b/index.html") == "deep")
        #expect(read(".gitkeep") == "")
        #expect(read(".git/HEAD") == "ref: gh-pages\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path).sorted() == [".site.previous", "site"])
        // An old site no state knew is no use to the next build: the previous folder is the new site's files, linked.
        #expect(read("old/index.html", in: previous) == nil && read("a/b/index.html", in: previous) == "deep")
        #expect(identity("a/b/index.html", in: previous) == identity("a/b/index.html", in: output))
        #expect(read(".git/HEAD", in: previous) == nil, "the dotfiles are the new site's only")
        #expect(state.previous?.differs == [], "it holds every file of the live site, linked")
        #expect(state.folders.keys.sorted() == ["", "a", "a/b"])
    }

    /// When a link into the previous folder being made can't be made (here a file stands where one of its folders goes),
    /// there is no previous folder: the next build starts from an empty one.
    @Test func aPreviousFolderThatCouldNotBeLinkedIsNotKept() throws {
        defer { try? FileManager.default.removeItem(at: parent) }
        let transaction = SiteTransaction(output: output)
        _ = transaction.start(from: nil, jobs: 2)
        try transaction.write("index.html", Data("top".utf8), fingerprint: .zero, slots: nil)
        let linking = parent.appendingPathComponent(".site.linking-\(getpid())")
        #expect(read("index.html", in: linking) == "top", "linked as it was written")
        try Data("in the way".utf8).write(to: linking.appendingPathComponent("a"))
        try transaction.write("a/b/index.html", Data("deep".utf8), fingerprint: .zero, slots: nil)
        _ = try transaction.finish(paths: ["index.html", "a/b/index.html"])
        let committed = try transaction.commit(BuildState(context: .zero), jobs: 2)
        #expect(committed.previous == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path).sorted() == ["site"])
        #expect(read("a/b/index.html") == "deep")
    }

    /// With a state that knows the old site, the old site itself waits as the previous folder, and the next build
    /// brings it up to date where it differs.
    @Test func theStateLetsTheNextBuildUpdateThePreviousSiteInPlace() throws {
        defer { try? FileManager.default.removeItem(at: parent) }
        var (_, state) = try build(["a/index.html": "a1", "b/index.html": "b1"], from: nil)
        try InlineSite.write(["site/.git/HEAD": "ref: gh-pages\n"], into: parent)
        (_, state) = try build(["a/index.html": "a2", "b/index.html": "b1"], from: state)
        #expect(read("a/index.html", in: previous) == "a1", "the first build's site waits as the previous folder")
        #expect(read(".git/HEAD") == "ref: gh-pages\n" && read(".git/HEAD", in: previous) == nil, "its dotfiles moved into the new site")
        #expect(state.previous?.differs == ["a/index.html"])
        #expect(identity("b/index.html", in: previous) == identity("b/index.html", in: output), "b1 kept: the same file")
        (_, state) = try build(["a/index.html": "a2", "b/index.html": "b1", "c/index.html": "c1"], from: state)
        #expect(read("a/index.html") == "a2" && read("b/index.html") == "b1" && read("c/index.html") == "c1")
        #expect(state.previous?.differs == ["c/index.html"])
        (_, state) = try build(["a/index.html": "a2", "c/index.html": "c1"], from: state)
        #expect(read("b/index.html") == nil, "a removed output is gone from the updated folder")
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).sorted() == [".git", "a", "c"], "and so is its empty folder")
        #expect(state.previous?.differs == ["b/index.html"])
    }

    /// A file of the live site changed, removed or added by hand is found (`OutputFolder.tampered`), written again, and
    /// left out of the previous folder's trust.
    @Test func filesChangedByHandInTheLiveSiteAreFoundAndMadeAgain() throws {
        defer { try? FileManager.default.removeItem(at: parent) }
        let files = ["a/index.html": "a1", "b/index.html": "b1", "index.html": "top"]
        var (_, state) = try build(files, from: nil)
        (_, state) = try build(files, from: state)
        #expect(OutputFolder.tampered(output, state: state, jobs: 2).isEmpty)
        try Data("edited".utf8).write(to: output.appendingPathComponent("a/index.html"))
        try FileManager.default.removeItem(at: output.appendingPathComponent("index.html"))
        try InlineSite.write(["site/b/stray.html": "stray", "site/new/x.html": "x", "site/.nojekyll": ""], into: parent)
        #expect(OutputFolder.tampered(output, state: state, jobs: 2) == ["a/index.html", "index.html", "b/stray.html", "new"])
        (_, state) = try build(files, from: state)
        #expect(read("a/index.html") == "a1" && read("index.html") == "top" && read("b/stray.html") == nil && read("new/x.html") == nil)
        #expect(read(".nojekyll") == "", "a top-level dotfile is the owner's")
        #expect(OutputFolder.tampered(output, state: state, jobs: 2).isEmpty)
        // The previous folder is the changed site: the next build brings it up to date, strays and all.
        (_, state) = try build(files, from: state)
        #expect(read("b/stray.html") == nil && read("new/x.html") == nil && read("a/index.html") == "a1")
    }

    /// A folder of the live site removed or renamed by hand is made again by the next build, whole: staging starts from
    /// the previous folder, which still has it, and what the build writes into it stays.
    @Test func aFolderRemovedOrRenamedByHandIsMadeAgain() throws {
        defer { try? FileManager.default.removeItem(at: parent) }
        let files = ["a/index.html": "a1", "a/b/index.html": "ab1", "c/index.html": "c1", "index.html": "top"]
        var (_, state) = try build(files, from: nil)
        (_, state) = try build(files, from: state)
        try FileManager.default.removeItem(at: output.appendingPathComponent("a"))
        #expect(OutputFolder.tampered(output, state: state, jobs: 2) == ["a", "a/index.html", "a/b", "a/b/index.html"])
        (_, state) = try build(files, from: state)
        #expect(read("a/index.html") == "a1" && read("a/b/index.html") == "ab1" && read("c/index.html") == "c1")
        #expect(OutputFolder.tampered(output, state: state, jobs: 2).isEmpty)
        try FileManager.default.moveItem(at: output.appendingPathComponent("c"), to: output.appendingPathComponent("c-old"))
        (_, state) = try build(files, from: state)
        #expect(read("c/index.html") == "c1" && read("c-old/index.html") == nil && read("a/b/index.html") == "ab1")
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).sorted() == ["a", "c", "index.html"])
        // And the build after, from the previous folder those two builds left.
        (_, state) = try build(files, from: state)
        #expect(read("a/index.html") == "a1" && read("c/index.html") == "c1")
        #expect(OutputFolder.tampered(output, state: state, jobs: 2).isEmpty)
    }

    @Test func aLiveFileIsTakenAsTheStateSaysWhileItsSignatureIsTheStates() throws {
        defer { try? FileManager.default.removeItem(at: parent) }
        let files = ["a/index.html": "a1", "b/index.html": "b1"]
        var (_, state) = try build(files, from: nil)
        (_, state) = try build(files, from: state)
        // A state whose hash of `a` is not of its bytes: a file found as its signature says is read unhashed, as
        // `keep` takes it to be.
        state.outputs["a/index.html"]?.bytesHash = .of(bytes: Data("other".utf8))
        try Data("b22".utf8).write(to: output.appendingPathComponent("b/index.html"))
        let transaction = SiteTransaction(output: output)
        _ = transaction.start(from: state, jobs: 2)
        defer { transaction.abandon() }
        #expect(try transaction.bytes("a/index.html", as: #require(state.outputs["a/index.html"])) == Data("a1".utf8))
        // Changed by hand: its signature is not the state's, so its bytes are hashed, and are not the state's.
        #expect(try transaction.bytes("b/index.html", as: #require(state.outputs["b/index.html"])) == nil)
    }

    /// A big file remade from the live one (`llms-full.txt`, the exports, in a text edit): its old bytes with new values
    /// in some of its slots, read and written a block at a time, equal the same bytes made whole, and the new slots say
    /// where each value now is.
    @Test func aPatchedFileIsItsOldBytesWithNewValuesInItsSlots() throws {
        defer { try? FileManager.default.removeItem(at: parent) }
        let seed: UInt64 = 0x5107
        print("aPatchedFileIsItsOldBytesWithNewValuesInItsSlots seed \(seed)")
        var random = SeededRandom(seed: seed)
        let alphabet = ["a", "b", " ", "<", "&", ">", "\"", "'", "\n", "é"].map { Array($0.utf8) }
        func text(_ count: Int) -> [UInt8] { (0..<count).flatMap { _ in alphabet[random.next(alphabet.count)] } }
        func escaped(_ bytes: [UInt8]) -> [UInt8] {
            let entities: [UInt8: String] = [0x26: "&amp;", 0x3C: "&lt;", 0x3E: "&gt;", 0x22: "&quot;", 0x27: "&#39;"]
            return bytes.flatMap { entities[$0].map { Array($0.utf8) } ?? [$0] }
        }
        var state: BuildState?
        for round in 0..<12 {
            // Up to about four blocks of 64 KB, so that pieces cross blocks.
            let old = text(1 + random.next(260_000))
            state = try build(["big.txt": String(decoding: old, as: UTF8.self)], from: state).1
            var written: [MustacheSlots.Written] = []
            var position = 0
            while position < old.count && written.count < 10 {
                let start = position + random.next(min(old.count - position, 50_000) + 1)
                let length = random.next(min(old.count - start, 300) + 1)
                written.append(.init(slot: written.count, escaped: random.next(2) == 0, start: start, length: length))
                position = start + length
            }
            let slots = MustacheSlots(written: written, shown: Array(repeating: true, count: written.count))
            var values: [Int: [UInt8]] = [:]
            for slot in written.indices where random.next(2) == 0 { values[slot] = text(random.next(400)) }
            // The new bytes made whole, apart from the code under test.
            var expected: [UInt8] = []
            var shown: [[UInt8]] = []
            var at = 0
            for slot in written {
                expected += old[at..<slot.start]
                let value = values[slot.slot].map { slot.escaped ? escaped($0) : $0 } ?? Array(old[slot.start..<(slot.start + slot.length)])
                shown.append(value)
                expected += value
                at = slot.start + slot.length
            }
            expected += old[at...]

            let transaction = SiteTransaction(output: output)
            _ = transaction.start(from: state, jobs: 2)
            let stored = try #require(state?.outputs["big.txt"])
            let file = try #require(transaction.file("big.txt", as: stored))
            let patch = try #require(slots.patch(count: file.count) { slot in values[slot].map { String(decoding: $0, as: UTF8.self) } })
            #expect(patch.count == expected.count, "seed \(seed), round \(round)")
            try transaction.write("big.txt", patching: file, with: patch)
            _ = try transaction.finish(paths: ["big.txt"])
            state = try transaction.commit(BuildState(context: .zero), jobs: 2)
            let made = try [UInt8](Data(contentsOf: output.appendingPathComponent("big.txt")))
            // (A Bool: the arrays are too long for a diff of them.)
            let same = made == expected
            #expect(same, "seed \(seed), round \(round): \(made.count) bytes, \(expected.count) expected")
            #expect(state?.outputs["big.txt"]?.bytesHash == .of(bytes: expected), "seed \(seed), round \(round)")
            #expect(state?.outputs["big.txt"]?.slots == patch.slots)
            for (slot, value) in zip(patch.slots.written, shown) {
                #expect(Array(made[slot.start..<(slot.start + slot.length)]) == value, "seed \(seed), round \(round), slot \(slot.slot)")
            }
        }
    }

    @Test func aLiveFileCutShortWhileItIsPatchedFailsTheWrite() throws {
        defer { try? FileManager.default.removeItem(at: parent) }
        var (_, state) = try build(["big.txt": String(repeating: "a", count: 200_000)], from: nil)
        (_, state) = try build(["big.txt": String(repeating: "a", count: 200_000)], from: state)
        let transaction = SiteTransaction(output: output)
        _ = transaction.start(from: state, jobs: 2)
        defer { transaction.abandon() }
        let stored = try #require(state.outputs["big.txt"])
        let file = try #require(transaction.file("big.txt", as: stored))
        let slots = MustacheSlots(written: [.init(slot: 0, escaped: false, start: 100, length: 10)], shown: [true])
        let patch = try #require(slots.patch(count: file.count) { _ in "b" })
        #expect(truncate(output.appendingPathComponent("big.txt").path, 50_000) == 0)
        #expect(throws: OutputFailure.self) { try transaction.write("big.txt", patching: file, with: patch) }
    }

    /// What `lookAhead` finds of the previous folder before anything is written is what staging starts from: the folder
    /// itself when it is as the state says, an empty one when a file was added to it since.
    @Test func stagingStartsFromWhatTheLookAheadFound() throws {
        defer { try? FileManager.default.removeItem(at: parent) }
        let lookAhead = { (transaction: SiteTransaction) in transaction.lookAhead(jobs: 2) }
        var (_, state) = try build(["a/index.html": "a1", "b/index.html": "b1"], from: nil)
        (_, state) = try build(["a/index.html": "a2", "b/index.html": "b1"], from: state)
        // (The folder held open, so that its inode can't be another folder's while the test looks.)
        func held(_ folder: URL) throws -> (Int32, FileSignature.Identity?) {
            let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY)
            try #require(descriptor >= 0)
            return (descriptor, identity("", in: folder))
        }
        var (descriptor, folder) = try held(previous)
        (_, state) = try build(["a/index.html": "a3", "b/index.html": "b1"], from: state, beforeWriting: lookAhead)
        close(descriptor)
        #expect(identity("", in: output) == folder, "staging was the previous folder, renamed")
        #expect(read("a/index.html") == "a3" && read("b/index.html") == "b1")

        try InlineSite.write([".site.previous/b/stray.html": "stray"], into: parent)
        (descriptor, folder) = try held(previous)
        (_, state) = try build(["a/index.html": "a4", "b/index.html": "b1"], from: state, beforeWriting: lookAhead)
        close(descriptor)
        #expect(identity("", in: output) != folder, "staging started empty")
        #expect(read("b/stray.html") == nil && read("a/index.html") == "a4" && read("b/index.html") == "b1")

        // Looked at again once staging is made: nothing changes.
        (_, state) = try build(["a/index.html": "a5", "b/index.html": "b1"], from: state) { transaction in
            try transaction.write("c/index.html", Data("c1".utf8), fingerprint: .zero, slots: nil)
            transaction.lookAhead(jobs: 2)
        }
        #expect(read("a/index.html") == "a5" && read("c/index.html") == nil)
    }

    /// A build that can't start from the previous folder sets it aside at its first write and deletes it, with the
    /// old site, once the new one is in place.
    @Test func anOldPreviousFolderAndTheOldSiteAreDeletedAtTheCommit() throws {
        defer { try? FileManager.default.removeItem(at: parent) }
        try InlineSite.write(["site/old/index.html": "old", ".site.previous/older/a/index.html": "older"], into: parent)
        let aside = parent.appendingPathComponent(".site.removed-\(getpid())")
        let transaction = SiteTransaction(output: output)
        _ = transaction.start(from: nil, jobs: 2)
        try transaction.write("index.html", Data("new".utf8), fingerprint: .zero, slots: nil)
        #expect(read("older/a/index.html", in: aside) == "older", "set aside at the first write")
        #expect(read("older/a/index.html", in: previous) == nil)
        try transaction.write("a/index.html", Data("a".utf8), fingerprint: .zero, slots: nil)
        _ = try transaction.finish(paths: ["index.html", "a/index.html"])
        let state = try transaction.commit(BuildState(context: .zero), jobs: 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path).sorted() == [".site.previous", "site"])
        #expect(read("a/index.html", in: previous) == "a" && read("older/a/index.html", in: previous) == nil)
        #expect(read("old/index.html") == nil && read("index.html") == "new")
        #expect(state.previous?.differs == [])
    }

    @Test func anAbandonedTransactionLeavesTheOldOutputUntouched() throws {
        defer { try? FileManager.default.removeItem(at: parent) }
        try InlineSite.write(["site/index.html": "old", ".site.previous/older/index.html": "older"], into: parent)
        let transaction = SiteTransaction(output: output)
        _ = transaction.start(from: nil, jobs: 2)
        try transaction.write("index.html", Data("new".utf8), fingerprint: .zero, slots: nil)
        #expect(throws: OutputFailure.self) {
            try transaction.copy("missing.png", from: parent.appendingPathComponent("nope.png"), fingerprint: .zero)
        }
        transaction.abandon()
        #expect(read("index.html") == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path) == ["site"])
    }

    @Test func theSwapIsOneExchangeSoTheSiteIsNeverMissing() throws {
        defer { try? FileManager.default.removeItem(at: parent) }
        try InlineSite.write(["site/index.html": "v0"], into: parent)
        // A reader checks all along that index.html exists while builds replace the site.
        let stop = Mutex(false)
        let misses = Mutex(0)
        let checks = Mutex(0)
        let finished = DispatchSemaphore(value: 0)
        let looking = DispatchSemaphore(value: 0)
        // A thread of its own, so it looks all the time the builds run; they start once it has looked once (on a busy
        // machine the thread may start late).
        Thread { [output] in
            let path = output.appendingPathComponent("index.html").path
            var first = true
            while !stop.withLock({ $0 }) {
                if access(path, F_OK) != 0 { misses.withLock { $0 += 1 } }
                checks.withLock { $0 += 1 }
                if first { looking.signal() }
                first = false
            }
            finished.signal()
        }.start()
        looking.wait()
        var state: BuildState?
        for version in 1...40 {
            state = try build(["index.html": "v\(version)", "page/index.html": "p\(version)"], from: state).1
        }
        stop.withLock { $0 = true }
        finished.wait()
        #expect(read("index.html") == "v40")
        #expect(checks.withLock { $0 } > 0)
        #expect(misses.withLock { $0 } == 0)
    }

    @Test func leftoversOfDeadBuildsAreRemovedButTheirDotfilesAreNot() throws {
        defer { try? FileManager.default.removeItem(at: parent) }
        try InlineSite.write(
            [
                "site/index.html": "live", ".site.building-99999998/half.html": "partial", ".site.old-99999999/.git/HEAD": "ref: old\n",
                ".site.old-99999999/index.html": "older", ".site.linking-99999997/index.html": "links",
            ], into: parent)
        _ = SiteTransaction(output: output)
        let names = try FileManager.default.contentsOfDirectory(atPath: parent.path).sorted()
        #expect(names == ["site"], "removed when a transaction begins, before anything is written")
        #expect(read(".git/HEAD") == "ref: old\n", "a dead build's old site held the .git: it was carried over, not deleted")
    }
}
