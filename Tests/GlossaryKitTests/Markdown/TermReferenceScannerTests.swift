import Testing

@testable import GlossaryKit

/// The scanner on one text node: references as cmark's decoded text holds them, columns from the source line.
@Suite struct TermReferenceScannerTests {
    typealias Match = TermReferenceScanner.Match

    static func scan(_ text: String, line: String? = nil, hint: Int = 1) -> (matches: [Match], problems: [TermReferenceScanner.Problem]) {
        TermReferenceScanner.scan(text: Array(text.utf8), sourceLine: Array((line ?? text).utf8), hintColumn: hint)
    }

    @Test func aReferenceWithItsRangeWordsAndColumn() {
        let result = Self.scan("See [[kerning]] here")
        #expect(result.matches == [Match(range: 4..<15, shown: "kerning", word: "kerning", column: 5)])
        #expect(result.problems.isEmpty)
    }

    @Test func shownTextAndWordAreSplitAtTheBarAndTrimmed() {
        let result = Self.scan("[[ the gap | kerning ]] and [[|leading]]")
        #expect(result.matches.map(\.shown) == ["the gap", "leading"], "an empty shown text is the word")
        #expect(result.matches.map(\.word) == ["kerning", "leading"])
        #expect(result.matches.map(\.column) == [1, 29])
    }

    @Test func anEscapedOpeningIsText() {
        // cmark gives `\[[x]]` as the text `[[x]]`; only the source line shows the backslash.
        #expect(Self.scan("[[x]] and [[y]]", line: "\\[[x]] and [[y]]").matches.map(\.word) == ["y"])
        #expect(Self.scan("[[x]]", line: "[\\[x]]").matches.isEmpty, "either bracket escaped")
    }

    @Test func unclosedAndEmptyReferencesAreProblemsAtTheirColumn() {
        #expect(Self.scan("a [[b and c").problems == [.unclosed(column: 3)])
        #expect(Self.scan("[[ ]] then [[a| ]]").problems == [.empty(column: 1), .empty(column: 12)])
        #expect(Self.scan("[[ ]] then [[a| ]]").matches.isEmpty)
    }

    @Test func columnsCountScalarsOfTheSourceLine() {
        // "Ça" is three bytes and two scalars; an entity is one character in the text and five in the line.
        #expect(Self.scan("Ça [[x]]").matches.map(\.column) == [4])
        #expect(Self.scan("& [[x]]", line: "&amp; [[x]]").matches.map(\.column) == [7])
        #expect(Self.scan("[[日本]]", line: "語 [[日本]]", hint: 5).matches.map(\.column) == [3], "after the hint's bytes")
    }

    @Test func aTextNodeLaterInItsLineIsFoundFromTheHint() {
        // Two nodes of one line, `*a* [[x]] b`: the second starts at byte column 4.
        let result = Self.scan(" [[x]] b", line: "*a* [[x]] b", hint: 4)
        #expect(result.matches == [Match(range: 1..<6, shown: "x", word: "x", column: 5)])
    }

    @Test func hasOpeningLooksForTwoBrackets() {
        #expect(TermReferenceScanner.hasOpening(Array("a [[b".utf8)))
        #expect(!TermReferenceScanner.hasOpening(Array("a [b] [c]".utf8)))
        #expect(!TermReferenceScanner.hasOpening(Array("".utf8)))
    }

    @Test func manyReferencesOnOneLineAreAllFound() {
        let line = (0..<2000).map { "[[w\($0)]]" }.joined(separator: " ")
        let result = Self.scan(line)
        #expect(result.matches.count == 2000)
        #expect(result.matches.last?.word == "w1999")
        #expect(result.matches.last?.column == 1 + (0..<1999).reduce(0) { $0 + "[[w\($1)]] ".count })
    }
}
