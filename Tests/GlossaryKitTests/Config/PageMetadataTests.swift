import Testing

@testable import GlossaryKit

/// Swift Testing has its own `SourceLocation`.
private typealias Location = GlossaryKit.SourceLocation

@Suite struct PageMetadataTests {
    private func at(_ line: Int, _ column: Int) -> Location {
        Location(file: "content/a.md", line: line, column: column)
    }

    private func parse(_ source: String) -> (
        metadata: PageMetadata, body: String, bodyFirstLine: Int, diagnostics: [String]
    ) {
        let result = PageMetadata.parse(source: source, file: "content/a.md")
        return (result.metadata, result.body, result.bodyFirstLine, result.diagnostics.map(\.description))
    }

    @Test func readsAContentPage() {
        let page = parse(
            """
            ---
            title: "Intro: basics"
            description: A first look
            date: 2024-03-01
            draft: true
            tags:
              - writing
              - style
            terms: [lexicon, glossary]
            weight: 3
            ---
            Body [[word]]

            """)
        #expect(page.diagnostics == [])
        #expect(page.body == "Body [[word]]\n")
        #expect(page.bodyFirstLine == 12)
        let metadata = page.metadata
        #expect(metadata.title == "Intro: basics")
        #expect(metadata.description == "A first look")
        #expect(metadata.date == "2024-03-01")
        #expect(metadata.draft == true)
        #expect(metadata.tags == ["writing", "style"])
        #expect(metadata.terms == ["lexicon", "glossary"])
        #expect(metadata.weight == 3)
        #expect(metadata.term == nil)
    }

    @Test func readsAGlossaryEntryAndWhereEachValueIs() {
        let page = parse(
            """
            ---
            term: keyboard
            aliases: [keyboards, kbd]
            part_of_speech: noun
            phonetic: /ˈkiːbɔːd/
            synonyms: keypad
            antonyms: []
            see_also:
              - typewriter
              - mouse
            ---
            A panel of keys.

            """)
        #expect(page.diagnostics == [])
        let metadata = page.metadata
        #expect(metadata.term == "keyboard")
        #expect(metadata.aliases == ["keyboards", "kbd"])
        #expect(metadata.partOfSpeech == "noun")
        #expect(metadata.phonetic == "/ˈkiːbɔːd/")
        #expect(metadata.synonyms == ["keypad"])
        #expect(metadata.antonyms == [])
        #expect(metadata.seeAlso == ["typewriter", "mouse"])
        #expect(metadata.draft == false)
        #expect(metadata.locations["term"] == at(2, 7))
        #expect(metadata.locations["aliases"] == at(3, 10))
        #expect(metadata.locations["aliases[1]"] == at(3, 22))
        #expect(metadata.locations["see_also"] == at(9, 3))
        #expect(metadata.locations["see_also[1]"] == at(10, 5))
        #expect(metadata.locations["title"] == nil)
    }

    @Test func noFrontMatterGivesDefaultsAndTheWholeBody() {
        let page = parse("# Hello\n")
        #expect(page.metadata == PageMetadata())
        #expect(page.body == "# Hello\n")
        #expect(page.bodyFirstLine == 1)
        #expect(page.diagnostics == [])
    }

    @Test func emptyFrontMatter() {
        let page = parse("---\n---\nText\n")
        #expect(page.metadata == PageMetadata())
        #expect(page.body == "Text\n")
        #expect(page.bodyFirstLine == 3)
        #expect(page.diagnostics == [])
    }

