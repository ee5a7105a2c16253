import Foundation
import Synchronization
import TestSupport
import Testing

@testable import GlossaryKit

/// Files written a piece at a time (`StreamedFile`): fingerprinted as a whole file is, and the glossary exports written
/// that way equal the ones made whole in memory, byte for byte.
@Suite struct StreamedFileTests {
    static var seed: UInt64 {
        let seed = UInt64(ProcessInfo.processInfo.environment["GLOSSARY_SEED"] ?? "") ?? 3_737
        print("StreamedFileTests seed \(seed) (GLOSSARY_SEED=\(seed) replays it)")
        return seed
    }

    @Test func bytesFingerprintedInPiecesAreFingerprintedAsAWhole() {
        let seed = Self.seed
        var random = SeededRandom(seed: seed)
        for _ in 0..<200 {
            let bytes = (0..<random.next(300)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            var streaming = StreamingFingerprint()
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + random.next(20))
                bytes[start..<end].withUnsafeBytes { streaming.combine($0) }
                start = end
            }
            #expect(streaming.finish() == Fingerprint.of(bytes: bytes), "seed \(seed), \(bytes.count) bytes")
        }
    }

    /// A glossary of `count` team entries with seeded words and definitions: markdown, quotes, commas, line breaks,
    /// formula starts, non-ASCII, references to each other, and pages that use them.
    static func glossary(count: Int, seed: UInt64) -> [String: String] {
        var random = SeededRandom(seed: seed)
        let letters = Array("abcdefghijklmnopqrstuvwxyzéß")
        var words: [String] = []
        var keys = Set<String>()
        while words.count < count {
            let word = String((0..<(3 + random.next(8))).map { _ in letters[random.next(letters.count)] })
            if keys.insert(word).inserted { words.append(word) }
        }
        let pieces = ["the *mark*", "a \"quoted\" word", "commas, and more", "=SUM(A1)", "**strong**", "café", "`code`", "line\nbreak", "-dash"]
        var files = ["glossary.yml": "title: Streamed\nsite: https://example.org\n"]
        for (index, word) in words.enumerated() {
            var text = (0..<(1 + random.next(6))).map { _ in pieces[random.next(pieces.count)] }.joined(separator: " ")
            if random.next(3) == 0 { text += " See [[\(words[random.next(words.count)])]]." }
            let aliases = random.next(4) == 0 ? "aliases: [\(word)s]\n" : ""
            files["content/glossary/\(index).md"] = "---\nterm: \(word)\n\(aliases)---\n\(text)\n"
        }
        for page in 0..<50 {
            let references = (0..<5).map { _ in "[[\(words[random.next(words.count)])]]" }.joined(separator: ", ")
            files["content/pages/\(page).md"] = "---\ntitle: Page \(page)\n---\nAbout \(references).\n"
        }
        return files
    }

    @Test func theStreamedExportsEqualTheOnesMadeWhole() async throws {
        let seed = Self.seed
        let root = try InlineSite.temporaryFolder("glossary-streamed")
        defer { try? FileManager.default.removeItem(at: root) }
        try InlineSite.write(Self.glossary(count: 2_000, seed: seed), into: root)
        var options = BuildOptions(source: root)
        options.offline = true
        options.jobs = 2
        let result = await SiteBuilder(options: options).buildAndWrite()
        #expect(result.errors.isEmpty, "seed \(seed)")
        let site = try #require(result.site)
        let bodies = PageBodies(contentFolder: root.appendingPathComponent("content"), autolink: nil, languages: site.config.siteLanguages)
        let model = GlossaryExport.make(site: site, definitions: site.termPages.values.sorted { $0.key < $1.key }) { bodies.entryBody($0, site: site) }
        #expect(model.terms.count == 2_000)

        let json = try #require(FileManager.default.contents(atPath: options.outputDirectory.appendingPathComponent("glossary.json").path))
        let wholeJSON = JSONWriter.text(GlossaryJSONExport.document(model), pretty: true, htmlSafe: false) + "\n"
        #expect(json.count > 4 * StreamedFile.blockSize, "written in many blocks")
        #expect(json == Data(wholeJSON.utf8), "seed \(seed)")

        let csv = try #require(FileManager.default.contents(atPath: options.outputDirectory.appendingPathComponent("glossary.csv").path))
        let wholeCSV = GlossaryCSVExport.row(GlossaryCSVExport.columns) + model.terms.map { GlossaryCSVExport.row($0, language: model.language) }.joined()
        #expect(csv == Data(wholeCSV.utf8), "seed \(seed)")

        let tbx = try #require(FileManager.default.contents(atPath: options.outputDirectory.appendingPathComponent("glossary.tbx").path))
        #expect(tbx.count > 4 * StreamedFile.blockSize, "written in many blocks")
        #expect(tbx == Data(GlossaryTBXExport.text(model).utf8), "seed \(seed)")

        // A sink that keeps files in memory is handed the same bytes, and is handed them a piece at a time.
        let sink = StreamRecordingSink()
        _ = await SiteBuilder(options: options).build(into: sink)
        #expect(sink.streamed.withLock { $0 } == ["glossary.csv": csv, "glossary.json": json, "glossary.tbx": tbx], "seed \(seed)")

        // Each term's part of each export (what an entry's text edit replaces) is where the export wrote the term.
        let parts = sink.parts.withLock { $0 }
        func part(_ path: String, _ bytes: Data, _ slot: MustacheSlots.Written) -> String {
            String(decoding: bytes[(bytes.startIndex + slot.start)..<(bytes.startIndex + slot.start + slot.length)], as: UTF8.self)
        }
        let jsonParts = try #require(parts["glossary.json"] ?? nil).written
        #expect(jsonParts.map(\.slot) == Array(model.terms.indices))
        for slot in jsonParts {
            let term = JSONWriter.text(GlossaryJSONExport.term(model.terms[slot.slot]), pretty: true, htmlSafe: false)
            #expect(part("glossary.json", json, slot) == term.replacingOccurrences(of: "\n", with: "\n    "), "seed \(seed), term \(slot.slot)")
        }
        let csvParts = try #require(parts["glossary.csv"] ?? nil).written
        #expect(csvParts.map(\.slot) == Array(model.terms.indices))
        for slot in csvParts { #expect(part("glossary.csv", csv, slot) == GlossaryCSVExport.row(model.terms[slot.slot], language: model.language)) }
        // TBX: each term that is a concept alone, as its concept's entry.
        let tbxParts = try #require(parts["glossary.tbx"] ?? nil).written
        #expect(tbxParts.count == model.terms.count)
        for slot in tbxParts {
            let term = model.terms[slot.slot]
            #expect(part("glossary.tbx", tbx, slot).hasPrefix("<conceptEntry id=\"term-\(term.slug)\">"))
            #expect(part("glossary.tbx", tbx, slot).hasSuffix("</conceptEntry>\n"))
        }
    }

    @Test func aStreamedFileReachesItsFileABlockAtATime() throws {
        let folder = try InlineSite.temporaryFolder("glossary-streamed-file")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("file").path
        var sizes: [Int] = []
        let piece = String(repeating: "x", count: 1_000)
        _ = try FileContents.write(to: path) { descriptor in
            var file = StreamedFile(descriptor: descriptor)
            for _ in 0..<200 {
                file.append(piece)
                var info = stat()
                fstat(descriptor, &info)
                sizes.append(Int(info.st_size))
            }
            return file.finish().failure
        }
        #expect(sizes.last == 198_000, "written whenever 64 KB were gathered: every 66 pieces")
        #expect(sizes.enumerated().allSatisfy { index, size in (index + 1) * 1_000 - size < StreamedFile.blockSize }, "never a block's worth held back")
        #expect(FileManager.default.contents(atPath: path) == Data(String(repeating: piece, count: 200).utf8))
    }
}

/// Keeps what comes as a stream, by path.
final class StreamRecordingSink: OutputSink, Sendable {
    let streamed = Mutex<[String: Data]>([:])

    func keep(_ path: String, fingerprint: Fingerprint) throws(OutputFailure) -> Bool { false }
    func write(_ path: String, _ data: Data, fingerprint: Fingerprint?, slots: MustacheSlots?) throws(OutputFailure) {}
    func write(_ path: String, fingerprint: Fingerprint?, streaming body: (inout StreamedFile) -> MustacheSlots?) throws(OutputFailure) {
        var file = StreamedFile()
        let slots = body(&file)
        let data = file.data()
        streamed.withLock { $0[path] = data }
        parts.withLock { $0[path] = slots }
    }
    /// Where each streamed file said its slots are.
    let parts = Mutex<[String: MustacheSlots?]>([:])
    func copy(_ path: String, from source: URL, fingerprint: Fingerprint) throws(OutputFailure) {}
    func finish(paths: Set<String>) throws(OutputFailure) -> Set<String> { paths }
}
