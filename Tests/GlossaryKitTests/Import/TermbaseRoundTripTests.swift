import Foundation
import Testing

@testable import GlossaryKit

/// A three-language termbase (`Tests/TBX/three-languages.tbx`, written by hand): imported into each language's glossary
/// folder with its concepts, statuses, notes and sources; exported and imported again without a byte or an entry
/// changing. The same for a CSV file in three languages.
@Suite struct TermbaseRoundTripTests {
    static let languages = SiteLanguages(codes: ["en", "fr", "de"])
    static let termbase = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("TBX/three-languages.tbx")

    func plan(_ data: Data, file: String) -> GlossaryImport {
        GlossaryImport.plan(data, file: file, source: URL(fileURLWithPath: "/nonexistent"), languages: Self.languages, force: false)
    }

    /// The export `file` of a three-language site whose entries are `imported`'s.
    func export(_ imported: GlossaryImport, file: String) async throws -> String {
        let entries = imported.files.map { "-- \($0.path) --\n\($0.text)" }.joined()
        let site = try ExportTestSite(
            "-- glossary.yml --\ntitle: Termbase\nlanguages: [en, fr, de]\n" + entries
                + "-- content/index.md --\nHello.\n-- content/fr/index.md --\nBonjour.\n-- content/de/index.md --\nHallo.\n")
        defer { site.remove() }
        let (result, files) = await site.build()
        #expect(result.diagnostics.filter { $0.severity == .error }.map(\.description) == [])
        return try #require(files[file])
    }

    /// Entries in an order that does not depend on the file's.
    func sorted(_ entries: [ImportedEntry]) -> [ImportedEntry] {
        entries.map(\.content).sorted { ($0.language, $0.term) < ($1.language, $1.term) }
    }

