import Foundation
import Testing

@testable import GlossaryKit

/// `glossary import`: TBX (libxml2) and CSV (RFC 4180) into team entries, every unmapped element reported, and the
/// round trips through the TBX export.
@Suite struct GlossaryImportTests {
    static let tbx = """
        <?xml version="1.0" encoding="UTF-8"?>
        <tbx type="TBX-Basic" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed:3.0">
        <tbxHeader><fileDesc><sourceDesc><p>By hand.</p></sourceDesc></fileDesc></tbxHeader>
        <text>
        <body>
        <conceptEntry id="c1">
        <descrip type="subjectField">Computing</descrip>
        <langSec xml:lang="en">
        <descripGrp>
        <descrip type="definition">To open a session.</descrip>
        <admin type="source">https://example.org/style</admin>
        </descripGrp>
        <note>Two words as a verb.</note>
        <termSec>
        <term>log in</term>
        <termNote type="partOfSpeech">verb</termNote>
        <termNote type="administrativeStatus">preferredTerm-admn-sts</termNote>
        </termSec>
        <termSec>
        <term>sign in</term>
        <termNote type="administrativeStatus">admittedTerm-admn-sts</termNote>
        <termNote type="grammaticalGender">neuter</termNote>
        </termSec>
        <termSec>
        <term>logon</term>
        <termNote type="administrativeStatus">deprecatedTerm-admn-sts</termNote>
        </termSec>
        <termSec>
        <term>login</term>
        <termNote type="administrativeStatus">supersededTerm-admn-sts</termNote>
        </termSec>
        <termSec>
        <term>log-in</term>
        <termNote type="administrativeStatus">forbiddenTerm-admn-sts</termNote>
        </termSec>
        </langSec>
        <langSec xml:lang="fr">
        <termSec><term>se connecter</term></termSec>
        </langSec>
        </conceptEntry>
        <conceptEntry id="c2">
        <langSec xml:lang="en">
        <termSec>
        <term>host</term>
        <termNote type="administrativeStatus">deprecatedTerm-admn-sts</termNote>
        <ref type="crossReference" target="c3">server</ref>
        </termSec>
        </langSec>
        </conceptEntry>
        </body>
        </text>
        </tbx>

        """

    func plan(_ text: String, file: String, force: Bool = false, in source: URL = URL(fileURLWithPath: "/nonexistent")) -> GlossaryImport {
        GlossaryImport.plan(Data(text.utf8), file: file, source: source, languages: SiteLanguages(codes: ["en"]), force: force)
    }

