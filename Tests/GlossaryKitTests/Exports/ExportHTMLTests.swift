import Testing

@testable import GlossaryKit

/// Definition HTML made to stand on its own (links absolute), and its plain text.
@Suite struct ExportHTMLTests {
    @Test(arguments: [
        ("/guide/", "https://example.org/guide/"),
        ("../leading/", "https://example.org/docs/terms/leading/"),
        ("../../guide/intro/#setup", "https://example.org/docs/guide/intro/#setup"),
        ("../../../../way/up/", "https://example.org/way/up/"),
        ("notes", "https://example.org/docs/terms/kerning/notes"),
        ("./", "https://example.org/docs/terms/kerning/"),
        ("..", "https://example.org/docs/terms/"),
        ("#top", "https://example.org/docs/terms/kerning/#top"),
        ("?q=a&amp;b", "https://example.org/docs/terms/kerning/?q=a&amp;b"),
        ("https://other.example/x", "https://other.example/x"),
        ("mailto:a@b.example", "mailto:a@b.example"),
        ("//cdn.example/x.png", "//cdn.example/x.png"),
    ])
    func linksResolveAgainstTheTermPage(href: String, resolved: String) {
        #expect(ExportHTML.resolved(href, page: "/docs/terms/kerning/", origin: "https://example.org") == resolved)
        #expect(
            ExportHTML.absolutized(
                "<p><a href=\"\(href)\">x</a> <img src=\"\(href)\" alt=\"\"></p>", page: "/docs/terms/kerning/", origin: "https://example.org")
                == "<p><a href=\"\(resolved)\">x</a> <img src=\"\(resolved)\" alt=\"\"></p>")
    }

    /// Each attribute in turn, whichever comes first, after any text.
    @Test func everyAttributeIsResolvedInOrderAfterAnyText() {
        let html = "<p>Café 日本 <img src=\"a.png\" alt=\"\"> <a href=\"../b/\">ü</a> <a href=\"https://x.org/\">x</a> src=&quot;c&quot;</p>"
        #expect(
            ExportHTML.absolutized(html, page: "/terms/k/", origin: "https://example.org")
                == "<p>Café 日本 <img src=\"https://example.org/terms/k/a.png\" alt=\"\"> <a href=\"https://example.org/terms/b/\">ü</a> <a href=\"https://x.org/\">x</a> src=&quot;c&quot;</p>"
        )
        #expect(ExportHTML.absolutized("<p>No links, é.</p>", page: "/terms/k/", origin: "https://example.org") == "<p>No links, é.</p>")
    }

    @Test func withoutAnOriginLinksBecomeSiteAbsolute() {
        #expect(ExportHTML.resolved("../x/", page: "/terms/k/", origin: "") == "/terms/x/")
        #expect(ExportHTML.resolved("/a/", page: "/terms/k/", origin: "") == "/a/")
    }

    @Test func textIsALinePerBlockWithMarkupDroppedAndEntitiesDecoded() {
        let html = """
            <h2>Use</h2>
            <p>The <strong>space</strong> between
            two <a href="x">letters</a> &amp; &lt;glyphs&gt; &quot;here&quot; &#233;&#x20AC;<!-- raw HTML omitted --> end.</p>
            <ul>
            <li>one</li>
            <li><p>two</p></li>
            </ul>
            <pre><code>let a = 1
              let b = 2
            </code></pre>
            <blockquote>
            <p>quoted<br />
            break</p>
            </blockquote>
            <table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>
            <p>&bogus; &amp</p>
            """
        #expect(
            ExportHTML.plainText(html) == """
                Use
                The space between two letters & <glyphs> "here" é€ end.
                one
                two
                let a = 1
                let b = 2
                quoted
                break
                a b
                1 2
                &bogus; &amp
                """)
    }

    /// White space of every kind is one space, a mark written on a space goes with it, and text in `<pre>` keeps its
    /// characters; a comment closed at once (`<!-->`) hides nothing after it.
    @Test func unicodeSpaceMarksAndShortComments() {
        let html = "<p>a\u{A0}\u{2003}b \u{301}c&nbsp;&nbsp;d e\u{301}<!-->f</p><pre><code>\u{A0}x\u{2003}y\u{A0}</code></pre><p>日本&#x20;語</p>"
        #expect(ExportHTML.plainText(html) == "a b c d e\u{301}f\nx\u{2003}y\n日本 語")
    }
}
