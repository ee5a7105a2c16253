import Foundation
import TestSupport
import Testing

@testable import GlossaryKit

/// After edits of glossary entries' bodies alone (their front matter, summary, headings, references and links as they
/// were), `glossary build` and the preview server remake each entry's term page from its old bytes and patch its part of
/// the exports and `llms-full.txt` (`TextEdit+Entries`) — byte for byte a clean build — and go the long way whenever
/// the edit is more than that or the files can't tell what the edit makes of them.
@Suite struct EntryTextEditTests {
    typealias Folder = IncrementalBuildTests.Folder
    typealias Builds = IncrementalBuildTests.Builds
    typealias Mode = IncrementalBuildTests.Mode

    static let entries = ["kerning", "leading", "tracking", "ligature"]

    /// Entries whose bodies reference terms and link pages, with text the exports escape (quotes, `<`, `&`, a cell
    /// that looks like a formula); pages that use them; the llms files on (the default).
    static func site(llmsLimit: Int? = nil) -> [String: String] {
        var files: [String: String] = [
            "glossary.yml": "title: Site\nbase_url: https://example.com/docs/\n" + (llmsLimit.map { "llms_full_max_bytes: \($0)\n" } ?? ""),
            "content/index.md": "---\ntitle: Home\n---\nAbout [[kerning]], [[leading]] and [[tracking]].\n",
            "content/guide/setup.md": "---\ntitle: Setup\n---\nSee [[ligature]] and [[kerning]].\n",
        ]
        for (index, word) in entries.enumerated() {
            files["content/glossary/\(word).md"] =
                "---\nterm: \(word.capitalized)\n---\nThe \"\(word)\" of <type> & glyphs.\n\n=SUM(\(index)) see [[\(entries[(index + 1) % entries.count])]] and [setup](../guide/setup.md).\n"
        }
        return files
    }

    /// A paragraph added after an entry's first one, whose text the exports and the term page show.
    static func addParagraph(_ folder: Folder, _ word: String, _ text: String) throws {
        let path = "content/glossary/\(word).md"
        var lines = try String(contentsOf: folder.root.appendingPathComponent(path), encoding: .utf8).components(separatedBy: "\n")
        // The first paragraph is the line after the front matter: the new one goes after it.
        let end = lines.indices.filter { lines[$0] == "---" }.dropFirst().first ?? 0
        lines.insert(contentsOf: ["", text, ""], at: end + 2)
        try folder.write(path, lines.joined(separator: "\n"))
    }

    /// Seeded random sequences: most steps add a paragraph to one or two entries' bodies, the rest change an entry's
    /// summary, its front matter or a page. After each the site is a clean build's, and every body edit took the
    /// shortcut.
    @Test(arguments: [(Mode.build, UInt64(21)), (Mode.serve, UInt64(22))])
    func randomEntryEditsAreCleanBuilds(mode: Mode, seed: UInt64) async throws {
        print("random entry edits: mode \(mode), seed \(seed)")
        var random = SeededRandom(seed: seed)
        let builds = try Builds(try Folder(Self.site()), mode: mode)
        let folder = builds.folder
        let texts = ["More \"quoted\" text.", "<b>bold</b> & co", "café 東京", "`code` and *em*", "\"=1+1\"", "tabs\tand 'quotes'"]
        await builds.check("seed \(seed): first build")
        var bodyEdits = 0
        for step in 0..<30 {
            let word = Self.entries[Int(random.next() % UInt64(Self.entries.count))]
            let text = { "Step \(step): " + texts[Int(random.next() % UInt64(texts.count))] }
            let name: String
            switch random.next() % 8 {
            case 0:
                let path = "content/glossary/\(word).md"
                var lines = try String(contentsOf: folder.root.appendingPathComponent(path), encoding: .utf8).components(separatedBy: "\n")
                let end = lines.indices.filter { lines[$0] == "---" }.dropFirst().first ?? 0
                lines[end + 1] = "The \"\(word)\" of <type> & glyphs, as of step \(step)."
                try folder.write(path, lines.joined(separator: "\n"))
                name = "change the summary of \(word)"
            case 1:
                let path = "content/glossary/\(word).md"
                let lines = try String(contentsOf: folder.root.appendingPathComponent(path), encoding: .utf8).components(separatedBy: "\n")
                let kept = lines.filter { !$0.hasPrefix("part_of_speech:") }
                try folder.write(path, ([kept[0], "part_of_speech: noun \(step)"] + kept.dropFirst()).joined(separator: "\n"))
                name = "change the front matter of \(word)"
            case 2:
                try folder.append("content/guide/setup.md", "\nStep \(step).\n")
                name = "edit a page"
            case 3:
                let other = Self.entries[Int(random.next() % UInt64(Self.entries.count))]
                try Self.addParagraph(folder, word, text())
                try Self.addParagraph(folder, other, text())
                name = "add a paragraph to \(word) and \(other)"
                bodyEdits += 1
            default:
                try Self.addParagraph(folder, word, text())
                name = "add a paragraph to \(word)"
                bodyEdits += 1
            }
            await builds.check("seed \(seed) step \(step): \(name)")
        }
        #expect(builds.patched >= bodyEdits && bodyEdits > 12, "\(builds.patched) took the shortcut of \(bodyEdits) body edits")
    }

