import Foundation
import TestSupport
import Testing

@testable import GlossaryKit

/// `glossary.csv`: RFC 4180, one row per term, and nothing a spreadsheet would run as a formula.
@Suite struct GlossaryCSVExportTests {
    @Test func oneQuotedRowPerTermWithCRLF() async throws {
        let site = try ExportTestSite(ExportTestSite.typeSite)
        defer { site.remove() }
        let (_, files) = await site.build()
        let expected =
            "\"key\",\"word\",\"sense\",\"slug\",\"url\",\"summary\",\"definition\",\"part_of_speech\",\"phonetic\",\"audio\",\"aliases\",\"forms\",\"source\",\"source_urls\",\"licenses\",\"pages\","
            + "\"status\",\"use\",\"deprecated\",\"forbidden\",\"notes\",\"sources\",\"language\",\"concept\"\r\n"
            + "\"kerning\",\"Kerning\",\"\",\"kerning\",\"https://docs.example.org/docs/terms/kerning/\","
            + "\"The space between two letters; see the intro and quill.\",\"The space between two letters; see the intro and quill.\nA second paragraph.\","
            + "\"noun\",\"/ˈkɜːnɪŋ/\",\"\",\"pair kerning\",\"Kerning; kerning; pair kerning\",\"glossary\",\"\",\"\","
            + "\"https://docs.example.org/docs/guide/intro/ https://docs.example.org/docs/\",\"\",\"\",\"\",\"\",\"\",\"\",\"en\",\"\"\r\n"
            + "\"quill\",\"quill\",\"\",\"quill\",\"https://docs.example.org/docs/terms/quill/\",\"A pen made from a feather.\","
            + "\"noun\n1. A pen made from a feather.\n2. A spine of a porcupine.\nverb\n1. To pleat.\",\"noun\",\"/kwɪl/\","
            + "\"https://media.example/quill-us.mp3\",\"\",\"quill\",\"dictionary\",\"https://en.wiktionary.org/wiki/quill\","
            + "\"CC BY-SA 3.0 (https://creativecommons.org/licenses/by-sa/3.0)\",\"https://docs.example.org/docs/\",\"\",\"\",\"\",\"\",\"\",\"\",\"en\",\"\"\r\n"
        #expect(files["glossary.csv"] == expected)
    }

    @Test(arguments: [
        ("=HYPERLINK(\"http://x\")", "\"'=HYPERLINK(\"\"http://x\"\")\""),
        ("+1+2", "\"'+1+2\""),
        ("-2+3", "\"'-2+3\""),
        ("@SUM(A1)", "\"'@SUM(A1)\""),
        ("\tcmd", "\"'\tcmd\""),
        ("\r=1", "\"'\r=1\""),
        // A control character first is dropped, and what it hid is neutralised.
        ("\u{1}=1", "\"'=1\""),
        ("a=1", "\"a=1\""),
        ("say \"hi\", then\nleave", "\"say \"\"hi\"\", then\nleave\""),
        ("", "\"\""),
    ])
    func cellsThatSpreadsheetsWouldRunStartWithAnApostrophe(value: String, cell: String) {
        #expect(GlossaryCSVExport.cell(value) == cell)
    }

