import Testing

@testable import GlossaryKit

@Suite struct MarkdownDocumentTests {
    private func references(_ markdown: String, firstLine: Int = 1) -> [String] {
        MarkdownDocument(markdown: markdown, file: "p.md", firstLine: firstLine).references.map {
            "\($0.location.line):\($0.location.column) \($0.shown)|\($0.key)"
        }
    }

    private func linked(_ markdown: String) -> String {
        MarkdownDocument(markdown: markdown, file: "p.md").html { reference in
            .init(open: "<a data-term=\"\(reference.key)\">", close: "</a>")
        }
    }

    @Test func findsPlainAndShownReferencesWithColumns() {
        #expect(references("Hi [[word]] and [[Shown text|Other Word]].") == ["1:4 word|word", "1:17 Shown text|other word"])
    }

    @Test func findsReferencesInsideEmphasisListsAndQuotes() {
        let markdown = "*an [[emph]]*\n\n- item [[listed]]\n\n> quoted [[quote]]\n"
        #expect(
            references(markdown)
                == ["1:5 emph|emph", "3:8 listed|listed", "5:10 quoted|quote"].map {
                    $0.replacingOccurrences(of: "quoted|", with: "quote|")
                })
    }

    @Test func ignoresCodeSpansCodeBlocksHTMLAndLinks() {
        let markdown = """
            `[[span]]` and <span>[[html]]</span>

            ```
            [[fenced]]
            ```

                [[indented]]

            [a [[linked]] text](https://example.com/[[dest]])
            """
        #expect(references(markdown) == ["1:22 html|html"])
    }

    @Test func escapedOpeningIsLiteral() {
        #expect(references(#"Write \[[word]] to get brackets, or [[real]]."#) == ["1:37 real|real"])
        #expect(linked(#"\[[word]]"#) == "<p>[[word]]</p>\n")
    }

    @Test func columnsOnContinuationLinesAreExact() {
        #expect(references("First line\n   then [[here]]", firstLine: 5) == ["6:9 here|here"])
    }

    @Test func linkReferenceDefinitionDoesNotSwallowTerm() {
        let markdown = "See [[x]] now.\n\n[x]: https://example.com\n"
        #expect(references(markdown) == ["1:5 x|x"])
        #expect(linked(markdown) == "<p>See <a data-term=\"x\">x</a> now.</p>\n")
    }

    @Test func aCombiningMarkAfterASwallowedTermStaysAndTheTermIsFound() {
        // `]` and U+0301 are one Character: compared and cut as Characters, the term was left a link, or lost the mark.
        let markdown = "See [[x]]\u{0301} now.\n\n[x]: https://example.com\n"
        #expect(references(markdown) == ["1:5 x|x"])
        #expect(linked(markdown) == "<p>See <a data-term=\"x\">x</a>\u{0301} now.</p>\n")
    }

    /// Fuzzer input (Fuzz/corpus/markdown/undecoded-entity.md): cmark leaves `&#;` as written, and aligning the
    /// text with its line read it as an entity, failed, and fell back to cmark's column, from the quote's first line:
    /// past the end of the line the reference is on.
    @Test func entitiesCmarkLeavesAsWrittenDontLoseTheColumns() {
        #expect(references(">>>>>>>>>\u{01}\n[[n]]&#;") == ["2:1 n|n"])
        #expect(references("a &#; [[x]] &bogus; [[y]] &amp; [[z]]") == ["1:7 x|x", "1:21 y|y", "1:33 z|z"])
        #expect(references("&amp;amp; [[x]]") == ["1:11 x|x"], "a decoded entity whose text looks like another")
    }

    /// Fuzzer input (Fuzz/corpus/markdown/lazy-swallowed.md): a `[[term]]` a link definition swallowed, on a lazy
    /// continuation line after a CR, was placed at cmark's column, which counts the first line's quote markers.
    @Test func aSwallowedTermOnALazyLineIsAtItsOwnColumn() {
        #expect(references(">>>>> f\r[[x]]\n\n[x]:[") == ["2:1 x|x"])
        #expect(references("> [[x]] and [[x]]\n\n[x]: /u\n") == ["1:3 x|x", "1:13 x|x"], "each occurrence where it is")
    }

    /// Fuzzer input (Fuzz/corpus/markdown/lazy-cr-brackets.md): on a lazy line after a CR, cmark's column counts
    /// the first line's markers; a line of 46 `[` then had the search for the text's start give up before it
    /// reached the real one, and every reference and problem on it was placed 14 columns right (past its end).
    @Test func aLazyLineOfBracketsKeepsItsColumns() {
        let markdown = " >>>>>>>>- >>>\u{FFFD}\r" + String(repeating: "[", count: 46) + "l]]  "
        #expect(references(markdown) == ["2:45 l|l"])
        let document = MarkdownDocument(markdown: markdown, file: "p.md")
        #expect(document.diagnostics.compactMap { $0.location.map { "\($0.line):\($0.column)" } } == stride(from: 1, through: 43, by: 2).map { "2:\($0)" })
        // Where the text stands twice, nearest cmark's column wins, as the search would have found it.
        #expect(references(">>>>> [[a]] x\r[[a]] y [[a]] x [[a]] z") == ["1:7 a|a", "2:1 a|a", "2:9 a|a", "2:17 a|a"])
    }

    @Test func rendersShownTextEscaped() {
        #expect(linked("a [[x &lt; y & \\\"z\\\"|word]] b") == "<p>a <a data-term=\"word\">x &lt; y &amp; &quot;z&quot;</a> b</p>\n")
    }

    @Test func unclosedReferenceWarns() {
        let document = MarkdownDocument(markdown: "text [[open and *more*", file: "p.md", firstLine: 3)
        #expect(
            document.diagnostics.map(\.description) == [
                "p.md:3:6: warning: '[[' is not closed by ']]' on the same line; write '\\[[' for a literal '[[' [unclosed-term]"
            ])
    }

    @Test func entityBeforeReferenceKeepsColumn() {
        #expect(references("&amp; [[a]] &copy; [[b]]") == ["1:7 a|a", "1:20 b|b"])
    }

    @Test func unicodeColumnsCountScalars() {
        #expect(references("café [[naïve]]") == ["1:6 naïve|naïve"])
    }

    @Test func renderingTwiceRewritesFromTheOriginalDestinations() {
        let document = MarkdownDocument(markdown: "[a](/x/) ![i](/i.png)\n", file: "p.md")
        let prefixed = { (url: String) -> String? in "/docs" + url }
        let first = document.html(rewrite: prefixed)
        let second = document.html(rewrite: prefixed)
        #expect(first == #"<p><a href="/docs/x/">a</a> <img src="/docs/i.png" alt="i" /></p>"# + "\n")
        #expect(second == first)
        #expect(document.html() == #"<p><a href="/x/">a</a> <img src="/i.png" alt="i" /></p>"# + "\n")
    }

    @Test func escapedReferenceStaysLiteralEvenWithALinkDefinition() {
        let markdown = "Literal \\[[x]] here.\n\n[x]: ./missing.md\n"
        let document = MarkdownDocument(markdown: markdown, file: "p.md")
        #expect(document.references.isEmpty)
        #expect(document.links.map(\.destination) == ["./missing.md"], "the link is real here")
        let swallowed = MarkdownDocument(markdown: "A [[x]] here.\n\n[x]: ./missing.md\n", file: "p.md")
        #expect(swallowed.references.map(\.key.rawValue) == ["x"])
        #expect(swallowed.links.isEmpty, "a link that became a term reference is not checked as a link")
    }

    // MARK: Found by fuzzing (Fuzz/, markdown)

    @Test func aNulByteCountsAsTheReplacementCharacterCmarkReadsIt() {
        // Fuzzer input (minimised by hand): "\0\0\0[[ccc\xD1&\0\0\x01\0\0\x14\0*\x0C\x05[[\xFF]]\0\0\0".
        #expect(references("\u{0}[[x]] \u{0}[[y]]") == ["1:2 x|x", "1:9 y|y"])
        #expect(references("\u{0}\\[[x]]").isEmpty)
    }

    @Test func aLoneCarriageReturnEndsALine() {
        #expect(references("a\r\\[[not]] [[b]]\rc [[d]]") == ["2:10 b|b", "3:3 d|d"])
    }

    @Test func referencesAfterABackslashHardBreakAreOnTheirOwnLines() {
        // Fuzzer input: the seed Fuzz/corpus/markdown/breaks.md; cmark 0.30 gives the text after `\` + newline the
        // previous line, and every later line of the paragraph one line too early.
        let markdown = "line\\\nbreak [[after]]\nthird [[x]] and \\[[escaped]]\\\n[[last]]\n\nnext [[p]]\n"
        #expect(references(markdown) == ["2:7 after|after", "3:7 x|x", "4:1 last|last", "6:6 p|p"])
        #expect(MarkdownDocument(markdown: "a\\\n[b](/x)\n", file: "p.md").links.map(\.location.line) == [2])
        #expect(references("a\\\n\\[[b]]").isEmpty)
        #expect(references("a  \n[[b]]") == ["2:1 b|b"])
    }

    @Test func referencesAfterACodeSpanRawHTMLOrLinkSpanningLinesAreOnTheirOwnLines() {
        // Fuzzer input, minimised: "`\n`[[e]]".
        #expect(references("`\n`[[e]]") == ["2:2 e|e"])
        #expect(references("a <span\nclass=\"x\">[[e]]") == ["2:11 e|e"])
        #expect(references("[a](\n/url \"t\nx\") [[e]]\nnext [[f]]") == ["3:5 e|e", "4:6 f|f"])
        #expect(references("`\n`\\[[e]]").isEmpty)
    }

    @Test func aReferenceALinkDefinitionSwallowedIsLocatedInScalars() {
        // Fuzzer input, minimised: "[x]:e\n\n\xA5\xA5\xA5[[x]]" (each invalid byte read as U+FFFD, 3 bytes).
        #expect(references("[x]:e\n\n\u{FFFD}\u{FFFD}\u{FFFD}[[x]]") == ["3:4 x|x"])
        #expect(MarkdownDocument(markdown: "[x]: /e\n\né [x]", file: "p.md").links.map(\.location.column) == [3])
    }

    @Test func referencesInAParagraphAfterLinkDefinitionsAreOnTheirOwnLines() {
        // Fuzzer input, minimised: "[x]:[[x]]\nx\0\0\0[[x]]"; cmark 0.30 places the paragraph's text on the lines
        // of the definitions that started it.
        #expect(references("[x]:[[x]]\nx\u{0}\u{0}\u{0}[[x]]") == ["2:5 x|x"])
        #expect(references("[a]: /u\n[b]: /v\nx [[y]] z\n[[w]]") == ["3:3 y|y", "4:1 w|w"])
    }

    @Test func aTextAlignedLateOnItsLineIsNotLookedForBelowItsParagraph() {
        // Fuzzer input, minimised: "- - b\n  " + 38 × "[" + "\n" + 38 × "[" (crash-e53dc93…). cmark puts both lines'
        // text at column 5, right of where it stands; trying every start from there spent the search's budget
        // before the real one, the text was taken for the next line's, and the next line's for a fourth line.
        let brackets = String(repeating: "[", count: 38)
        let document = MarkdownDocument(markdown: "- - b\n  \(brackets)\n\(brackets)", file: "p.md")
        #expect(document.diagnostics.map { "\($0.location!.line):\($0.location!.column)" }.prefix(1) == ["2:3"])
        #expect(document.diagnostics.allSatisfy { (2...3).contains($0.location!.line) })
        #expect(document.diagnostics.filter { $0.location!.line == 3 }.first?.location?.column == 1)
        #expect(references("- - b\n  \(brackets) [[x]]\n\(brackets) [[y]]") == ["2:42 x|x", "3:40 y|y"])
    }

    @Test func aLineOfOneRepeatedByteIsFoundWhereCmarkPutsItOneColumnOff() {
        // Fuzzer input, minimised: " a\n" + 46 × "[" + "\n\0[[e]]*" + 47 × "[" + "\nt" (crash-fb4c5b0…). cmark gives the
        // lines after the indented first one column 2; trying starts rightwards first spent the search's budget on
        // 46 `[` before column 1, the line was taken for the next one, and `[[e]]` put on the line "t".
        let markdown = " a\n" + String(repeating: "[", count: 46) + "\n\u{0}[[e]]*" + String(repeating: "[", count: 47) + "\nt"
        #expect(references(markdown) == ["3:2 e|e"])
        #expect(references(" a\n\(String(repeating: "[", count: 46))\n[[e]]") == ["3:1 e|e"])
    }

    @Test func aReferenceALinkDefinitionSwallowedInsideAnImageIsNone() {
        // Fuzzer input, minimised: "[x]:\0\n![t[[x]]]()" (crash-dcddd69…): the reference was found inside the image's
        // description, where cmark renders text only, so its wrapper never appeared.
        let document = MarkdownDocument(markdown: "[x]:\u{0}\n![t[[x]]]()", file: "p.md")
        #expect(document.references.isEmpty)
        #expect(references("[x]: /u\n\n![t [[x]]](/i.png) and [[x]]") == ["3:24 x|x"])
        #expect(MarkdownDocument(markdown: "[x]: /u\n\n![t [[x]]](/i.png)", file: "p.md").html() == "<p><img src=\"/i.png\" alt=\"t [x]\" /></p>\n")
    }

    @Test func anEntityOfTwoScalarsKeepsTheEscapesAfterItInStep() {
        // `&ngE;` is U+2267 U+0338; the escape after it used to be lost, making `\[[x]]` a reference.
        #expect(references("&ngE;\\[[x]] [[y]]") == ["1:13 y|y"])
    }

    /// A reference cmark parsed markup inside is `term-markup`; one whose `]]` closes a later `[[` is unclosed.
    @Test func markupInsideAReferenceIsNamedAndAnUnclosedOneStaysUnclosed() {
        let document = MarkdownDocument(markdown: "A [[<b>x</b>]] then [[ open, [[`code`]] and [[fine]].", file: "p.md")
        #expect(
            document.diagnostics.map { "\($0.location?.column ?? 0) \($0.problem.code.rawValue)" } == ["3 term-markup", "21 unclosed-term", "30 term-markup"])
        #expect(document.references.map(\.word) == ["fine"])
    }

    @Test(.timeLimit(.minutes(10)))
    func longLinesAreScannedInLinearTime() {
        let many = MarkdownDocument(markdown: String(repeating: "[[a]]", count: 20_000), file: "p.md")
        #expect(many.references.count == 20_000)
        #expect(many.references.last?.location.column == 99_996)
        let unclosed = MarkdownDocument(markdown: String(repeating: "[[", count: 50_000), file: "p.md")
        #expect(unclosed.diagnostics.count == 50_000)
        #expect(unclosed.diagnostics.last?.location?.column == 99_999)
        // Every start matches a long way before the entity fails: quadratic when the search was unbounded.
        let misaligned = MarkdownDocument(markdown: String(repeating: "a", count: 50_000) + "[[x]]&fjlig;", file: "p.md")
        #expect(misaligned.references.map(\.word) == ["x"])
    }

}

extension MarkdownDocument {
    /// The HTML with each reference wrapped by `wrap` and each link destination passed through `rewrite`.
    func html(
        wrap: (TermReference) -> Wrapper = { _ in .init(open: "", close: "") }, rewrite: (String) -> String? = { _ in nil }
    ) -> String {
        renderHTML(wrappers: references.map(wrap), destinations: links.map { rewrite($0.destination) })
    }
}
