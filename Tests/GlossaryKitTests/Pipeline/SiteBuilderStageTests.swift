import Foundation
import Testing

@testable import GlossaryKit

/// The build's stages, each alone, on values.
@Suite struct SiteBuilderStageTests {
    /// The record of a file (nil when it can't be published) and every problem found in it.
    func parse(_ path: String, _ text: String, drafts: Bool = false) -> (PageRecord?, [Diagnostic]) {
        let (parsed, failures) = PageParser.parse(
            Data(text.utf8), file: .init(displayPath: "content/" + path, contentPath: path, url: URL(fileURLWithPath: "/x")), drafts: drafts)
        return (parsed?.record, failures + (parsed?.record.diagnostics ?? []))
    }

    @Test func referencesCarryFileLinesAfterFrontMatter() throws {
        let (page, diagnostics) = parse("a.md", "---\ntitle: A\nterms: [glyph]\n---\n\nSee [[Kerning]].\n")
        #expect(diagnostics.isEmpty)
        let parsed = try #require(page)
        #expect(parsed.references.map { "\($0.location)" } == [#"SourceLocation(file: "content/a.md", line: 6, column: 5)"#])
        #expect(parsed.declaredTerms.map(\.key.rawValue) == ["glyph"])
        #expect(parsed.declaredTerms.first?.location.line == 3)
    }

    @Test func draftsAreReadForTheirFrontMatterOnlyUnlessRequested() {
        #expect(parse("d.md", "---\ndraft: true\n---\n[[x]]\n").0?.hasBody == false)
        #expect(parse("d.md", "---\ndraft: true\n---\n[[x]]\n").0?.references.isEmpty == true)
        #expect(parse("d.md", "---\ndraft: true\n---\n[[x]]\n", drafts: true).0?.hasBody == true)
        #expect(parse("d.md", "---\ndraft: true\n---\n[[x]]\n", drafts: true).0?.references.count == 1)
    }

    @Test func glossaryEntryNeedsATerm() {
        let (_, diagnostics) = parse("glossary/x.md", "---\npart_of_speech: noun\n---\nA thing.\n")
        #expect(diagnostics.map(\.description) == ["content/glossary/x.md:1:1: error: glossary entry has no 'term:' in its front matter [entry-missing-term]"])
    }