    /// What a body edit can't be patched into goes the long way, and the site is still a clean build's: a note line
    /// (the CSV and TBX exports show notes apart), a summary changed, and a `llms-full.txt` cut where the edit changes
    /// what fits.
    @Test(arguments: Mode.allCases)
    func editsTheFilesCantTellGoTheLongWay(mode: Mode) async throws {
        let builds = try Builds(try Folder(Self.site()), mode: mode)
        let folder = builds.folder
        await builds.check("first build")
        try Self.addParagraph(folder, "kerning", "Note: kept apart by the exports.")
        await builds.check("a note")
        #expect(builds.patched == 0)
        try Self.addParagraph(folder, "leading", "A paragraph.")
        await builds.check("a paragraph")
        #expect(builds.patched == 1)
        let path = "content/glossary/tracking.md"
        let old = try String(contentsOf: folder.root.appendingPathComponent(path), encoding: .utf8)
        try folder.write(path, old.replacingOccurrences(of: "The \"", with: "Then the \""))
        await builds.check("a summary")
        #expect(builds.patched == 1)
    }

    /// The terms of a concept share one entry of the TBX export: an edit of one of them goes the long way, an edit of
    /// a term of its own in the same site takes the shortcut, its term link in its language's folder.
    @Test(arguments: Mode.allCases)
    func aTermSharingItsConceptGoesTheLongWay(mode: Mode) async throws {
        let folder = try Folder([
            "glossary.yml": "title: Site\nlanguages: [en, fr]\n",
            "content/index.md": "---\ntitle: Home\n---\nAbout [[kerning]].\n",
            "content/fr/index.md": "---\ntitle: Accueil\n---\nÀ propos du [[crénage]] et de l’[[interlignage]].\n",
            "content/glossary/kerning.md": "---\nterm: Kerning\nconcept: kern\n---\nThe space between two letters.\n",
            "content/fr/glossary/crenage.md": "---\nterm: crénage\nconcept: kern\n---\nL’espace entre deux lettres.\n",
            "content/fr/glossary/interlignage.md": "---\nterm: interlignage\n---\nL’espace entre deux lignes, voir [[crénage]].\n",
        ])
        let builds = try Builds(folder, mode: mode)
        #expect(await builds.check("first build").diagnostics.isEmpty)
        try folder.append("content/fr/glossary/crenage.md", "\nEncore.\n")
        #expect(await builds.check("a term of a shared concept").stats.textEdit == false)
        try folder.append("content/fr/glossary/interlignage.md", "\nEncore.\n")
        #expect(await builds.check("a term of its own").stats.textEdit)
    }