    @Test func aHandWrittenTBXBecomesEntriesAndEveryUnmappedElementIsReported() {
        let imported = plan(Self.tbx, file: "terms.tbx")
        #expect(
            imported.diagnostics.map(\.description) == [
                "terms.tbx:7:1: warning: <descrip type=\"subjectField\"> is not imported: glossary has nothing to map it to [import-unmapped]",
                "terms.tbx:22:1: warning: <termNote type=\"grammaticalGender\"> is not imported: glossary has nothing to map it to [import-unmapped]",
                "terms.tbx:37:1: warning: a language section in 'fr' (the site is in 'en') is not imported: glossary has nothing to map it to [import-unmapped]",
            ])
        #expect(imported.files.map(\.path) == ["content/glossary/log_in.md", "content/glossary/host.md"])
        #expect(
            imported.files.first?.text == """
                ---
                term: "log in"
                concept: "c1"
                aliases: ["sign in"]
                deprecated: ["logon", "login"]
                forbidden: ["log-in"]
                part_of_speech: "verb"
                ---
                To open a session.

                Note: Two words as a verb.

                Source: https://example.org/style

                """)
        #expect(
            imported.files.last?.text == """
                ---
                term: "host"
                concept: "c2"
                status: deprecated
                use: "server"
                ---

                """)
    }

    @Test func notWellFormedXMLIsAnErrorAtItsPlace() {
        let imported = plan("<tbx>\n<text>\n</tbx>\n", file: "bad.tbx")
        #expect(imported.diagnostics.map(\.code) == [.importSyntax])
        // libxml2's last error: the document ends with <text> still open.
        #expect(imported.diagnostics.first?.location?.line == 4)
        #expect(imported.diagnostics.first?.message.hasPrefix("not well-formed XML: ") == true)
        #expect(imported.files.isEmpty)
    }

    @Test func csvWithQuotesCommasNewlinesABOMAndAFormula() {
        let csv =
            "\u{FEFF}term,definition,aliases,status,colour\r\n"
            + "\"comma, word\",\"One, two\r\nthree \"\"quoted\"\"\",a; b,,red\r\n"
            + "sum,=SUM(A1),,deprecated,\r\n"
            + "plus,'+1,,,\r\n"
        let imported = plan(csv, file: "terms.csv")
        #expect(
            imported.diagnostics.map(\.description) == [
                "terms.csv:1:32: warning: the column 'colour' is not imported: glossary has nothing to map it to [import-unmapped]"
            ])
        #expect(imported.entries.map(\.term) == ["comma, word", "sum", "plus"])
        #expect(imported.entries[0].definition == "One, two\r\nthree \"quoted\"")
        #expect(imported.entries[0].aliases == ["a", "b"])
        #expect(imported.entries[1].definition == "=SUM(A1)")
        #expect(imported.entries[1].status == .deprecated)
        #expect(imported.entries[2].definition == "+1")
        #expect(imported.files[1].text.hasSuffix("---\n\\=SUM(A1)\n"))
    }

    @Test func aSiteInOneLanguageReportsRowsInAnother() {
        let imported = plan("term,language\nserver,en\nserveur,fr-CA\nhost,\n", file: "a.csv")
        #expect(
            imported.diagnostics.map(\.description) == [
                "a.csv:3:1: warning: a row in 'fr-CA' (the site is in 'en') is not imported: glossary has nothing to map it to [import-unmapped]"
            ])
        #expect(imported.files.map(\.path) == ["content/glossary/server.md", "content/glossary/host.md"])
    }

    @Test func theDefaultLanguageNotAtTheRootHasItsOwnFolder() {
        let languages = SiteLanguages(codes: ["en", "fr"], defaultAtRoot: false)
        let imported = GlossaryImport.plan(
            Data("term,language\nserver,\nserveur,fr\n".utf8), file: "a.csv", source: URL(fileURLWithPath: "/nonexistent"), languages: languages, force: false)
        #expect(imported.files.map(\.path) == ["content/en/glossary/server.md", "content/fr/glossary/serveur.md"])
    }

    @Test func anUnclosedQuoteIsAnError() {
        #expect(
            plan("term\n\"open\n", file: "a.csv").diagnostics.map(\.description) == ["a.csv:2:1: error: a quoted CSV field is never closed [import-syntax]"])
    }

    @Test func anExistingEntryIsKeptWithoutForce() throws {
        let site = try ExportTestSite("-- content/glossary/host.md --\n---\nterm: host\n---\nMine.\n")
        defer { site.remove() }
        let kept = plan("term\nhost\n", file: "a.csv", in: site.root)
        #expect(kept.diagnostics.map(\.description) == ["a.csv:2:1: error: content/glossary/host.md exists; pass --force to replace it [import-exists]"])
        #expect(kept.files.isEmpty)
        #expect(plan("term\nhost\n", file: "a.csv", force: true, in: site.root).files.map(\.exists) == [true])
    }

    /// A site of team entries with every status, exported; its TBX imported into an empty site and exported again.
    static let site = """
        -- glossary.yml --
        title: Round trip
        -- content/glossary/log-in.md --
        ---
        term: log in
        aliases: [sign in]
        deprecated: [logon]
        forbidden: [login]
        part_of_speech: verb
        ---
        To open a session.
        -- content/glossary/server.md --
        ---
        term: server
        part_of_speech: noun
        ---
        A computer that serves others.
        -- content/glossary/host.md --
        ---
        term: host
        status: deprecated
        use: server
        ---
        The old word for a server.
        -- content/index.md --
        Hello.

        """

    func export(_ text: String) async throws -> String {
        let site = try ExportTestSite(text)
        defer { site.remove() }
        let (result, files) = await site.build()
        #expect(result.diagnostics.filter { $0.severity == .error } == [])
        return try #require(files["glossary.tbx"])
    }

    /// The site's files with its entries replaced by those `tbx` imports.
    func reimported(_ tbx: String) -> (site: String, entries: [ImportedEntry]) {
        let imported = plan(tbx, file: "glossary.tbx")
        #expect(imported.diagnostics == [])
        let files = imported.files.map { "-- \($0.path) --\n\($0.text)" }.joined()
        return ("-- glossary.yml --\ntitle: Round trip\n" + files + "-- content/index.md --\nHello.\n", imported.entries)
    }

    @Test func exportImportExportGivesTheSameTBXByteForByte() async throws {
        let first = try await export(Self.site)
        #expect(first.contains("<termNote type=\"administrativeStatus\">forbiddenTerm-admn-sts</termNote>"))
        #expect(first.contains("<ref type=\"crossReference\" target=\"term-server\">server</ref>"))
        let second = try await export(reimported(first).site)
        #expect(second == first)
    }

    @Test func importExportImportGivesTheSameEntries() async throws {
        let (site, entries) = reimported(try await export(Self.site))
        let again = reimported(try await export(site)).entries
        #expect(again.map(\.content) == entries.map(\.content))
        #expect(entries.count == 3)
    }

    /// xmllint checks the export against the TBX core structure (`TBXSchema`).
    @Test func theExportValidates() async throws {
        try TBXSchema.validate(try await export(Self.site))
    }
}