    @Test func yamlErrorIsReportedAtTheFilesLine() {
        let page = parse("---\ntitle: ok\ndraft: false\ntags: a: b\n---\nBody\n")
        #expect(
            page.diagnostics == [
                "content/a.md:4:8: error: mapping values are not allowed in this context [yaml-syntax]"
            ])
        #expect(page.body == "Body\n")
        #expect(page.bodyFirstLine == 6)
        #expect(page.metadata == PageMetadata())
    }

    @Test func typeErrorsAreAtTheFilesLineAndColumn() {
        let page = parse("---\ntitle: T\ndraft: maybe\nweight: heavy\ntags: {a: b}\n---\n")
        #expect(
            page.diagnostics == [
                "content/a.md:3:8: error: 'draft' must be true or false, found 'maybe' [config-type]",
                "content/a.md:4:9: error: 'weight' must be an integer, found 'heavy' [config-type]",
                "content/a.md:5:7: error: 'tags' must be a list of strings, found a mapping [config-type]",
            ])
        #expect(page.metadata.title == "T")
        #expect(page.metadata.draft == false)
    }

    @Test(arguments: [("yes", true), ("no", false), ("On", true), ("FALSE", false)])
    func draftAcceptsYAMLBooleanWords(word: String, value: Bool) {
        let page = parse("---\ndraft: \(word)\n---\n")
        #expect(page.diagnostics == [])
        #expect(page.metadata.draft == value)
    }

    @Test func invalidDateIsAnError() {
        let page = parse("---\ndate: 2024-02-30\n---\n")
        #expect(
            page.diagnostics == [
                "content/a.md:2:7: error: 'date' must be a date like 2024-03-01 or 2024-03-01T09:30:00Z, found '2024-02-30' [config-type]"
            ])
        #expect(page.metadata.date == nil)
    }

    @Test func dateTimeIsKeptAsWritten() {
        #expect(parse("---\ndate: 2024-03-01T09:30:00+02:00\n---\n").metadata.date == "2024-03-01T09:30:00+02:00")
    }

    @Test func unknownKeyWarnsWithSuggestion() {
        let page = parse("---\ntitel: Hi\nseealso: [x]\nlayout: wide\n---\n")
        #expect(
            page.diagnostics == [
                "content/a.md:2:1: warning: unknown key 'titel' in front matter; did you mean 'title'? [unknown-key]",
                "content/a.md:3:1: warning: unknown key 'seealso' in front matter; did you mean 'see_also'? [unknown-key]",
                "content/a.md:4:1: warning: unknown key 'layout' in front matter [unknown-key]",
            ])
        #expect(page.metadata.title == nil)
    }

    @Test func unclosedFrontMatterReportsAndKeepsTheWholePageAsBody() {
        let page = parse("---\ntitle: x\nText\n")
        #expect(
            page.diagnostics == [
                "content/a.md:1:1: error: front matter opened on line 1 is never closed with '---' [front-matter-unclosed]"
            ])
        #expect(page.body == "---\ntitle: x\nText\n")
        #expect(page.bodyFirstLine == 1)
    }

    @Test func crlfFileWithByteOrderMark() {
        let page = parse("\u{FEFF}---\r\ntitle: Hi\r\ndraft: 3\r\n---\r\nBody\r\n")
        #expect(page.diagnostics == ["content/a.md:3:8: error: 'draft' must be true or false, found '3' [config-type]"])
        #expect(page.metadata.title == "Hi")
        #expect(page.body == "Body\r\n")
        #expect(page.bodyFirstLine == 5)
    }

    @Test func frontMatterThatIsNotAMappingIsAnError() {
        let page = parse("---\n- a\n- b\n---\n")
        #expect(
            page.diagnostics == [
                "content/a.md:2:1: error: front matter must be a mapping of keys to values, found a list [front-matter-type]"
            ])
        let scalar = parse("---\njust text\n---\n")
        #expect(
            scalar.diagnostics == [
                "content/a.md:2:1: error: front matter must be a mapping of keys to values, found 'just text' [front-matter-type]"
            ])
    }

    @Test func decodeOfNilIsTheDefaults() {
        let (metadata, diagnostics) = PageMetadata.decode(nil, file: "content/a.md")
        #expect(metadata == PageMetadata())
        #expect(diagnostics == [])
    }
}
