import Foundation
import Testing

@testable import GlossaryKit

/// One word, several meanings: team entries with the same `term:` and distinct `sense:` each get a page; a reference
/// picks one with `[[crane (machine)]]` or the page's `senses:`; a bare reference to such a word is ambiguous.
@Suite struct SensesTests {
    static let entries = """
        -- content/glossary/crane-bird.md --
        ---
        term: crane
        sense: bird
        ---
        A tall wading bird.
        -- content/glossary/crane-machine.md --
        ---
        term: crane
        sense: machine
        ---
        A machine that lifts loads.
        -- content/glossary/derrick.md --
        ---
        term: derrick
        ---
        A kind of [[crane (machine)]].

        """

    static let bird = TermKey.sense(word: "crane", sense: "bird")!.slug
    static let machine = TermKey.sense(word: "crane", sense: "machine")!.slug

    /// The `href`s of the page's term links, in order.
    func termLinks(_ html: String?) -> [String] {
        (html ?? "").matches(of: #/<a class="term" href="([^"]*)"/#).map { String($0.1) }
    }

    @Test func eachSenseHasItsOwnPageAndReferencesPickOne() async throws {
        let site = try ExportTestSite(
            Self.entries + """
                -- content/index.md --
                A [[crane (machine)]], a [[Crane (Bird)]], a [[derrick]].
                -- content/picked.md --
                ---
                senses: {crane: machine}
                terms: [crane]
                ---
                This [[crane]] lifts.
                """)
        defer { site.remove() }
        let (result, files) = await site.build()
        #expect(result.diagnostics.map(\.description) == [])
        #expect(Self.bird == "crane-bird-e858ac78" && Self.machine == "crane-machine-703d8dba")
        #expect(termLinks(files["index.html"]) == ["/terms/\(Self.machine)/", "/terms/\(Self.bird)/", "/terms/derrick/"])
        #expect(termLinks(files["picked/index.html"]) == ["/terms/\(Self.machine)/"])
        #expect(files["terms/\(Self.machine)/index.html"]?.contains(#"<h1 class="term-word">crane <span class="term-sense">(machine)</span></h1>"#) == true)
        #expect(files["terms/\(Self.machine)/index.html"]?.contains("<title>crane (machine) · Test</title>") == true)
        // The word once, its senses under it in order, each with its own page.
        let index = files["terms/index.html"] ?? ""
        let entries = index.matches(of: #/<dt><a href="([^"]*)">([^<]*)(?:<span class="term-sense">\(([^)]*)\)</span>)?</a>/#).map {
            "\($0.1) \($0.2)\($0.3.map { "(\($0))" } ?? "")"
        }
        #expect(entries == ["/terms/\(Self.bird)/ crane (bird)", "/terms/\(Self.machine)/ crane (machine)", "/terms/derrick/ derrick"])
        // The exports carry the sense.
        let json = try JSONParser.parse(Array((files["glossary.json"] ?? "").utf8))
        let senses = (json["terms"]?.arrayValue ?? []).map { "\($0["key"]?.stringValue ?? "?")=\($0["sense"]?.stringValue ?? "null")" }
        #expect(senses == ["crane (bird)=bird", "crane (machine)=machine", "derrick=null"])
        #expect(files["glossary.csv"]?.contains("\"crane (machine)\",\"crane\",\"machine\",\"\(Self.machine)\",") == true)
    }

    @Test func aBareReferenceToAWordOfSeveralSensesIsAmbiguous() async throws {
        let site = try ExportTestSite(
            Self.entries + """
                -- content/index.md --
                ---
                terms: [crane]
                ---
                A [[crane]] and a [[crane (bird)]].
                """)
        defer { site.remove() }
        let (result, files) = await site.build()
        let message = "'crane' has several senses: 'crane (bird)', 'crane (machine)'; write one, or pick one in front matter with 'senses:'; linking the first"
        #expect(
            result.diagnostics.map(\.description) == [
                "content/index.md:2:8: warning: \(message) [ambiguous-term]",
                "content/index.md:4:3: warning: \(message) [ambiguous-term]",
            ])
        #expect(termLinks(files["index.html"]) == ["/terms/\(Self.bird)/", "/terms/\(Self.bird)/"])
    }

    @Test func aWordWithOneSenseOrAnEntryWithoutOneIsNotAmbiguous() async throws {
        let site = try ExportTestSite(
            """
            -- content/glossary/bank.md --
            ---
            term: bank
            ---
            Where money is kept.
            -- content/glossary/bank-river.md --
            ---
            term: bank
            sense: river
            ---
            The side of a river.
            -- content/glossary/pitch.md --
            ---
            term: pitch
            sense: sound
            ---
            How high a sound is.
            -- content/index.md --
            A [[bank]], a [[bank (river)]], a [[pitch]].
            """)
        defer { site.remove() }
        let (result, files) = await site.build()
        #expect(result.diagnostics.map(\.description) == [])
        let river = TermKey.sense(word: "bank", sense: "river")!.slug
        let sound = TermKey.sense(word: "pitch", sense: "sound")!.slug
        #expect(termLinks(files["index.html"]) == ["/terms/bank/", "/terms/\(river)/", "/terms/\(sound)/"])
    }

    @Test func twoEntriesOfOneSenseAreADuplicate() async throws {
        let (_, _, diagnostics) = SiteBuilder.teamDefinitions(
            ["a", "b"].map { name in
                var metadata = PageMetadata()
                metadata.term = "crane"
                metadata.sense = "bird"
                metadata.locations["term"] = SourceLocation(file: "content/glossary/\(name).md", line: 2, column: 7)
                let page = Page(kind: .glossaryEntry, displayPath: "content/glossary/\(name).md", contentPath: "glossary/\(name).md", metadata: metadata)
                return PageRecord(
                    page: page, references: [], declaredTerms: [], links: [], firstHeading: nil, startsWithTitleHeading: false, firstParagraph: "A bird.",
                    diagnostics: [], contentHash: .zero, hasBody: true)
            })
        #expect(diagnostics.map(\.description) == ["content/glossary/b.md:2:7: error: 'crane (bird)' is already defined [duplicate-term]"])
    }
}
