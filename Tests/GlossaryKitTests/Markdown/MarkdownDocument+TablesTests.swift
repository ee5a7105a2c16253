import Testing

@testable import GlossaryKit

/// Pipe tables in the build's documents: cells' term references and links found where they stand in the file,
/// rendered and rewritten like any others; the text after a table parsed again; wide tables in a scrolling box.
/// (`PipeTableTests` compares the HTML with `cmark-gfm -e table`.)
@Suite struct MarkdownDocumentTablesTests {
    static func located(_ document: MarkdownDocument) -> [String] {
        document.references.map { "\($0.location.line):\($0.location.column) \($0.key)" }
    }

    @Test func termsInCellsAreFoundAtTheirPlaceInTheFile() {
        let markdown = """
            Intro with [[serif]]
            | Term | Meaning \\| more |
            |---|:-:|
            | [[kerning]] | `x\\|y` and [[the lead\\|leading]] |
            | é \\| [[ink]] | |
            - After [[margin]].

            > | Quoted | [[gutter]] |
            > |---|---|

            - item
              | In a list | x |
              |---|---|
              | [[tracking]] | y |

            """
        // The markdown starts on line 5 of its file (after front matter). A `|` in a reference in a cell is escaped,
        // as every `|` there that doesn't end the cell, so the column is the escape's.
        let document = MarkdownDocument(markdown: markdown, file: "p.md", firstLine: 5)
        #expect(
            Self.located(document) == [
                "5:12 serif", "8:3 kerning", "8:28 leading", "9:8 ink", "10:9 margin", "12:14 gutter", "18:5 tracking",
            ])
        #expect(document.diagnostics.isEmpty)
        let html = document.html { .init(open: "<a data-term=\"\($0.key)\">", close: "</a>") }
        let row = "<td><a data-term=\"kerning\">kerning</a></td>\n"
        #expect(html.contains(row + "<td class=\"align-center\"><code>x|y</code> and <a data-term=\"leading\">the lead</a></td>"))
        #expect(html.contains("<th class=\"align-center\">Meaning | more</th>"))
        #expect(html.contains("</table>\n</div>\n<ul>\n<li>After <a data-term=\"margin\">margin</a>.</li>\n</ul>"), "a list item ends the rows")
        #expect(
            html.hasPrefix(
                "<p>Intro with <a data-term=\"serif\">serif</a></p>\n<div class=\"table-scroll\" tabindex=\"0\">\n<table>\n<thead>\n<tr>\n<th>Term</th>"))
        #expect(html.contains("<li>item\n<div class=\"table-scroll\" tabindex=\"0\">\n<table>"), "a tight list keeps its item's text bare")
    }

    @Test func problemsInCellsAreReportedWhereTheyAre() {
        let document = MarkdownDocument(markdown: "| a | b |\n|---|---|\n| x \\| [[open | [[]] |\n", file: "p.md")
        #expect(
            document.diagnostics.map(\.description) == [
                "p.md:3:8: warning: '[[' is not closed by ']]' on the same line; write '\\[[' for a literal '[[' [unclosed-term]",
                "p.md:3:17: warning: term reference names no word [empty-term]",
            ])
    }

    @Test func linksInCellsAreRecordedAndRewritten() {
        let markdown = "See [top](index.md).\n\n| Page | Image |\n|---|---|\n| [guide](guide.md#setup) | ![logo](img/logo.svg) |\n\n[end](end.md)\n"
        let document = MarkdownDocument(markdown: markdown, file: "p.md")
        #expect(
            document.links.map { "\($0.location.line):\($0.location.column) \($0.destination)\($0.isImage ? " image" : "")" } == [
                "1:11 index.md", "5:11 guide.md#setup", "5:37 img/logo.svg image", "7:7 end.md",
            ])
        let html = document.html(rewrite: { "/docs/" + $0 })
        #expect(html.contains("<td><a href=\"/docs/guide.md#setup\">guide</a></td>\n<td><img src=\"/docs/img/logo.svg\" alt=\"logo\" /></td>"))
        #expect(html.contains("<a href=\"/docs/end.md\">end</a>"))
    }

    /// A cell's text is never read as a block, and the no-break space that sees to it comes off again.
    @Test(arguments: [
        ("# not a heading", "# not a heading"), ("- not a list", "- not a list"), ("1. not a list", "1. not a list"),
        ("> not a quote", "&gt; not a quote"), ("[x]: /not-a-definition", "[x]: /not-a-definition"), ("***", "***"),
        ("<div>", "<!-- raw HTML omitted -->"), ("\u{301}x", "\u{301}x"), ("\u{A0}", "\u{A0}"), ("*a* `b`", "<em>a</em> <code>b</code>"),
    ])
    func cellTextStaysInline(_ cell: String, _ html: String) {
        let rendered = MarkdownDocument(markdown: "| h |\n|---|\n| \(cell) |\n", file: "p.md").html()
        #expect(rendered.contains("<tr>\n<td>\(html)</td>\n</tr>"), "\(rendered)")
    }

    @Test func headingsAfterATableGetTheirIdsAndTablesTheirSearchText() {
        let document = MarkdownDocument(markdown: "| Pods | Nodes |\n|---|---|\n| run | [[schedule]] |\n## After\n", file: "p.md")
        #expect(document.headings == [PageHeading(level: 2, text: "After", id: "after")])
        #expect(document.searchableText() == "Pods Nodes \nrun schedule \n")
        #expect(
            document.html().hasSuffix(
                "</table>\n</div>\n<h2 id=\"after\">After<a class=\"anchor\" href=\"#after\" aria-labelledby=\"after\"></a></h2>\n"))
    }

    @Test func aSetextHeadingThatIsATableBecomesOne() {
        let document = MarkdownDocument(markdown: "| a |\n| - |\n", file: "p.md")
        #expect(document.headings.isEmpty)
        #expect(document.html().contains("<table>\n<thead>\n<tr>\n<th>a</th>\n</tr>\n</thead>\n</table>"))
    }
}