    @Test func eachLanguageGoesToItsGlossaryFolderWithItsConcept() throws {
        let imported = plan(try Data(contentsOf: Self.termbase), file: "three-languages.tbx")
        #expect(
            imported.diagnostics.map(\.description) == [
                "three-languages.tbx:10:1: warning: <descrip type=\"subjectField\"> is not imported: glossary has nothing to map it to [import-unmapped]",
                "three-languages.tbx:54:1: warning: <termNote type=\"register\"> is not imported: glossary has nothing to map it to [import-unmapped]",
                "three-languages.tbx:68:1: warning: a language section in 'it' (the site is in 'en', 'fr', 'de') is not imported: glossary has nothing to map it to [import-unmapped]",
                "three-languages.tbx:89:1: warning: <termNote type=\"grammaticalGender\"> is not imported: glossary has nothing to map it to [import-unmapped]",
            ])
        #expect(
            imported.files.map(\.path) == [
                "content/glossary/log_in.md", "content/fr/glossary/se_connecter.md", "content/de/glossary/anmelden.md", "content/glossary/server.md",
                "content/fr/glossary/serveur.md", "content/de/glossary/serverrechner.md", "content/glossary/host.md", "content/de/glossary/hostrechner.md",
                "content/glossary/gadget.md",
            ])
        #expect(
            imported.files[0].text == """
                ---
                term: "log in"
                concept: "c-login"
                aliases: ["sign in"]
                deprecated: ["logon", "log-on"]
                forbidden: ["login"]
                part_of_speech: "verb"
                ---
                To open a session with your account.

                Note: Reviewed by the docs team.

                Note: Two words as a verb, one as a noun.

                Source: Style guide, section 4

                """)
        #expect(
            imported.files[7].text == """
                ---
                term: "Hostrechner"
                concept: "c-host"
                status: forbidden
                use: "Serverrechner"
                ---

                """)
        #expect(imported.files[8].text.contains("\nstatus: admitted\n"))
    }

    @Test func exportImportExportGivesTheSameTBXByteForByte() async throws {
        let first = try await export(plan(try Data(contentsOf: Self.termbase), file: "three-languages.tbx"), file: "glossary.tbx")
        let again = plan(Data(first.utf8), file: "glossary.tbx")
        #expect(again.diagnostics.map(\.description) == [])
        let second = try await export(again, file: "glossary.tbx")
        #expect(second == first)
        // One concept, a langSec per language, the replacement by its concept.
        #expect(
            first.contains(
                """
                <conceptEntry id="c-host">
                <langSec xml:lang="en">
                <descripGrp>
                <descrip type="definition">The old word for a server.</descrip>
                </descripGrp>
                <termSec>
                <term>host</term>
                <termNote type="administrativeStatus">deprecatedTerm-admn-sts</termNote>
                <ref type="crossReference" target="c-server">server</ref>
                </termSec>
                </langSec>
                <langSec xml:lang="de">
                <termSec>
                <term>Hostrechner</term>
                <termNote type="administrativeStatus">forbiddenTerm-admn-sts</termNote>
                <ref type="crossReference" target="c-server">Serverrechner</ref>
                </termSec>
                </langSec>
                </conceptEntry>

                """))
        #expect(
            first.contains(
                """
                <langSec xml:lang="en">
                <descripGrp>
                <descrip type="definition">To open a session with your account.</descrip>
                <admin type="source">Style guide, section 4</admin>
                </descripGrp>
                <note>Reviewed by the docs team.</note>
                <note>Two words as a verb, one as a noun.</note>
                <termSec>
                <term>log in</term>
                """))
        try TBXSchema.validate(first)
    }

    @Test func importExportImportGivesTheSameEntries() async throws {
        let entries = plan(try Data(contentsOf: Self.termbase), file: "three-languages.tbx").entries
        let again = plan(Data(try await export(plan(try Data(contentsOf: Self.termbase), file: "t.tbx"), file: "glossary.tbx").utf8), file: "glossary.tbx")
        #expect(sorted(again.entries) == sorted(entries))
        #expect(entries.count == 9)
    }

    /// One row a term, with its language and concept; quotes, commas and line breaks in cells; a byte order mark;
    /// cells a spreadsheet would read as formulas.
    static let csv =
        "\u{FEFF}term,language,concept,status,use,aliases,deprecated,part_of_speech,definition,notes,sources\r\n"
        + "\"log in\",en,c-login,,,\"sign in\",logon,verb,\"To open a session, \"\"quickly\"\".\nA second paragraph.\",\"One note.\nAnother, with a comma.\",Style guide\r\n"
        + "\"se connecter\",fr,c-login,,,,,verb,Ouvrir une session.,,\r\n"
        + "anmelden,de,c-login,,,,,verb,=SUM(A1),+1,@x\r\n"
        + "host,en,c-host,deprecated,server,,,,The old word.,,\r\n"
        + "server,en,c-server,,,,,noun,'=1+2,,\r\n"

    @Test func aCSVInThreeLanguagesSurvivesExportAndImport() async throws {
        let imported = plan(Data(Self.csv.utf8), file: "terms.csv")
        #expect(imported.diagnostics.map(\.description) == [])
        #expect(imported.files.map(\.path).contains("content/de/glossary/anmelden.md"))
        let anmelden = try #require(imported.entries.first { $0.term == "anmelden" })
        #expect(anmelden.definition == "=SUM(A1)")
        #expect(anmelden.notes == ["+1"])
        #expect(anmelden.sources == ["@x"])
        #expect(imported.entries.first { $0.term == "server" }?.definition == "=1+2")
        let logIn = try #require(imported.entries.first)
        #expect(logIn.notes == ["One note.", "Another, with a comma."])
        #expect(logIn.definition == "To open a session, \"quickly\".\nA second paragraph.")
        let host = try #require(imported.entries.first { $0.term == "host" })
        #expect(host.status == .deprecated && host.use == "server" && host.concept == "c-host")
        let exported = try await export(imported, file: "glossary.csv")
        #expect(exported.contains(#""deprecated","server","","","","","en","c-host"\#r\#n"#))
        #expect(exported.contains(#""logon","","One note.\#nAnother, with a comma.","Style guide","en","c-login"\#r\#n"#))
        // Formulas leave as text.
        #expect(exported.contains(#""'=SUM(A1)","verb""#))
        #expect(exported.contains(#""'+1","'@x","de","c-login""#))
        let again = plan(Data(exported.utf8), file: "glossary.csv")
        #expect(again.diagnostics.map(\.description) == [])
        #expect(sorted(again.entries) == sorted(imported.entries))
    }

    /// A definition of two paragraphs leaves the TBX export as two lines of its `descrip`, and comes back as two.
    @Test func aDefinitionsParagraphsSurviveTheTBXRoundTrip() async throws {
        let first = try await export(plan(Data(Self.csv.utf8), file: "terms.csv"), file: "glossary.tbx")
        #expect(first.contains("<descrip type=\"definition\">To open a session, &quot;quickly&quot;.\nA second paragraph.</descrip>"))
        let again = plan(Data(first.utf8), file: "glossary.tbx")
        #expect(again.diagnostics.map(\.description) == [])
        #expect(again.entries.first { $0.term == "log in" }?.definition == "To open a session, \"quickly\".\nA second paragraph.")
        let second = try await export(again, file: "glossary.tbx")
        #expect(second == first)
    }
}

/// xmllint (Debian's libxml2-utils) checks a TBX file against the TBX core structure: `Tests/TBX/tbx-core.rng`.
enum TBXSchema {
    static func validate(_ tbx: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xmllint") else { return }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glossary-tbx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("glossary.tbx")
        try Data(tbx.utf8).write(to: file)
        let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("TBX/tbx-core.rng")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xmllint")
        process.arguments = ["--noout", "--relaxng", schema.path, file.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(output)", sourceLocation: sourceLocation)
    }
}
