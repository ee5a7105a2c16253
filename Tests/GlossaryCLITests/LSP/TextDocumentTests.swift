import Testing

@testable import GlossaryCLI

/// Positions in an open document: the LSP's UTF-16 code units, glossary's Unicode-scalar columns, and byte offsets.
@Suite struct TextDocumentTests {
    // "é" is 2 bytes and 1 UTF-16 unit, "😀" 4 bytes and 2 units; a CRLF ends the second line.
    let document = TextDocument(uri: "file:///a.md", version: 1, text: "# Café\r\nA 😀 [[keybord]]\nlast")

    @Test func lspPositionsCountUTF16CodeUnits() {
        // Line 1 starts at byte 9 ("# Café\r\n"); "A 😀 " is 5 units and 7 bytes.
        #expect(document.offset(line: 1, character: 5) == 9 + 7)
        #expect(document.position(ofOffset: 9 + 7) == (1, 5))
        #expect(document.position(ofOffset: 5) == (0, 5))
        #expect(document.position(ofOffset: 7) == (0, 6))
        // Past a line's end: its end, before the CRLF.
        #expect(document.offset(line: 0, character: 99) == 7)
        #expect(document.offset(line: 9, character: 0) == document.bytes.count)
    }

    @Test func sourceColumnsCountUnicodeScalars() {
        // Column 5 of line 2 is the `[[` after "A 😀 ".
        let offset = document.offset(ofSourceLine: 2, column: 5)
        #expect(document.text(offset..<(offset + 2)) == "[[")
        #expect(document.position(ofOffset: offset) == (1, 5))
        #expect(LanguageServer.span(of: .init(file: "a.md", line: 2, column: 5), in: document) == offset..<(offset + 11))
    }

    @Test func rangeEditsReplaceTheirText() {
        var edited = document
        edited.apply(range: ((1, 12), (1, 12)), text: "a")
        edited.apply(range: ((2, 0), (2, 4)), text: "end\nmore")
        #expect(edited.text == "# Café\r\nA 😀 [[keyboard]]\nend\nmore")
        #expect(edited.lineCount == 4)
        edited.apply(range: nil, text: "whole")
        #expect(edited.text == "whole")
    }
}
