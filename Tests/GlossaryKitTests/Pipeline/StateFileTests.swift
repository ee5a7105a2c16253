import Foundation
import TestSupport
import Testing

@testable import GlossaryKit

/// What the state file keeps of a glossary entry besides its record: its body as markdown made it and its links'
/// destinations, read back as they were written, and written again from what was read (copied as bytes).
@Suite struct StateFileTests {
    @Test func anEntrysBodyIsReadBackAsItWasWrittenAndWrittenAgainFromTheFile() throws {
        let folder = try InlineSite.temporaryFolder("glossary-state")
        defer { try? FileManager.default.removeItem(at: folder) }
        let body = BodyHTML(
            bytes: Array("<p>A <em>bold</em> é 日本, <a href=\"/x/\">there</a>.</p>\n".utf8),
            slots: [
                .init(offset: 5, reference: 0, closes: false), .init(offset: 20, reference: 0, closes: true), .init(offset: 20, reference: 1, closes: false),
            ])
        let destinations: [String?] = [nil, "/x/"]
        let signature = FileSignature(device: 1, inode: 2, size: 3, modifiedSeconds: 4, modifiedNanoseconds: 5, changedSeconds: 6, changedNanoseconds: 7)
        var state = BuildState(context: .zero)
        state.pages["glossary/a.md"] = .init(signature: signature, hash: .zero, record: nil, kit: nil, body: .made(body, destinations: destinations))
        state.pages["b.md"] = .init(signature: signature, hash: .zero)
        var written = state
        for name in ["first", "second"] {
            let url = folder.appendingPathComponent(name)
            #expect(StateFile.write(written, output: folder, to: url))
            written = try #require(StateFile.read(url, context: .zero))
            guard case .encoded = written.pages["glossary/a.md"]?.body else {
                Issue.record("\(name): the body is read from the file")
                return
            }
            let read = try #require(written.pages["glossary/a.md"]?.body?.body, "\(name)")
            #expect(read.html == body, "\(name)")
            #expect(read.destinations == destinations, "\(name)")
            #expect(written.pages["b.md"]?.body == nil, "\(name)")
        }
    }

