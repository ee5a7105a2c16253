import Testing

@testable import GlossaryKit

/// One cell's inline markdown rendered by libcmark, never read as a block.
@Suite struct InlineMarkdownTests {
    @Test func rendersInlines() {
        #expect(InlineMarkdown.html("*a* and `b|c` and _d_ [l](/u)") == "<em>a</em> and <code>b|c</code> and <em>d</em> <a href=\"/u\">l</a>")
        #expect(InlineMarkdown.html("") == "")
    }

    @Test(arguments: [
        ("# not a heading", "# not a heading"), ("- not a list", "- not a list"), ("1. not a list", "1. not a list"),
        ("> not a quote", "&gt; not a quote"), ("[x]: /not-a-definition", "[x]: /not-a-definition"), ("***", "***"),
        ("<div>", "<!-- raw HTML omitted -->"),
    ])
    func textThatStartsABlockStaysText(_ input: String, _ html: String) {
        #expect(InlineMarkdown.html(input) == html)
    }

    @Test func keepsACombiningMarkThatFollowsTheGuard() {
        #expect(InlineMarkdown.html("\u{301}x") == "\u{301}x")
        #expect(InlineMarkdown.html("\u{A0}") == "\u{A0}")
    }
}