    /// `llms-full.txt` cut among the terms: an entry left out after the first one left out is patched (the file stays as
    /// it is); the first left out, and one in the file, go the long way (what fits may change); the site is a clean
    /// build's either way.
    @Test func aCutLLMsFileIsKeptOrMadeAgain() async throws {
        // Room for the pages and two terms (kerning and leading): ligature is the first left out.
        let builds = try Builds(try Folder(Self.site(llmsLimit: 700)), mode: .build)
        let folder = builds.folder
        await builds.check("first build")
        let full = try Data(contentsOf: folder.root.appendingPathComponent("site/llms-full.txt"))
        let text = String(decoding: full, as: UTF8.self)
        #expect(text.contains(LLMsText.cutNote) && text.contains("## Leading") && !text.contains("## Ligature"), "\(text)")
        // Terms are in key order: kerning, leading, ligature, tracking.
        try Self.addParagraph(folder, "tracking", "Left out.")
        await builds.check("an entry left out")
        #expect(builds.patched == 1)
        #expect(try Data(contentsOf: folder.root.appendingPathComponent("site/llms-full.txt")) == full)
        // The first left out might fit once shorter, so its edit isn't told apart from one that would.
        try Self.addParagraph(folder, "ligature", "First left out.")
        await builds.check("the first entry left out")
        #expect(builds.patched == 1)
        try Self.addParagraph(folder, "kerning", "In the file.")
        await builds.check("an entry in the file")
        #expect(builds.patched == 1)
    }

    /// A term's part of each export with the new definition where the old one is, and nil when the part doesn't show
    /// it exactly once as the export writes it.
    @Test func aPartIsPatchedWhereItShowsTheOldDefinitionOnce() throws {
        let old = TextEdit.Exported(text: "A \"glyph\" <b>", html: "<p>A &quot;glyph&quot;</p>\n")
        let new = TextEdit.Exported(text: "A glyph, again", html: "<p>A glyph, again</p>\n")
        let (html, text) = (JSONWriter.quoted(old.html, htmlSafe: false), JSONWriter.quoted(old.text, htmlSafe: false))
        let json = "{\n    \"definition\": {\n      \"html\": \(html),\n      \"text\": \(text)\n    }\n  }"
        #expect(
            TextEdit.patchedPart(json, .json, old: old, new: new)
                == "{\n    \"definition\": {\n      \"html\": \"<p>A glyph, again</p>\\n\",\n      \"text\": \"A glyph, again\"\n    }\n  }")
        // An audio text equal to the definition's: which is which can't be told.
        let twice = json + ", \"text\": \(JSONWriter.quoted(old.text, htmlSafe: false))"
        #expect(TextEdit.patchedPart(twice, .json, old: old, new: new) == nil)
        // The CSV row's definition column, even when the summary's cell holds the same text.
        var cells = Array(repeating: GlossaryCSVExport.cell(""), count: GlossaryCSVExport.columns.count)
        let summary = GlossaryCSVExport.columns.firstIndex(of: "summary")!
        let definition = GlossaryCSVExport.columns.firstIndex(of: "definition")!
        cells[summary] = GlossaryCSVExport.cell(old.text)
        cells[definition] = GlossaryCSVExport.cell(old.text)
        let row = cells.joined(separator: ",") + "\r\n"
        #expect(TextEdit.csvCells(row) == cells)
        var patched = cells
        patched[definition] = GlossaryCSVExport.cell(new.text)
        #expect(TextEdit.patchedPart(row, .csv, old: old, new: new) == patched.joined(separator: ",") + "\r\n")
        #expect(TextEdit.csvCells("\"a\",b\r\n") == nil)
        #expect(TextEdit.csvCells("\"a\"\"b\",\"c\"\r\n") == ["\"a\"\"b\"", "\"c\""])
        // TBX: an empty definition is left out, so the shape would change.
        let tbx = "<descrip type=\"definition\">\(XMLText.escaped(old.text))</descrip>"
        #expect(TextEdit.patchedPart(tbx, .tbx, old: old, new: new) == "<descrip type=\"definition\">A glyph, again</descrip>")
        #expect(TextEdit.patchedPart(tbx, .tbx, old: old, new: .init(text: "", html: "")) == nil)
        // Compared as written: a decomposed é in the part is not the old text's é.
        let composed = TextEdit.Exported(text: "Caf\u{E9}", html: "<p>Caf\u{E9}</p>\n")
        let decomposed = "<descrip type=\"definition\">Cafe\u{301}</descrip>"
        #expect(TextEdit.patchedPart(decomposed, .tbx, old: composed, new: new) == nil)
        #expect(TextEdit.patchedPart(decomposed.precomposedStringWithCanonicalMapping, .tbx, old: composed, new: new) != nil)
        // Notes go to their own cells and elements.
        #expect(TextEdit.patchedPart(json, .json, old: old, new: .init(text: "Note: a", html: "<p>Note: a</p>")) == nil)
    }
}
