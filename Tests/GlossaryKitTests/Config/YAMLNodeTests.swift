import Testing

@testable import GlossaryKit

/// Swift Testing has its own `SourceLocation`.
private typealias Location = GlossaryKit.SourceLocation

@Suite struct YAMLNodeTests {
    private func at(_ line: Int, _ column: Int, _ file: String = "t.yml") -> Location {
        Location(file: file, line: line, column: column)
    }

    private func parse(_ text: String, lineOffset: Int = 0) throws -> YAMLNode {
        try #require(try YAMLNode.parse(text, file: "t.yml", lineOffset: lineOffset))
    }

    private func syntaxError(_ text: String, lineOffset: Int = 0) -> Diagnostic? {
        do {
            _ = try YAMLNode.parse(text, file: "t.yml", lineOffset: lineOffset)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Structure and locations

    @Test func nestedMappingKeepsOrderAndLocations() throws {
        let root = try parse("title: Words\ndictionary:\n  concurrency: 4\n  api: x\n")
        #expect(root.location == at(1, 1))
        let pairs = try #require(root.pairs)
        #expect(pairs.map { $0.key.scalarValue } == ["title", "dictionary"])
        #expect(pairs[0].value.location == at(1, 8))
        let dictionary = try #require(root["dictionary"])
        #expect(dictionary.location == at(3, 3))
        let concurrency = try #require(dictionary.pairs?.first)
        #expect(concurrency.key.location == at(3, 3))
        #expect(concurrency.value == YAMLNode(.scalar("4", isPlain: true), at: at(3, 16)))
        #expect(dictionary["api"]?.location == at(4, 8))
    }

    @Test func lineOffsetShiftsLinesButNotColumns() throws {
        let root = try parse("a: 1\nb: two\n", lineOffset: 7)
        #expect(root["b"]?.location == at(9, 4))
    }

    @Test func blockAndFlowSequencesHaveItemLocations() throws {
        let root = try parse("block:\n  - one\n  - two\nflow: [x, 'y']\n")
        let block = try #require(root["block"])
        #expect(block.location == at(2, 3))
        #expect(block.items?.map(\.location) == [at(2, 5), at(3, 5)])
        let flow = try #require(root["flow"])
        #expect(flow.location == at(4, 7))
        #expect(flow.items?.map(\.scalarValue) == ["x", "y"])
        #expect(flow.items?.map(\.isPlain) == [true, false])
    }

    @Test func quotedAndTaggedScalarsAreNotPlain() throws {
        let root = try parse("a: 8\nb: \"8\"\nc: '8'\nd: !!str 8\ne: |\n  8\n")
        #expect(root["a"]?.isPlain == true)
        for key in ["b", "c", "d", "e"] {
            #expect(root[key]?.isPlain == false, "\(key)")
        }
        #expect(root["e"]?.scalarValue == "8\n")
    }

    @Test func quotedValueMayContainColon() throws {
        let root = try parse("title: \"Intro: basics\"\n")
        #expect(root["title"]?.scalarValue == "Intro: basics")
    }

    @Test(arguments: ["", "# only a comment\n", "---\n", "---\n...\n", "~\n", "null", "\u{FEFF}"])
    func emptyDocumentsParseToNil(text: String) throws {
        #expect(try YAMLNode.parse(text, file: "t.yml") == nil)
    }

    @Test func byteOrderMarkDoesNotShiftColumns() throws {
        let root = try parse("\u{FEFF}title: x\n")
        #expect(root.pairs?.first?.key.location == at(1, 1))
        #expect(root["title"]?.location == at(1, 8))
    }

    @Test func crlfLineEndingsCountAsOneBreak() throws {
        let root = try parse("a: 1\r\nb: 2\r\n")
        #expect(root["b"]?.location == at(2, 4))
        #expect(root["b"]?.scalarValue == "2")
    }

    @Test func nullValuesAreRecognised() throws {
        let root = try parse("a:\nb: ~\nc: null\nd: ''\n")
        #expect(root["a"]?.isNull == true)
        #expect(root["b"]?.isNull == true)
        #expect(root["c"]?.isNull == true)
        #expect(root["d"]?.isNull == false)
    }

    // MARK: Errors

    @Test func syntaxErrorIsReportedAtLibyamlsMarkPlusOffset() {
        let error = syntaxError("title: ok\nbad: a: b\n", lineOffset: 1)
        #expect(
            error?.description
                == "t.yml:3:7: error: mapping values are not allowed in this context [yaml-syntax]")
    }

    @Test func syntaxErrorMentionsWhereTheEnclosingContextStarted() {
        let error = syntaxError("tags: [a, b\ntitle: x\n")
        #expect(error?.code == .yamlSyntax)
        #expect(error?.location == at(2, 6))
        #expect(error?.message == "did not find expected ',' or ']'")
        #expect(error?.notes == [Diagnostic.Note("parsing a flow sequence started here", at: at(1, 7))])
    }

    @Test func tabIndentationIsASyntaxError() {
        let error = syntaxError("a: 1\n\tb: 2\n")
        #expect(error?.code == .yamlSyntax)
        #expect(error?.location?.line == 2)
        #expect(error?.message.contains("tab") == true)
    }

    @Test func controlCharacterIsLocatedFromItsByteOffset() {
        let error = syntaxError("a: 1\nb: é\u{7}\n")
        #expect(
            error?.description
                == "t.yml:2:5: error: control characters are not allowed (U+0007) [yaml-syntax]")
    }

    /// Found by fuzzing (Fuzz/, front-matter): at the end of a text without a final line break libyaml moves to a
    /// line that isn't there.
    @Test func anErrorAtTheEndOfTheLastLineIsOnThatLine() {
        let error = syntaxError("{\u{09}")
        #expect(error?.description == "t.yml:1:3: error: did not find expected node content [yaml-syntax]")
        #expect(syntaxError("a: 1\nb: [x", lineOffset: 1)?.location == at(3, 6))
        #expect(syntaxError("a: [x\n")?.location == at(2, 1))
    }

    @Test func aCharacterErrorCountsLinesAsLibyamlDoes() {
        #expect(syntaxError("a: 1\rb: \u{7}\n")?.location == at(2, 4))
        #expect(syntaxError("a: 1\r\nb: \u{7}\n")?.location == at(2, 4))
    }

    @Test func aliasesAreRejected() {
        let error = syntaxError("base: &b one\ncopy: *b\n")
        #expect(
            error?.description
                == "t.yml:2:7: error: YAML aliases ('*b') are not supported; write the value out instead [yaml-alias]")
    }

    @Test func anchorsWithoutAliasesAreHarmless() throws {
        let root = try parse("base: &b one\n")
        #expect(root["base"]?.scalarValue == "one")
    }

    @Test func secondDocumentIsRejected() {
        let error = syntaxError("a: 1\n---\nb: 2\n")
        #expect(
            error?.description
                == "t.yml:2:1: error: found a second YAML document; only one is allowed here (remove the '---' line) [yaml-syntax]"
        )
    }

    @Test func deepNestingIsRejectedInsteadOfOverflowingTheStack() {
        let text = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        let error = syntaxError(text)
        #expect(error?.message == "YAML is nested more than 200 levels deep")
        #expect(error?.location == at(1, 202))
    }
}
