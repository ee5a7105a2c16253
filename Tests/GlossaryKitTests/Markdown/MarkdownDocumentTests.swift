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
        #expect(references(markdown) == ["1:5 emph|emph", "3:8 listed|listed", "5:10 quoted|quote"].map {
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

    @Test func rendersShownTextEscaped() {
        #expect(linked("a [[x &lt; y & \\\"z\\\"|word]] b") == "<p>a <a data-term=\"word\">x &lt; y &amp; &quot;z&quot;</a> b</p>\n")
    }

    @Test func unclosedReferenceWarns() {
        let document = MarkdownDocument(markdown: "text [[open and *more*", file: "p.md", firstLine: 3)
        #expect(document.diagnostics.map(\.description) == [
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
}

extension MarkdownDocument {
    /// The HTML with each reference wrapped by `wrap` and each link destination passed through `rewrite`.
    func html(
        wrap: (TermReference) -> Wrapper = { _ in .init(open: "", close: "") }, rewrite: (String) -> String? = { _ in nil }
    ) -> String {
        renderHTML(wrappers: references.map(wrap), destinations: links.map { rewrite($0.destination) })
    }
}
