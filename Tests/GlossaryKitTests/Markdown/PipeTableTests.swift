import Foundation
import TestSupport
import Testing

@testable import GlossaryKit

/// Pipe tables render byte for byte as `cmark-gfm -e table` renders them (run at test time), on the GFM spec's
/// table examples and on tables as documentation pages write them; cells know where they stand in the file.
@Suite struct PipeTableTests {
    // MARK: The GFM spec's examples

    struct SpecExample: CustomTestStringConvertible, Sendable {
        var number: Int
        var markdown: String
        var html: String
        var testDescription: String { "table example \(number)" }
    }

    static let specExamples: [SpecExample] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/gfm-spec-tables.txt")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        let fence = String(repeating: "`", count: 32)
        var examples: [SpecExample] = []
        var markdown: [Substring]?
        var html: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == fence + " example table" {
                markdown = []
            } else if line == ".", html == nil, markdown != nil {
                html = []
            } else if line == fence, let input = markdown, let output = html {
                let tab = { (lines: [Substring]) in lines.map { $0 + "\n" }.joined().replacingOccurrences(of: "→", with: "\t") }
                examples.append(SpecExample(number: examples.count + 1, markdown: tab(input), html: tab(output)))
                markdown = nil
                html = nil
            } else if html != nil {
                html!.append(line)
            } else if markdown != nil {
                markdown!.append(line)
            }
        }
        return examples
    }()

    @Test func theFixtureHoldsEveryTableExampleOfTheSpec() {
        #expect(Self.specExamples.count == 8)
    }

    @Test(arguments: specExamples) func specExampleRendersAsCmarkGFMAndTheSpecSay(_ example: SpecExample) async throws {
        let expected = try await TableDocumentRenderer.cmarkGFM(example.markdown)
        #expect(expected == example.html, "cmark-gfm disagrees with its spec: is this cmark-gfm 0.29.0.gfm.6?")
        #expect(TableDocumentRenderer.html(example.markdown) == expected)
    }

    // MARK: Tables as documentation pages write them

    struct Page: CustomTestStringConvertible, Sendable {
        var name: String
        var markdown: String
        var testDescription: String { name }
    }

    static let pages: [Page] = [
        Page(
            name: "alignment row of every kind",
            markdown: """
                | Term | Part of speech | Senses | Notes |
                |:-----|:--------------:|-------:|-------|
                | run  | verb           | 645    | the most senses in the OED |
                | set  | noun           | 430    |  |

                """),
        Page(
            name: "no outer pipes, ragged widths",
            markdown: """
                Option | Default | Meaning
                --- | :---: | ---
                `--offline` | off | never ask the dictionary API
                `--jobs N` | cores | parallel page renders

                """),
        Page(
            name: "inline code with escaped pipes",
            markdown: """
                | Syntax | Renders as |
                | ------ | ---------- |
                | `[[word]]` | a link to *word* |
                | `[[shown\\|word]]` | a link showing *shown* |
                | `a \\| b` and `c\\|d` | code with pipes |
                | \\| at the start | escaped pipe in text |

                """),
        Page(
            name: "links, emphasis, strong, images and autolinks",
            markdown: """
                | Source | Link |
                |---|---|
                | [Free Dictionary](https://dictionaryapi.dev/ "API") | **free**, _no key_ |
                | ![logo](/assets/logo.png) | <https://example.com/a?b=c&d=e> |
                | [relative](../guide/intro.md) | ***both*** and `code` |
                | [broken link[ | *unclosed emphasis |

                """),
        Page(
            name: "entities, escapes, raw HTML and hard-to-escape text",
            markdown: """
                | Input | Output |
                |-------|--------|
                | &amp; &lt;tag&gt; &copy; &#35; | 5 < 6 > 4 & "quoted" 'single' |
                | \\*not emphasis\\* \\\\ backslash | <span class="x">raw</span> |
                | a\\ | trailing backslash\\ |
                | \\\\| two backslashes before a pipe |

                """),
        Page(
            name: "empty cells and short and long rows",
            markdown: """
                | a | b | c |
                |---|---|---|
                |   | x |   |
                || y ||
                | only one
                | one | two | three | four | five |
                |

                """),
        Page(
            name: "table after a paragraph line",
            markdown: """
                The commands and what they write:
                | Command | Writes |
                | ------- | ------ |
                | build   | `site/` |
                | render  | stdout |

                """),
        Page(
            name: "table after several paragraph lines with escapes and code",
            markdown: """
                First line with a \\| pipe,
                second line with `code \\| pipe` and *emphasis*
                Term | Meaning
                ---- | -------
                lemma | a headword

                """),
        Page(
            name: "table in a loose list item",
            markdown: """
                1. Install the packages:

                   | Package | Why |
                   | ------- | --- |
                   | libcmark-dev | markdown |
                   | libcurl4-openssl-dev | the API |

                2. Build.

                """),
        Page(
            name: "table in a tight list item after its first line",
            markdown: """
                - Options:
                  | Flag | Effect |
                  |------|--------|
                  | `-q` | quiet |
                - Next item

                """),
        Page(
            name: "table as a list item's first block",
            markdown: """
                - | a | b |
                  | - | - |
                  | 1 | 2 |
                - | c |
                  |:-:|
                  | 3 |

                """),
        Page(
            name: "table in a block quote",
            markdown: """
                > **Note**
                > | Level | Meaning |
                > |:------|:--------|
                > | warning | the build goes on |
                >| error | nothing is written |

                """),
        Page(
            name: "table in a list item in a block quote, and in a quote in a list",
            markdown: """
                > - Quoted list:
                >
                >   | x | y |
                >   |---|---|
                >   | 1 | 2 |

                * item
                  > | p | q |
                  > | - | - |
                  > | 3 | 4 |

                """),
        Page(
            name: "nested list items with wide markers",
            markdown: """
                10. Outer
                    - Inner:

                      | deep | table |
                      | :--- | ----: |
                      | a    | b     |

                """),
        Page(
            name: "wide table",
            markdown: """
                | c1 | c2 | c3 | c4 | c5 | c6 | c7 | c8 | c9 | c10 | c11 | c12 |
                |----|:---|---:|:--:|----|:---|---:|:--:|----|-----|-----|-----|
                | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 |
                | a | b | c | d | e | f | g | h | i | j | k | l |

                """),
        Page(
            name: "CRLF line endings",
            markdown: "Intro line\r\n| a | b |\r\n|:--|--:|\r\n| c | d |\r\n\r\n> | q |\r\n> |---|\r\n> | r |\r\n"),
        Page(
            name: "non-ASCII text",
            markdown: """
                | Mot | Définition | 日本語 |
                |:---:|------------|--------|
                | café | boisson chaude ☕ | コーヒー |
                | naïve | *sans malice* | 素朴 |
                | 👩🏽‍💻 | emoji with joiners | ｜全角｜ |

                """),
        Page(
            name: "term references in cells",
            markdown: """
                | Word | Use |
                |------|-----|
                | [[lemma]] | see [[headword\\|the headword]] |

                """),
        Page(
            name: "rows that do not look like rows",
            markdown: """
                | abc | def |
                | --- | --- |
                | bar | baz |
                just text
                - not a list
                ===
                > not quoted

                """),
        Page(
            name: "tabs and trailing spaces",
            markdown: "|\ta\t|\tb |  \n|\t:-:\t|---|\t\n|\tc\t|  d  |   \n"),
        Page(
            name: "indented tables",
            markdown: "   | a | b |\n   | - | - |\n   | c | d |\n\n  x | y\n --|--\n z | w\n"),
        Page(
            name: "header-only table and a one-column table without pipes",
            markdown: "| only | header |\n|---|---|\n\nWord\n:---\nlemma\n"),
        Page(
            name: "table ended by a lone pipe, a second table after it",
            markdown: "| a | b |\n|---|---|\n| c | d |\n|\n| e | f |\n|---|---|\n| g | h |\n"),
        Page(
            name: "table ended by an indented line, an ordered list, an empty item and an HTML tag",
            markdown: """
                | a | b |
                |---|---|
                | c | d |
                    indented code | x

                | a | b |
                |---|---|
                2. second
                | e | f |

                | a | b |
                |---|---|
                *
                | g | h |

                | a | b |
                |---|---|
                <custom-tag attribute="v">
                | i | j |

                """),
        Page(
            name: "delimiter rows that only look like one",
            markdown: "| a | b |\n|---|---|---|\n| c | d |\n|---|---|\n\n| x |\n    |---|\n\n| y |\n|:-:-|\n"),
        Page(
            name: "table followed directly by a rule and by a heading underline",
            markdown: "| a | b |\n|---|---|\n| c | d |\n---\n\nIntro\n| x |\n|:-:|\n--\n-\n"),
        Page(
            name: "setext heading without a table stays a heading",
            markdown: "Title with a | pipe\n---\n\n| a |\n| b |\n===\n\n| t |\n|---|\n"),
        Page(
            name: "header-only tables in lists: cmark-gfm makes the list loose",
            markdown: """
                - A
                  | a |
                  |---|
                - B

                1. C
                   | c |
                   |---|
                       code

                - D
                  | d |
                  |---|
                  | e |
                - F

                - outer
                  - inner
                    | a |
                    |---|
                - next

                """),
        Page(
            name: "tabs in list items",
            markdown: "-\t| a | b |\n\t|---|---|\n\t| c | d |\n\t\t| code |\n\n* x\n\t| a |\n\t|:-|\n"),
        Page(
            name: "vertical tab and form feed before delimiter rows",
            markdown: "a\n\u{0B}:-\n\n| a |\n\u{0B}|---|\n\n| b |\n|\u{0C}---\u{0B}|\n"),
        Page(
            name: "header lines with leading whitespace in a list",
            markdown: "- x\n    | a | b |\n  | - | - |\n\n- y\n | a | b |\n  | - | - |\n"),
    ]

    @Test(arguments: pages) func documentationTableRendersAsCmarkGFM(_ page: Page) async throws {
        let expected = try await TableDocumentRenderer.cmarkGFM(page.markdown)
        #expect(expected.contains("<table>"), "the page should hold a table")
        #expect(TableDocumentRenderer.html(page.markdown) == expected)
    }

    // MARK: Generated tables in containers

    /// Tables built from row, delimiter and text lines of many shapes, at the top level and in block quotes and
    /// list items, every line with its full container prefix (lazy lines are a known difference, below).
    @Test func generatedTablesInContainersRenderAsCmarkGFM() async throws {
        var random = SeededRandom(seed: 13)
        let rows = [
            "| a | b |", "a | b", "|a|b|", "| `x|y` | z |", "| \\| | q |", "| *e* | **s** |", "| [l](u) | x |", "| a |", "| a | b | c |",
            "||", "|", "text", "  | a | b |", "    | a | b |", "\t| a |", "2. x", "*", "[[w]] | [[s\\|w]]", "a\\\\|b", "&amp;|x",
            "| ![i](u) |", "_a_|b_", "*a|b*", "x|", "|x", "- y", "> q", "# h", "***", "1. z", "---", "| é | 日本 |",
        ]
        let delimiters = ["|---|---|", "---|---", ":-|-:", "|:-:|", ":--", "| - | - | - |", "|-|", "    |---|---|", "--|--|", "| --- | --- |  ", "-|-"]
        let leading = ["Intro", "Intro \\| `a\\|b`", "[[term]] and *emphasis*"]
        let containers: [(first: String, rest: String)] = [
            ("", ""), ("> ", "> "), (">", ">"), ("- ", "  "), ("1. ", "   "), ("> - ", ">   "), ("- > ", "  > "), ("  - ", "    "), ("* ", "\t"),
        ]
        var mismatches: [String] = []
        for _ in 0..<150 {
            let container = containers[random.next(containers.count)]
            var lines: [String] = []
            if random.next(3) == 0 { lines.append(leading[random.next(leading.count)]) }
            lines.append(rows[random.next(12)])
            lines.append(delimiters[random.next(delimiters.count)])
            for _ in 0..<random.next(5) {
                lines.append(random.next(3) == 0 ? delimiters[random.next(delimiters.count)] : rows[random.next(rows.count)])
            }
            let markdown = lines.enumerated().map { ($0.offset == 0 ? container.first : container.rest) + $0.element + "\n" }.joined()
            if try await TableDocumentRenderer.cmarkGFM(markdown) != TableDocumentRenderer.html(markdown) { mismatches.append(markdown) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) differ, first:\n\(mismatches.first ?? "")")
    }

    /// Cell text of many shapes: emphasis, code, escapes, entities, raw HTML, autolinks, text that would be a
    /// block at the start of a line (a cell is never one), a combining mark first.
    @Test func generatedCellTextRendersAsCmarkGFM() async throws {
        var random = SeededRandom(seed: 4)
        let tokens = [
            "*", "_", "**", "__", "`", "``", "\\", "[", "]", "(", ")", "<", ">", "&", "!", "a", "b", " ", "  ", "é", "\\|", "&amp;", "&#35;",
            "&nbsp;", "<a href=\"x\">", "</a>", "![", "](", "~", "\"", "'", "1", "#", "-", "+", "1.", "[[w]]", "\u{301}", "<x@y.z>",
            "<http://a.b>", "\\*", "\\`", "\\\\", "*a*", "_a_", "\t", "[l]: /u", "> q", "```", "=", "---", "<!-- c -->", "\u{A0}",
        ]
        var mismatches: [String] = []
        for _ in 0..<150 {
            let cell = (0...random.next(7)).map { _ in tokens[random.next(tokens.count)] }.joined()
            let markdown = "| h | \(cell) |\n|---|---|\n| \(cell) | x |\n"
            if try await TableDocumentRenderer.cmarkGFM(markdown) != TableDocumentRenderer.html(markdown) { mismatches.append(markdown) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) differ, first:\n\(mismatches.first ?? "")")
    }

    // MARK: Where we differ from cmark-gfm, on purpose or because cmark parsed the blocks differently

    /// Cells render alone, without the page's link reference definitions: `[text][ref]` stays text.
    @Test func referenceLinksInCellsStayTextUnlikeCmarkGFM() async throws {
        let markdown = "| Link |\n|---|\n| [the API][api] |\n\n[api]: https://dictionaryapi.dev/\n"
        let gfm = try await TableDocumentRenderer.cmarkGFM(markdown)
        #expect(gfm.contains("<td><a href=\"https://dictionaryapi.dev/\">the API</a></td>"))
        let link = "<a href=\"https://dictionaryapi.dev/\">the API</a>"
        #expect(TableDocumentRenderer.html(markdown) == gfm.replacingOccurrences(of: link, with: "[the API][api]"))
    }

    /// A lazy line after a table (a row without its `>`): cmark-gfm closes the block quote there, we keep the
    /// line inside it, parsed as blocks after the table.
    @Test func lazyLineAfterATableStaysInTheContainerUnlikeCmarkGFM() async throws {
        let markdown = "> | a |\n> |---|\n> | b |\n| c |\n"
        let ours = TableDocumentRenderer.html(markdown)
        let gfm = try await TableDocumentRenderer.cmarkGFM(markdown)
        #expect(gfm.hasSuffix("</table>\n</blockquote>\n<p>| c |</p>\n"))
        #expect(ours.hasSuffix("</table>\n<p>| c |</p>\n</blockquote>\n"))
        #expect(ours.replacingOccurrences(of: "<p>| c |</p>\n</blockquote>\n", with: "</blockquote>\n<p>| c |</p>\n") == gfm)
    }

    /// A `===` row makes cmark read the lines above it as a heading, and the lines after it as a paragraph of
    /// their own: the table takes `===` as its last row (as cmark-gfm does), but not the rows after it.
    @Test func rowsAfterAnEqualsRowStartAParagraphUnlikeCmarkGFM() async throws {
        let markdown = "| a |\n|---|\n===\n| b |\n"
        let gfm = try await TableDocumentRenderer.cmarkGFM(markdown)
        #expect(gfm.contains("<td>===</td>\n</tr>\n<tr>\n<td>b</td>"))
        #expect(TableDocumentRenderer.html(markdown).hasSuffix("<td>===</td>\n</tr>\n</tbody>\n</table>\n<p>| b |</p>\n"))
    }

    /// A link reference definition right before the header row: both render it as text, but cmark also defines
    /// the reference for the page, cmark-gfm does not.
    @Test func referenceDefinitionBeforeTheHeaderRowIsText() async throws {
        let markdown = "[api]: /url\n| a |\n|---|\n\nSee [api].\n"
        let gfm = try await TableDocumentRenderer.cmarkGFM(markdown)
        #expect(gfm.hasPrefix("<p>[api]: /url</p>\n<table>"))
        #expect(gfm.hasSuffix("<p>See [api].</p>\n"))
        #expect(TableDocumentRenderer.html(markdown) == gfm.replacingOccurrences(of: "See [api].", with: "See <a href=\"/url\">api</a>."))
    }

    // MARK: Paragraphs that are no tables

    @Test(arguments: [
        "a | b\nc | d\n",
        "| a | b |\n| --- |\n| c |\n",
        "| a | b |\n",
        "Use a|b or `c|d` here.\nAnd a second | line.\n",
        "| a |\n    |---|\n",
        "> a | b\n--|--\n",
        "| `a|b` | c |\n| - | - |\n",
        "| a\\|b | c |\n| - | - | - |\n",
        "a\n-|-\n",
        "| a |\n| -:- |\n",
        "| a |\n|-| x\n",
    ])
    func paragraphWithoutADelimiterRowOfTheHeadersCellCountStaysAParagraph(_ markdown: String) async throws {
        let lines = TableDocumentRenderer.firstParagraphLines(markdown)
        #expect(!lines.isEmpty)
        #expect(PipeTable.split(lines, file: "p.md") == nil)
        let gfm = try await TableDocumentRenderer.cmarkGFM(markdown)
        #expect(!gfm.contains("<table>"))
        #expect(TableDocumentRenderer.html(markdown) == gfm)
    }

    @Test func theCheapTestRejectsProseAtOnce() {
        let source = ["Words, words | and a pipe", "more words", "  | but indented text", "- and -- dashes later"].map { Array($0.utf8) }
        #expect(!PipeTable.mayStart(in: source, lines: 1...2))
        #expect(PipeTable.mayStart(in: source, lines: 1...3))
        #expect(PipeTable.mayStart(in: source, lines: 3...4))
        #expect(!PipeTable.mayStart(in: source, lines: 4...4))
        #expect(PipeTable.mayStart(in: [Array("a".utf8), Array("> > :--".utf8)], lines: 1...2))
    }

    // MARK: What a table holds

    private func split(_ markdown: String, lineOffset: Int = 0) throws -> PipeTableSplit {
        let lines = TableDocumentRenderer.firstParagraphLines(markdown).map {
            ParagraphLine(number: $0.number + lineOffset, bytes: $0.bytes, contentColumn: $0.contentColumn, isLazy: $0.isLazy)
        }
        return try #require(PipeTable.split(lines, file: "p.md"))
    }

    private func cells(_ row: [SourceText]) -> [String] {
        row.map { "\($0.location.line):\($0.location.column) \($0.text)" }
    }

    @Test func cellsAreTrimmedUnescapedAndPaddedToTheHeader() throws {
        let table = try split("|  `a\\|b` \\| c |:-|\n|:-|-:|\n|\\\\|x|y|z\n| only\n").table
        #expect(table.alignments == [.left, .right])
        #expect(table.header.map(\.text) == ["`a|b` | c", ":-"])
        #expect(table.rows.map { $0.map(\.text) } == [["\\|x", "y"], ["only", ""]])
        #expect(table.lines == 1...4)
    }

    @Test func cellLocationsAreExactLinesAndColumns() throws {
        let result = try split("Intro with é\n| Wörd | 日本 | [[term]] |\n|:-:|---|--:|\n|\tcafé | x |\n", lineOffset: 3)
        #expect(cells(result.table.header) == ["5:3 Wörd", "5:10 日本", "5:15 [[term]]"])
        // A tab is one column (one scalar); the padded cell stands at the end of its line.
        #expect(cells(result.table.rows[0]) == ["7:3 café", "7:10 x", "7:13 "])
        #expect(result.leading?.text == "Intro with é")
        #expect(result.leading?.location == SourceLocation(file: "p.md", line: 4, column: 1))
    }

    @Test func cellLocationsInListItemsAndBlockQuotes() throws {
        let item = try split("1. Steps:\n   | Word | Use |\n   |---|---|\n   | [[a]] | b |\n")
        #expect(cells(item.table.header) == ["2:6 Word", "2:13 Use"])
        #expect(cells(item.table.rows[0]) == ["4:6 [[a]]", "4:14 b"])
        #expect(item.leading?.location == SourceLocation(file: "p.md", line: 1, column: 4))
        let quote = try split("> - x\n>   | a |\n>   |---|\n>   |  [[b]] |\n")
        #expect(cells(quote.table.header) == ["2:7 a"])
        #expect(cells(quote.table.rows[0]) == ["4:8 [[b]]"])
    }

    @Test func offsetsInsideACellMapToTheFileAcrossUnescapedPipes() throws {
        let table = try split("| Use |\n|---|\n| see [[the head\\|headword]] and é\\|[[x]] |\n").table
        let cell = table.rows[0][0]
        #expect(cell.text == "see [[the head|headword]] and é|[[x]]")
        func column(of needle: String) -> Int {
            let range = cell.text.range(of: needle)!
            return cell.location(atUTF8Offset: cell.text.utf8.distance(from: cell.text.startIndex, to: range.lowerBound)).column
        }
        #expect(cell.location.column == 3)
        #expect(column(of: "[[the") == 7)
        #expect(column(of: "|headword") == 18)
        #expect(column(of: "headword") == 19)
        #expect(column(of: "[[x]]") == 37)
    }

    @Test func leadingTextKeepsItsLinesWithPipesUnescaped() throws {
        let result = try split("> First \\| line  \n>   second `a\\|b`\n> | h |\n> |---|\n")
        let leading = try #require(result.leading)
        #expect(leading.text == "First | line  \nsecond `a|b`")
        #expect(leading.location(atUTF8Offset: 6) == SourceLocation(file: "p.md", line: 1, column: 10))
        #expect(leading.location(atUTF8Offset: leading.text.utf8.count - 5) == SourceLocation(file: "p.md", line: 2, column: 12))
        #expect(result.trailing.isEmpty)
    }

    @Test func linesThatEndTheTableAreLeftAsMarkdownToParseAgain() throws {
        let result = try split("- | a |\n  |---|\n  | b |\n        code\n  | c |\n")
        #expect(result.table.rows.count == 1)
        #expect(result.trailing.map(\.number) == [4, 5])
        #expect(result.trailingMarkdown == "      code\n| c |")
    }

    /// Lines of arbitrary bytes (invalid UTF-8 too) with containers at arbitrary positions, even outside the
    /// lines: no trap, and every cell's location stands on its line.
    @Test func arbitraryInputNeverTraps() {
        var random = SeededRandom(seed: 99)
        let alphabet: [UInt8] = Array("|||:-- \t>\\`*-1.ab\r".utf8) + [0x0B, 0x0C, 0x00, 0xC3, 0xA9, 0xFF, 0xE6, 0x97]
        var tables = 0
        for _ in 0..<3000 {
            // Half the lines from pipes, dashes, colons and spaces only, so that many paragraphs hold tables.
            let source = (0..<(1 + random.next(6))).map { _ in
                let letters = random.next(2) == 0 ? Array(alphabet.prefix(7)) : alphabet
                return (0..<random.next(14)).map { _ in letters[random.next(letters.count)] }
            }
            let containers: [MarkdownContainer] = (0..<random.next(3)).map { _ in
                random.next(2) == 0
                    ? .blockQuote(line: random.next(source.count + 2) - 1, column: random.next(8) - 1)
                    : .listItem(line: random.next(source.count + 2) - 1, column: random.next(8) - 1)
            }
            let lines = ParagraphLine.lines(
                in: source, startLine: 1, startColumn: random.next(6) - 1, endLine: source.count + random.next(2), containers: containers)
            #expect(lines.allSatisfy { $0.contentColumn >= 1 && $0.contentColumn <= $0.bytes.count + 1 })
            guard let split = PipeTable.split(lines, file: "p.md", setextHeading: random.next(4) == 0) else { continue }
            tables += 1
            for cell in split.table.header + split.table.rows.joined() {
                let line = lines.first { $0.number == cell.location.line }
                #expect(line != nil && cell.location.column >= 1 && cell.location.column <= (line?.bytes.count ?? 0) + 1)
            }
            _ = split.table.html { $0.text }
            _ = split.trailingMarkdown
            _ = split.leading?.location(atUTF8Offset: random.next(40) - 5)
        }
        #expect(tables > 50)
    }

    @Test func rendersEmptyCellsWithoutCallingTheCellRenderer() throws {
        let table = try split("| a | |\n|:-:|--:|\n").table
        var rendered: [String] = []
        let html = table.html { cell in
            rendered.append(cell.text)
            return "<b>" + cell.text + "</b>"
        }
        #expect(rendered == ["a"])
        #expect(html == "<table>\n<thead>\n<tr>\n<th align=\"center\"><b>a</b></th>\n<th align=\"right\"></th>\n</tr>\n</thead>\n</table>\n")
    }
}