    /// A term that names no word, or a name longer than a reference may be, would make an entry nothing links to.
    @Test func anEntrysTermNamesAWordAndItsNamesFitAReference() {
        for term in ["\"\"", "\"   \""] {
            #expect(
                parse("glossary/x.md", "---\nterm: \(term)\n---\nA thing.\n").1.map(\.description) == [
                    "content/glossary/x.md:2:7: error: glossary entry's 'term:' names no word [entry-missing-term]"
                ], "\(term)")
        }
        let long = String(repeating: "a", count: TermKey.maximumWordLength + 1)
        let longer = String(repeating: "é", count: TermKey.maximumWordLength + 2)
        let fits = String(repeating: "o", count: TermKey.maximumWordLength)
        let text = "---\nterm: \(long)\naliases: [\(fits), \(longer)]\ndeprecated: [old, \(long)b]\n---\nA thing.\n"
        let shown = DiagnosticText.quoted
        #expect(
            parse("glossary/x.md", text).1.map(\.description) == [
                "content/glossary/x.md:2:7: error: term \(shown(long)) is 201 characters long, more than a term may have (200) [term-too-long]",
                "content/glossary/x.md:3:213: error: term \(shown(longer)) is 202 characters long, more than a term may have (200) [term-too-long]",
                "content/glossary/x.md:4:19: error: term \(shown(long + "b")) is 202 characters long, more than a term may have (200) [term-too-long]",
            ])
        #expect(parse("glossary/x.md", "---\nterm: \(fits)\naliases: [\(fits)x]\n---\nA thing.\n").1.count == 1)
        #expect(parse("glossary/x.md", "---\nterm: \(fits)\n---\nA thing.\n").1.isEmpty)
    }

    /// On any number of cores: the entries' definitions are made in parallel, the names given in path order.
    @Test(arguments: [1, 2]) func teamDefinitionsIndexAliasesAndRejectDuplicates(jobs: Int) throws {
        let pages = [
            parse("glossary/a.md", "---\nterm: Leading\naliases: [line spacing, leading, Leading]\n---\nSpace.\n").0!,
            parse("glossary/b.md", "---\nterm: line spacing\n---\nAgain.\n").0!,
            parse("glossary/c.md", "---\nterm: LEADING\n---\nThird.\n").0!,
        ]
        let (team, _, diagnostics) = SiteBuilder.teamDefinitions(pages, jobs: jobs)
        // Terms win over aliases; an alias naming its own term says nothing new.
        #expect(team[TermKey("line spacing")!]?.word == "line spacing")
        #expect(team[TermKey("leading")!]?.word == "Leading")
        #expect(
            diagnostics.map(\.description) == [
                "content/glossary/c.md:2:7: error: 'leading' is already defined [duplicate-term]",
                "content/glossary/a.md:3:11: error: alias 'line spacing' is already the term 'line spacing' [alias-collision]",
            ])
        #expect(
            diagnostics.first?.notes == [
                Diagnostic.Note("'leading' is first defined here", at: SourceLocation(file: "content/glossary/a.md", line: 2, column: 7))
            ])
        #expect(
            diagnostics.last?.notes == [
                Diagnostic.Note("'line spacing' is defined here", at: SourceLocation(file: "content/glossary/b.md", line: 2, column: 7))
            ])
    }

    @Test(arguments: [1, 2]) func anAliasOfTwoEntriesBelongsToTheFirst(jobs: Int) throws {
        let pages = [
            parse("glossary/a.md", "---\nterm: Leading\naliases: [Line Spacing]\n---\nSpace.\n").0!,
            parse("glossary/b.md", "---\nterm: Interlinear space\naliases: [interlinear, line  spacing]\n---\nAgain.\n").0!,
        ]
        let (team, _, diagnostics) = SiteBuilder.teamDefinitions(pages, jobs: jobs)
        #expect(team[TermKey("line spacing")!]?.word == "Leading")
        #expect(team[TermKey("interlinear")!]?.word == "Interlinear space")
        #expect(
            diagnostics.map(\.description) == ["content/glossary/b.md:3:24: error: alias 'line  spacing' is already an alias of 'Leading' [alias-collision]"])
        #expect(
            diagnostics.first?.notes == [
                Diagnostic.Note("'line spacing' is first an alias of 'Leading' here", at: SourceLocation(file: "content/glossary/a.md", line: 3, column: 11))
            ])
    }

    @Test func collectsEveryReferenceByKeyAcrossSpellings() throws {
        let pages = [
            parse("a.md", "[[Keyboard]] and [[keyboard]]\n").0!,
            parse("b.md", "[[KEYBOARD|keyboard]] and [[café]] [[cafe\u{301}]]\n").0!,
        ]
        let usage = SiteBuilder.collectReferences(pages)
        #expect(usage[TermKey("keyboard")!]?.count == 3)
        #expect(usage[TermKey("café")!]?.count == 2)
        #expect(usage.count == 2)
    }

    @Test func eachUseIsThePlaceOfItsReferenceWithDeclaredTermsAfterTheText() throws {
        let pages = [
            parse("a.md", "[[Keyboard]] then [[mouse]]\n").0!,
            parse("b.md", "---\nterms: [mouse, trackpad]\n---\n[[Keys|keyboard]]\n").0!,
        ]
        let usage = SiteBuilder.collectReferences(pages)
        let places = usage.mapValues { $0.map { [$0.pageIndex, $0.referenceIndex] } }
        #expect(places == [TermKey("keyboard")!: [[0, 0], [1, 0]], TermKey("mouse")!: [[0, 1], [1, 1]], TermKey("trackpad")!: [[1, 2]]])
        for (key, uses) in usage {
            for use in uses {
                let reference = pages[use.pageIndex].reference(at: use.referenceIndex)
                #expect(reference == pages[use.pageIndex].allReferences[use.referenceIndex])
                #expect(reference.key == key)
            }
        }
        #expect(pages[1].reference(at: 2).word == "trackpad")
        #expect(pages[1].reference(at: 0).shown == "Keys")
    }
}
