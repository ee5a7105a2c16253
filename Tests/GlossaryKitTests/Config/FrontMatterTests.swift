import Testing

@testable import GlossaryKit

/// Swift Testing has its own `SourceLocation`.
private typealias Location = GlossaryKit.SourceLocation

@Suite struct FrontMatterTests {
    @Test func splitsYAMLFromBody() throws {
        let split = try FrontMatter.split("---\ntitle: A\ntags: [x]\n---\n# Heading\n\nText\n", file: "a.md")
        #expect(
            split
                == FrontMatterSplit(
                    yaml: "title: A\ntags: [x]\n", body: "# Heading\n\nText\n", yamlFirstLine: 2, bodyFirstLine: 5))
    }

    @Test func fileWithoutFrontMatterIsAllBody() throws {
        let source = "# Title\n---\nnot: yaml\n"
        let split = try FrontMatter.split(source, file: "a.md")
        #expect(split == FrontMatterSplit(yaml: nil, body: source, yamlFirstLine: 1, bodyFirstLine: 1))
    }

    @Test(arguments: ["----\nx\n---\n", " ---\nx\n---\n", "--- title\nx\n---\n", ""])
    func onlyAnExactOpeningLineStartsFrontMatter(source: String) throws {
        #expect(try FrontMatter.split(source, file: "a.md").yaml == nil)
    }

    @Test func emptyFrontMatter() throws {
        let split = try FrontMatter.split("---\n---\nBody\n", file: "a.md")
        #expect(split == FrontMatterSplit(yaml: "", body: "Body\n", yamlFirstLine: 2, bodyFirstLine: 3))
    }

    /// Found by fuzzing (Fuzz/, front-matter; crash-173a59d…, minimised): empty front matter closed at the end of
    /// the file, without a line break.
    @Test func emptyFrontMatterClosedAtTheEndOfTheFile() throws {
        let split = try FrontMatter.split("---\n---", file: "a.md")
        #expect(split == FrontMatterSplit(yaml: "", body: "", yamlFirstLine: 2, bodyFirstLine: 3))
        let parsed = PageMetadata.parse(source: "---\n---", file: "a.md")
        #expect(parsed.diagnostics.isEmpty)
        #expect(parsed.body == "")
    }

    @Test func closingLineMayBeDotsAndDelimitersMayHaveTrailingSpaces() throws {
        let split = try FrontMatter.split("---  \na: 1\n... \t\nBody", file: "a.md")
        #expect(split == FrontMatterSplit(yaml: "a: 1\n", body: "Body", yamlFirstLine: 2, bodyFirstLine: 4))
    }

    @Test func closingLineAtEndOfFileWithoutNewline() throws {
        let split = try FrontMatter.split("---\na: 1\n---", file: "a.md")
        #expect(split == FrontMatterSplit(yaml: "a: 1\n", body: "", yamlFirstLine: 2, bodyFirstLine: 4))
    }

    @Test func crlfLineEndingsAreKeptInBothParts() throws {
        let split = try FrontMatter.split("---\r\ntitle: A\r\n---\r\nLine one\r\nLine two\r\n", file: "a.md")
        #expect(
            split
                == FrontMatterSplit(
                    yaml: "title: A\r\n", body: "Line one\r\nLine two\r\n", yamlFirstLine: 2, bodyFirstLine: 4))
    }

    @Test func loneCarriageReturnsAreLineBreaksToo() throws {
        let split = try FrontMatter.split("---\ra: 1\r---\rBody", file: "a.md")
        #expect(split == FrontMatterSplit(yaml: "a: 1\r", body: "Body", yamlFirstLine: 2, bodyFirstLine: 4))
    }

    @Test func byteOrderMarkBeforeTheOpeningLineIsSkipped() throws {
        let split = try FrontMatter.split("\u{FEFF}---\ntitle: A\n---\nBody\n", file: "a.md")
        #expect(split == FrontMatterSplit(yaml: "title: A\n", body: "Body\n", yamlFirstLine: 2, bodyFirstLine: 4))
        let plain = try FrontMatter.split("\u{FEFF}# Title\n", file: "a.md")
        #expect(plain.body == "# Title\n")
    }

    @Test func bodyIsExactlyTheTextAfterTheClosingLine() throws {
        let body = "\n  indented\n\n---\nmore: text\n"
        let split = try FrontMatter.split("---\na: 1\n---\n" + body, file: "a.md")
        #expect(split.body == body)
        #expect(split.bodyFirstLine == 4)
    }

    @Test(arguments: ["---\ntitle: A\nbody text\n", "---", "---\n", "---\r\na: 1\r\n"])
    func unclosedFrontMatterIsAnErrorAtTheStart(source: String) {
        #expect(
            throws: Diagnostic(.frontMatterUnclosed, at: Location(file: "a.md", line: 1, column: 1))
        ) {
            try FrontMatter.split(source, file: "a.md")
        }
    }
}
