import Testing

@testable import GlossaryKit

/// Summaries for other sites keep only inline markup and safe links, and are cut short.
@Suite struct SummarySanitizerTests {
    @Test(arguments: [
        ("The <em>space</em> between <strong>letters</strong>.", "The <em>space</em> between <strong>letters</strong>."),
        (#"See <a href="https://example.org/a?b=1&amp;c=2" title="t">this</a>."#, #"See <a href="https://example.org/a?b=1&amp;c=2">this</a>."#),
        (#"A <a href="../kerning/">relative</a> link."#, #"A <a href="../kerning/">relative</a> link."#),
        (#"<a href="javascript:alert(1)">bad</a> and <a href="JaVa&#x09;script:x">worse</a>"#, "<a>bad</a> and <a>worse</a>"),
        (#"<a href=" javascript:alert(1)">spaced</a>"#, "<a>spaced</a>"),
        ("<img src=x onerror=alert(1)>Text<script>alert(2)</script> after", "Text after"),
        ("<style>p{}</style><b onclick=\"x\">bold</b> <code>&lt;tag&gt;</code>", "bold <code>&lt;tag&gt;</code>"),
        ("Line<br />break <em>unclosed", "Line<br />break <em>unclosed</em>"),
        ("<svg><a href=\"https://x\">in svg</a></svg>kept", "kept"),
    ])
    func keepsOnlyTheAllowList(input: String, expected: String) {
        #expect(SummarySanitizer.html(input, limit: 200) == expected)
    }

    @Test func cutsTextAfterTheLimitAndClosesWhatIsOpen() {
        #expect(SummarySanitizer.html("<em>abcdef</em>ghi", limit: 4) == "<em>abcd…</em>")
        #expect(SummarySanitizer.html("a &amp; b", limit: 3) == "a &amp;…")
        #expect(SummarySanitizer.html(String(repeating: "x", count: 1_000_000), limit: 200).count == 201)
        #expect(SummarySanitizer.plain("one two three", limit: 9) == "one two…")
        #expect(SummarySanitizer.plain("short", limit: 9) == "short")
    }

    /// Text without markup is kept as it is while it fits (counted in characters, not bytes), and cut as any other.
    @Test func plainTextIsKeptWhileItFits() {
        #expect(SummarySanitizer.html("  plain é 日本 text ", limit: 200) == "plain é 日本 text")
        #expect(SummarySanitizer.html("abcd", limit: 4) == "abcd")
        #expect(SummarySanitizer.html("abcde", limit: 4) == "abcd…")
        #expect(SummarySanitizer.html("ééééé", limit: 5) == "ééééé")
        #expect(SummarySanitizer.html("e\u{301}e\u{301}e\u{301}", limit: 3) == "e\u{301}e\u{301}e\u{301}")
        #expect(SummarySanitizer.html("ééééé", limit: 4) == "éééé…")
        #expect(SummarySanitizer.html("a > b", limit: 200) == "a &gt; b", "a stray `>` is escaped")
    }
}
