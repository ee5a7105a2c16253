import Foundation
import TestSupport
import Testing

@testable import GlossaryKit

/// The manifest's table of search terms: every term back as written, in order, and a damaged number refused.
@Suite struct BuildManifestTests {
    @Test func searchTermsReadBackAsWrittenWithRepeatsAsNumbers() throws {
        let terms = ["pod", "node", "pod", "café", "", "node", "東京", "pod", "a-very-long-term-of-more-than-fifteen-bytes"]
        var writer = BinaryWriter()
        var table = BuildManifest.SearchTermTable.Writing()
        for term in terms { table.write(term, &writer) }
        let bytes = writer.take()
        let inFull = terms.uniqued().reduce(0) { $0 + $1.utf8.count }
        #expect(bytes.count < inFull + terms.count * 2, "repeats take a byte")

        var reader = BinaryReader(bytes)
        var reading = BuildManifest.SearchTermTable.Reading()
        #expect(try terms.map { _ in try reading.read(&reader) } == terms)
        #expect(reader.isAtEnd)
    }

    @Test func aNumberBeyondTheTermsReadSoFarIsDamage() {
        var writer = BinaryWriter()
        writer.write(UInt64(0))
        writer.write("pod")
        writer.write(UInt64(2))
        var reader = BinaryReader(writer.take())
        var reading = BuildManifest.SearchTermTable.Reading()
        #expect((try? reading.read(&reader)) == "pod")
        #expect(throws: BinaryReader.Damaged.self) { try reading.read(&reader) }
    }

    /// Records saved and loaded again: enough of them that the manifest goes to its file in several pieces, with
    /// search fields that share terms, and terms of every width of UTF-8.
    @Test func recordsReadBackWithTheirSearchFieldsAcrossPieces() throws {
        let folder = try InlineSite.temporaryFolder("glossary-manifest")
        let words = ["pod", "node", "café", "東京", "naïve", "x", "a-term-longer-than-sixteen-bytes", "🙂smile"]
        var random = SeededRandom(seed: 11)
        let state = BuildState()
        var originals: [String: PageRecord] = [:]
        for number in 0..<4_000 {
            let text = (0..<Int(random.next() % 60)).map { _ in words[Int(random.next() % UInt64(words.count))] + String(random.next() % 300) }
            let path = "section/page-\(number).md"
            let file = SiteSource.File(displayPath: "content/" + path, contentPath: path, url: folder.appendingPathComponent(path))
            let markdown = "# Page \(number)\n\n## A heading\n\n" + text.joined(separator: " ") + " [[pod]]\n"
            let record = try #require(PageParser.parse(text: markdown, hash: .zero, file: file, drafts: false).0?.record)
            originals[path] = record
        }
        let signature = try #require(FileSignature(path: folder.path))
        state.withLock { state in
            for (path, record) in originals { state.records[path] = .init(signature: signature, readAt: 1, record: record) }
        }
        let manifest = BuildManifest(folder: folder, output: folder.appendingPathComponent("site"))
        manifest.save(state)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: manifest.url.path)[.size] as? Int)
        #expect(size > ChecksummedFile.Writer.pieceSize, "written in more than one piece")

        let loaded = BuildState()
        manifest.load(into: loaded, context: state.context)
        let records = loaded.withLock { $0.records }
        #expect(records.count == originals.count)
        for (path, original) in originals {
            let record = try #require(records[path]?.record)
            #expect(record.searchText == original.searchText, "\(path)")
            #expect(record.searchText.terms == original.searchText.terms && record.searchText.counts == original.searchText.counts)
            #expect(record.headings == original.headings && record.page.urlPath == original.page.urlPath)
            #expect(record.references.map(\.key) == original.references.map(\.key))
        }
    }

    /// A state of `count` records, with a file and an output, as a build leaves it.
    static func state(_ folder: URL, count: Int, seed: UInt64) throws -> BuildState {
        var random = SeededRandom(seed: seed)
        let state = BuildState()
        let signature = try #require(FileSignature(path: folder.path))
        for number in 0..<count {
            let path = "page-\(number).md"
            let file = SiteSource.File(displayPath: "content/" + path, contentPath: path, url: folder.appendingPathComponent(path))
            let markdown = "# Page \(number)\n\nWords \(random.next() % 1000) and [[pod]].\n"
            let record = try #require(PageParser.parse(text: markdown, hash: .zero, file: file, drafts: false).0?.record)
            state.withLock { $0.records[path] = .init(signature: signature, readAt: Double(number), record: record) }
        }
        state.withLock { state in
            state.files["/theme/site.css"] = .init(signature: signature, readAt: 2, hash: .of(bytes: [1]))
        }
        return state
    }

    /// The records drafted while a build renders, and the rest added once it is committed: the same manifest as one
    /// written whole. A draft whose records are no longer the state's is not used (the manifest is written whole).
    @Test func aDraftedManifestIsTheManifestWrittenWhole() throws {
        let folder = try InlineSite.temporaryFolder("glossary-manifest-draft")
        let manifest = BuildManifest(folder: folder, output: folder.appendingPathComponent("site"))
        let state = try Self.state(folder, count: 3_000, seed: 5)
        manifest.save(state)
        let whole = try Data(contentsOf: manifest.url)

        state.isDirty = true
        let draft = try #require(manifest.draft(state))
        // What the build learns after its records: written after them.
        let signature = try #require(FileSignature(path: folder.path))
        state.withLock { $0.files["/theme/new.css"] = .init(signature: signature, readAt: 3, hash: .of(bytes: [4])) }
        manifest.save(state, draft: draft)
        let drafted = try Data(contentsOf: manifest.url)
        state.withLock { $0.isDirty = true }
        manifest.save(state)
        #expect(drafted == (try Data(contentsOf: manifest.url)), "drafted and whole give the same bytes")
        #expect(drafted != whole)
        let loaded = BuildState()
        manifest.load(into: loaded, context: state.context)
        #expect(loaded.withLock { $0.records.count } == 3_000)
        #expect(loaded.withLock { $0.files["/theme/new.css"] } != nil)

        // A record read again after the draft was made: the draft is left, and the manifest holds the new record.
        state.withLock { $0.isDirty = true }
        let stale = try #require(manifest.draft(state))
        let replacement = try Self.state(folder, count: 1, seed: 9).withLock { $0.records["page-0.md"]! }
        let original = try #require(state.withLock { $0.records["page-0.md"] })
        try #require(replacement.record.searchText != original.record.searchText)
        state.withLock { $0.records["page-0.md"] = replacement }
        manifest.save(state, draft: stale)
        let reloaded = BuildState()
        manifest.load(into: reloaded, context: state.context)
        #expect(reloaded.withLock { $0.records["page-0.md"]?.record.searchText } == replacement.record.searchText)
        #expect(reloaded.withLock { $0.records["page-1.md"]?.readAt } == 1)
        // No temporary file is left beside the manifest.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }
}
