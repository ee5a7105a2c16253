import Testing

@testable import GlossaryKit

/// Each paragraph line's content column, found from cmark's positions of the paragraph and its containers.
@Suite struct ParagraphLineContainersTests {
    private func lines(_ markdown: String) -> [String] {
        TableDocumentRenderer.firstParagraphLines(markdown).map { "\($0.number):\($0.contentColumn)\($0.isLazy ? " lazy" : "")" }
    }

    @Test func blockQuoteLinesStartAfterTheirMarkerAndOneSpace() {
        #expect(lines("> a\n>b\n  >  c\nd\n") == ["1:3", "2:2", "3:5", "4:1 lazy"])
    }

    @Test func listItemLinesStartAtTheItemsContentColumn() {
        #expect(lines("-   wide\n    next\n     deeper\n  lazy\n") == ["1:5", "2:5", "3:5", "4:1 lazy"])
        #expect(lines("10. ten\n    next\n") == ["1:5", "2:5"])
        // Five spaces after the marker: the item starts with indented code, and its content column is after one.
        #expect(lines("-     code\n\n  next\n  more\n") == ["3:3", "4:3"])
    }

    @Test func nestedContainersMatchInOrderAndLazinessKeepsTheMatchedPart() {
        #expect(lines("> 1. a\n>    b\n> c\nd\n") == ["1:6", "2:6", "3:3 lazy", "4:1 lazy"])
        #expect(lines("- > a\n  > b\n  c\n") == ["1:5", "2:5", "3:3 lazy"])
        #expect(lines("- - a\n    b\n  c\n") == ["1:5", "2:5", "3:3 lazy"])
    }

    @Test func tabsCountToTheNextMultipleOfFourAndMayBeConsumedInPart() {
        #expect(lines("-\ta\n\tb\n") == ["1:3", "2:2"])
        let partial = TableDocumentRenderer.firstParagraphLines("- a\n\t\tb\n")
        #expect(partial.map(\.contentColumn) == [3, 1])
        // The item took two of the first tab's four columns: six columns of indentation remain.
        #expect(partial[1].firstNonSpace.indent == 6)
    }

    @Test func lineNumbersIncludeTheOffsetAndCarriageReturnsGo() {
        let source = ["> x\r", "> y\r"].map { Array($0.utf8) }
        let lines = ParagraphLine.lines(
            in: source, startLine: 1, startColumn: 3, endLine: 2, containers: [.blockQuote(line: 1, column: 1)], lineOffset: 4)
        #expect(lines.map(\.number) == [5, 6])
        #expect(lines.map(\.bytes) == [Array("> x".utf8), Array("> y".utf8)])
        #expect(lines.map(\.contentColumn) == [3, 3])
    }
}