    /// Every table of the index reads back as it was written, whether its parts are read side by side or one after
    /// the other: the files, the pages, the outputs, the folders, the previous folder and the report.
    @Test(arguments: [1, 2]) func everyPartOfTheIndexIsReadBack(jobs: Int) throws {
        let folder = try InlineSite.temporaryFolder("glossary-state")
        defer { try? FileManager.default.removeItem(at: folder) }
        func signature(_ n: Int) -> FileSignature {
            FileSignature(
                device: 1, inode: UInt64(n), size: Int64(n * 10), modifiedSeconds: n, modifiedNanoseconds: 5, changedSeconds: n + 1, changedNanoseconds: 7)
        }
        var state = BuildState(context: .zero)
        state.verifiedAt = 1_765_000_000.25
        state.digest = Fingerprint(high: 11, low: 12)
        for n in 0..<300 {
            state.files["themes/x/asset-\(n).css"] = .init(
                signature: n % 7 == 0 ? nil : signature(n), hash: n % 5 == 0 ? nil : Fingerprint(high: 1, low: UInt64(n)))
            state.pages["blog/page-é-\(n).md"] = .init(signature: signature(n), hash: Fingerprint(high: 2, low: UInt64(n)))
            let slots = n % 3 == 0 ? MustacheSlots(written: [.init(slot: 0, escaped: true, start: n, length: 4)], shown: [true]) : nil
            state.outputs["blog/page-é-\(n)/index.html"] = .init(
                fingerprint: n % 4 == 0 ? nil : Fingerprint(high: 3, low: UInt64(n)), bytesHash: Fingerprint(high: 4, low: UInt64(n)),
                signature: n % 6 == 0 ? nil : signature(n + 1000), slots: slots)
            state.folders["blog/page-é-\(n)"] = signature(n + 2000)
        }
        state.previous = .init(
            identity: .init(device: 1, inode: 99), differs: ["blog/page-é-1/index.html", "sitemap.xml"],
            folders: state.folders.mapValues { signature(Int($0.inode) + 3000) })
        state.report.rootPath = "/docs/"
        state.report.wantsNetwork = true
        let url = folder.appendingPathComponent("state")
        #expect(StateFile.write(state, output: folder, to: url, jobs: jobs))
        let read = try #require(StateFile.read(url, context: .zero, jobs: jobs))
        #expect(read.verifiedAt == state.verifiedAt)
        #expect(read.digest == state.digest)
        // Compared apart from the expectations, which would print every table.
        let pages = { (state: BuildState) in state.pages.mapValues { [$0.signature.inode, $0.hash.low] } }
        let same = [
            ("files", read.files == state.files), ("pages", pages(read) == pages(state)), ("outputs", read.outputs == state.outputs),
            ("folders", read.folders == state.folders), ("previous folder", read.previous == state.previous),
        ]
        for (table, equal) in same { #expect(equal, "\(table) read back as written") }
        #expect(read.report.rootPath == "/docs/" && read.report.wantsNetwork)
    }

    /// A byte damaged in any part of the index makes the whole state read as nothing: each part is checked against its
    /// own checksum in the trailer.
    @Test func aDamagedPartOfTheIndexIsRefused() throws {
        let folder = try InlineSite.temporaryFolder("glossary-state")
        defer { try? FileManager.default.removeItem(at: folder) }
        let signature = FileSignature(device: 1, inode: 2, size: 3, modifiedSeconds: 4, modifiedNanoseconds: 5, changedSeconds: 6, changedNanoseconds: 7)
        var state = BuildState(context: .zero)
        for n in 0..<50 {
            state.files["file-\(n).md"] = .init(signature: signature, hash: .zero)
            state.outputs["page-\(n)/index.html"] = .init(fingerprint: nil, bytesHash: .zero, signature: signature, slots: nil)
            state.folders["page-\(n)"] = signature
        }
        state.previous = .init(identity: .init(device: 1, inode: 9), differs: ["page-1/index.html"], folders: state.folders)
        let url = folder.appendingPathComponent("state")
        #expect(StateFile.write(state, output: folder, to: url))
        let trailer = try #require(ReadOnlyFile(path: url.path).flatMap(StateFile.Trailer.init(of:)))
        #expect(trailer.parts.count == StateFile.IndexPart.allCases.count)
        let original = try Data(contentsOf: url)
        for (part, place) in zip(StateFile.IndexPart.allCases, trailer.parts) {
            var damaged = original
            // A byte of a path's text: the part still decodes, to the wrong path.
            let at = trailer.start + place.range.upperBound - 3
            damaged[at] ^= 0x01
            try damaged.write(to: url)
            #expect(StateFile.read(url, context: .zero) == nil, "\(part) damaged")
        }
        // A trailer whose lengths are out of any range (their sum overflows) reads as nothing too.
        var damaged = original
        var huge = trailer
        huge.parts[0].range = 0..<Int.max
        huge.parts[1].range = 0..<Int.max
        damaged.replaceSubrange(damaged.count - huge.bytes().count..<damaged.count, with: huge.bytes())
        try damaged.write(to: url)
        #expect(StateFile.read(url, context: .zero) == nil, "lengths out of range")
        try original.write(to: url)
        #expect(StateFile.read(url, context: .zero)?.folders == state.folders)
    }

    /// A body whose bytes were damaged in the file is refused by its fingerprint (its entry is then parsed again).
    @Test func aDamagedBodyIsRefused() throws {
        let folder = try InlineSite.temporaryFolder("glossary-state")
        defer { try? FileManager.default.removeItem(at: folder) }
        let body = BodyHTML(bytes: Array("<p>Kept as it was.</p>\n".utf8), slots: [])
        let signature = FileSignature(device: 1, inode: 2, size: 3, modifiedSeconds: 4, modifiedNanoseconds: 5, changedSeconds: 6, changedNanoseconds: 7)
        var state = BuildState(context: .zero)
        state.pages["glossary/a.md"] = .init(signature: signature, hash: .zero, body: .made(body, destinations: []))
        let url = folder.appendingPathComponent("state")
        #expect(StateFile.write(state, output: folder, to: url))
        let read = try #require(StateFile.read(url, context: .zero))
        guard case .encoded(let bytes) = read.pages["glossary/a.md"]?.body else {
            Issue.record("the body is read from the file")
            return
        }
        #expect(bytes.body()?.html == body)
        let handle = try FileHandle(forUpdating: url)
        try handle.seek(toOffset: UInt64(bytes.range.lowerBound + 3))
        try handle.write(contentsOf: Data("X".utf8))
        try handle.close()
        #expect(bytes.body() == nil)
    }

    /// A state read from its file is written back by appending what it adds: the bodies it keeps stay where they are,
    /// every body reads back as last written, and the file is written whole once appending would make it more than
    /// twice what its index refers to.
    @Test func aStateIsAppendedToTheFileItWasReadFromUntilMostOfItIsOld() throws {
        let folder = try InlineSite.temporaryFolder("glossary-state")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("state")
        let signature = FileSignature(device: 1, inode: 2, size: 3, modifiedSeconds: 4, modifiedNanoseconds: 5, changedSeconds: 6, changedNanoseconds: 7)
        // Bodies bigger than the index, as a site's records are.
        func body(_ entry: Int, _ round: Int) -> BodyHTML {
            BodyHTML(bytes: Array("<p>Entry \(entry), round \(round): \(String(repeating: "words ", count: 300))</p>\n".utf8), slots: [])
        }
        func size() -> Int { FileSignature(path: url.path).map { Int($0.size) } ?? -1 }
        var state = BuildState(context: .zero)
        var expected: [String: BodyHTML] = [:]
        for entry in 0..<20 {
            state.pages["glossary/\(entry).md"] = .init(signature: signature, hash: .zero, body: .made(body(entry, 0), destinations: []))
            expected["glossary/\(entry).md"] = body(entry, 0)
        }
        #expect(StateFile.write(state, output: folder, to: url))
        var (appended, rewritten) = (0, 0)
        for round in 1...24 {
            var read = try #require(StateFile.read(url, context: .zero), "round \(round)")
            for (path, body) in expected { #expect(read.pages[path]?.body?.body?.html == body, "round \(round): \(path)") }
            let path = "glossary/\(round % 20).md"
            read.pages[path] = .init(signature: signature, hash: .zero, body: .made(body(round % 20, round), destinations: []))
            expected[path] = body(round % 20, round)
            let (identity, before) = (FileSignature(path: url.path)?.identity, size())
            #expect(StateFile.write(read, output: folder, to: url))
            if FileSignature(path: url.path)?.identity == identity {
                appended += 1
                #expect(size() > before, "round \(round): appended")
            } else {
                rewritten += 1
                #expect(size() < before, "round \(round): written whole, without what no index refers to")
            }
        }
        #expect(appended > rewritten && rewritten > 0, "\(appended) appended, \(rewritten) written whole")
        let last = try #require(StateFile.read(url, context: .zero))
        for (path, body) in expected { #expect(last.pages[path]?.body?.body?.html == body, "\(path)") }

        // An append cut short (a build that stopped) leaves a file that reads as nothing.
        var read = try #require(StateFile.read(url, context: .zero))
        read.pages["glossary/0.md"] = .init(signature: signature, hash: .zero, body: .made(body(0, 99), destinations: []))
        let (identity, before) = (FileSignature(path: url.path)?.identity, size())
        #expect(StateFile.write(read, output: folder, to: url))
        try #require(FileSignature(path: url.path)?.identity == identity, "appended")
        #expect(truncate(url.path, off_t(before + (size() - before) / 2)) == 0)
        #expect(StateFile.read(url, context: .zero) == nil)
    }

    /// An append writes over the index it replaces: with a big index and one small body changed a round, the file
    /// grows by that body (and what the index's offsets add), not by an index a round, and is never written whole.
    @Test func anAppendWritesOverTheIndexItReplaces() throws {
        let folder = try InlineSite.temporaryFolder("glossary-state")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("state")
        let signature = FileSignature(device: 1, inode: 2, size: 3, modifiedSeconds: 4, modifiedNanoseconds: 5, changedSeconds: 6, changedNanoseconds: 7)
        func body(_ round: Int) -> BodyHTML { BodyHTML(bytes: Array("<p>Round \(round).</p>\n".utf8), slots: []) }
        var state = BuildState(context: .zero)
        // 2,000 pages make an index of tens of kilobytes; the body that changes is a few dozen bytes.
        for page in 0..<2000 { state.pages["blog/a-page-with-a-long-name-\(page).md"] = .init(signature: signature, hash: .zero) }
        state.pages["glossary/a.md"] = .init(signature: signature, hash: .zero, body: .made(body(0), destinations: []))
        // One body kept as it is, so that each round has bytes of the file to keep.
        let kept = BodyHTML(bytes: Array("<p>Kept.</p>\n".utf8), slots: [])
        state.pages["glossary/b.md"] = .init(signature: signature, hash: .zero, body: .made(kept, destinations: []))
        #expect(StateFile.write(state, output: folder, to: url))
        let (identity, first) = (FileSignature(path: url.path)?.identity, try #require(FileSignature(path: url.path)).size)
        #expect(first > 50_000, "the index is big: \(first) bytes")
        for round in 1...10 {
            var read = try #require(StateFile.read(url, context: .zero), "round \(round)")
            #expect(read.pages["glossary/a.md"]?.body?.body?.html == body(round - 1), "round \(round)")
            read.pages["glossary/a.md"] = .init(signature: signature, hash: .zero, body: .made(body(round), destinations: []))
            #expect(StateFile.write(read, output: folder, to: url))
        }
        let last = try #require(FileSignature(path: url.path))
        #expect(last.identity == identity, "appended every round, never written whole")
        #expect(last.size - first < 10 * 100, "grew by \(last.size - first) bytes in 10 rounds (a \(first)-byte file)")
        #expect(try #require(StateFile.read(url, context: .zero)).pages["glossary/a.md"]?.body?.body?.html == body(10))
    }

    /// A state whose file was replaced since it was read is written whole, not appended to the other file.
    @Test func aStateIsWrittenWholeWhenItsFileWasReplaced() throws {
        let folder = try InlineSite.temporaryFolder("glossary-state")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("state")
        let other = folder.appendingPathComponent("other")
        let signature = FileSignature(device: 1, inode: 2, size: 3, modifiedSeconds: 4, modifiedNanoseconds: 5, changedSeconds: 6, changedNanoseconds: 7)
        let body = BodyHTML(bytes: Array("<p>Kept.</p>\n".utf8), slots: [])
        var state = BuildState(context: .zero)
        state.pages["glossary/a.md"] = .init(signature: signature, hash: .zero, body: .made(body, destinations: []))
        #expect(StateFile.write(state, output: folder, to: url))
        var read = try #require(StateFile.read(url, context: .zero))
        // Another copy of it takes its name.
        try FileManager.default.copyItem(at: url, to: other)
        #expect(rename(other.path, url.path) == 0)
        let replaced = FileSignature(path: url.path)
        read.pages["glossary/b.md"] = .init(signature: signature, hash: .zero, body: .made(body, destinations: []))
        #expect(StateFile.write(read, output: folder, to: url))
        #expect(FileSignature(path: url.path)?.identity != replaced?.identity)
        let written = try #require(StateFile.read(url, context: .zero))
        #expect(written.pages["glossary/a.md"]?.body?.body?.html == body && written.pages["glossary/b.md"]?.body?.body?.html == body)
    }

    /// The state file is read by range; a file cut short since it was opened gives the bytes it still has, which the
    /// fingerprints then refuse.
    @Test func aStateFileIsReadByRangeAndACutFileGivesFewerBytes() throws {
        let folder = try InlineSite.temporaryFolder("glossary-state")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("f")
        try Data((0..<200).map { UInt8($0) }).write(to: url)
        let file = try #require(ReadOnlyFile(path: url.path))
        #expect(file.count == 200)
        #expect(file.bytes(10..<15) == [10, 11, 12, 13, 14])
        #expect(file.bytes(0..<0) == [])
        #expect(truncate(url.path, 12) == 0)
        #expect(file.bytes(10..<15) == [10, 11])
        #expect(ReadOnlyFile(path: folder.path) == nil, "a folder is not a regular file")
    }
}