    /// The cell made on bytes is the one made scalar by scalar, as it was, for any text.
    @Test func cellsOnBytesAreCellsOnScalars() {
        func reference(_ value: String) -> String {
            var text = ""
            for scalar in value.unicodeScalars {
                if scalar == "\"" {
                    text += "\"\""
                } else if HTML.isHidden(scalar) {
                    continue
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
            if let first = text.unicodeScalars.first, GlossaryCSVExport.formulaStarts.contains(first) { text = "'" + text }
            return "\"" + text + "\""
        }
        let pieces = [
            "a", "\"", "=", "+", "-", "@", "\t", "\r", "\n", "\r\n", "\u{1}", "\u{7F}", "\u{80}", "\u{9F}", "\u{A0}", "\u{202E}", "\u{202F}", "é", "語", "😀",
            "\u{301}", " ", ",",
        ]
        var random = SeededRandom(seed: 0xc5f)
        for _ in 0..<3000 {
            let value = (0..<Int(random.next() % 8)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            #expect(GlossaryCSVExport.cell(value) == reference(value), "\(value.debugDescription)")
        }
    }

    @Test func formulaLikeTermsAndDefinitionsAreNeutralisedInTheFile() async throws {
        let site = try ExportTestSite(
            """
            -- content/index.md --
            [[=cmd]] and [[@home]]
            -- content/glossary/cmd.md --
            ---
            term: "=cmd"
            aliases: ["+plus"]
            ---
            -2+3 is "five", @ a glance.
            -- content/glossary/home.md --
            ---
            term: "@home"
            ---
            =SUM(A1:A3)
            """)
        defer { site.remove() }
        let (_, files) = await site.build()
        let csv = try #require(files["glossary.csv"])
        let rows = csv.components(separatedBy: "\r\n")
        #expect(rows.count == 4 && rows[3] == "")
        #expect(rows[1].hasPrefix("\"'=cmd\",\"'=cmd\",\"\",\"cmd-e862bb30\",\"/terms/cmd-e862bb30/\",\"'-2+3 is \"\"five\"\", @ a glance.\""))
        #expect(rows[1].contains(",\"'+plus\",\"'=cmd\","))
        #expect(rows[2].hasPrefix("\"'@home\",\"'@home\",\"\",\"home-"))
        #expect(rows[2].contains(",\"'=SUM(A1:A3)\",\"'=SUM(A1:A3)\","))
    }

    /// Python's csv module (what many pipelines read CSV with) reads the file back cell for cell.
    @Test func pythonsCSVModuleReadsItBack() async throws {
        let python = URL(fileURLWithPath: "/usr/bin/python3")
        try #require(FileManager.default.isExecutableFile(atPath: python.path), "python3 is needed (Debian's python3)")
        let site = try ExportTestSite(ExportTestSite.typeSite)
        defer { site.remove() }
        let (_, files) = await site.build()
        let file = site.root.appendingPathComponent("glossary.csv")
        try Data(try #require(files["glossary.csv"]).utf8).write(to: file)
        let script = """
            import csv, json, sys
            with open(sys.argv[1], newline="", encoding="utf-8") as f:
                print(json.dumps(list(csv.DictReader(f, strict=True))))
            """
        let result = try await ChildProcess.run(python, ["-c", script, file.path])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: String]])
        #expect(rows.map { $0["key"] } == ["kerning", "quill"])
        #expect(rows.first?["definition"] == "The space between two letters; see the intro and quill.\nA second paragraph.")
        #expect(rows.first?["forms"] == "Kerning; kerning; pair kerning")
        #expect(rows.last?["licenses"] == "CC BY-SA 3.0 (https://creativecommons.org/licenses/by-sa/3.0)")
        #expect(rows.allSatisfy { $0.count == GlossaryCSVExport.columns.count })
    }

    /// A team entry's notes and sources are its lines that start `Note: ` and `Source: `; a dictionary's definition is
    /// never split.
    @Test(arguments: [
        ("One line.", "One line.", [String](), [String]()),
        ("Text.\nNote: a note.\nSource: a book.\nMore.", "Text.\nMore.", ["a note."], ["a book."]),
        ("Note: first.\nText.", "Text.", ["first."], []),
        ("Text. Note: inside a line.", "Text. Note: inside a line.", [], []),
        ("Text.\r\nNote: after CRLF, one line.", "Text.\r\nNote: after CRLF, one line.", [], []),
        ("Text.\nNote:no space.\nnote: lower case.", "Text.\nNote:no space.\nnote: lower case.", [], []),
    ])
    func notesAndSourcesAreTheLinesThatStartWithTheirPrefix(text: String, definition: String, notes: [String], sources: [String]) {
        var term = GlossaryExportFingerprintTests.term(0)
        term.definitionText = text
        let parts = term.definitionParts
        #expect(parts.definition == definition)
        #expect(parts.notes == notes)
        #expect(parts.sources == sources)
        term.source.kind = "dictionary"
        #expect(term.definitionParts.definition == text)
        #expect(term.definitionParts.notes.isEmpty && term.definitionParts.sources.isEmpty)
    }
}
