import Testing

@testable import GlossaryKit

/// Headings with ids and a link to themselves, GitHub alerts as callouts, the text search reads.
@Suite struct MarkdownDocumentBlocksTests {
    static func html(_ markdown: String) -> String {
        MarkdownDocument(markdown: markdown, file: "p.md").html { .init(open: "<a data-term=\"\($0.key)\">", close: "</a>") }
    }

    static func anchor(_ id: String) -> String {
        "<a class=\"anchor\" href=\"#\(id)\" aria-label=\"Link to this section\"></a>"
    }

    @Test func everyHeadingHasAUniqueIdAndALinkToIt() {
        let markdown = "# Guide\n\n## Setup\n\nText.\n\n## Setup\n\n> ### Quoted *setup*\n\nSetext\n------\n"
        let document = MarkdownDocument(markdown: markdown, file: "p.md")
        #expect(
            document.headings == [
                PageHeading(level: 1, text: "Guide", id: "guide"), PageHeading(level: 2, text: "Setup", id: "setup"),
                PageHeading(level: 2, text: "Setup", id: "setup-1"), PageHeading(level: 3, text: "Quoted setup", id: "quoted-setup"),
                PageHeading(level: 2, text: "Setext", id: "setext"),
            ])
        #expect(
            Self.html(markdown) == """
                <h1 id="guide">Guide\(Self.anchor("guide"))</h1>
                <h2 id="setup">Setup\(Self.anchor("setup"))</h2>
                <p>Text.</p>
                <h2 id="setup-1">Setup\(Self.anchor("setup-1"))</h2>
                <blockquote>
                <h3 id="quoted-setup">Quoted <em>setup</em>\(Self.anchor("quoted-setup"))</h3>
                </blockquote>
                <h2 id="setext">Setext\(Self.anchor("setext"))</h2>

                """)
        #expect(document.startsWithTitleHeading)
    }

    @Test func termsAndLinksInHeadingsRenderAsEachRenderDecides() {
        let document = MarkdownDocument(markdown: "## About [[kerning]] and [this](/x/)\n", file: "p.md")
        #expect(document.references.map { "\($0.location.line):\($0.location.column)" } == ["1:10"])
        #expect(document.headings.map(\.id) == ["about-kerning-and-this"])
        let first = document.html(wrap: { _ in .init(open: "<b>", close: "</b>") }, rewrite: { "/docs" + $0 })
        let second = document.html(wrap: { _ in .init(open: "<i>", close: "</i>") })
        #expect(first.hasPrefix(#"<h2 id="about-kerning-and-this">About <b>kerning</b> and <a href="/docs/x/">this</a>"#))
        #expect(second.hasPrefix(#"<h2 id="about-kerning-and-this">About <i>kerning</i> and <a href="/x/">this</a>"#))
    }

    @Test(arguments: Callout.allCases)
    func alertsBecomeLabelledNotes(kind: Callout) {
        let markdown = "> [!\(kind.rawValue.uppercased())]\n> Mind the [[gap]].\n>\n> - and this\n"
        #expect(
            Self.html(markdown) == """
                <div class="callout callout-\(kind.rawValue)" role="note" aria-label="\(kind.label)">
                <p class="callout-title">\(kind.label)</p>
                <p>Mind the <a data-term="gap">gap</a>.</p>
                <ul>
                <li>and this</li>
                </ul>
                </div>

                """)
    }

    @Test func theMarkerIsCaseInsensitiveAndMayStandAlone() {
        #expect(Self.html("> [!Tip]\n") == "<div class=\"callout callout-tip\" role=\"note\" aria-label=\"Tip\">\n<p class=\"callout-title\">Tip</p>\n</div>\n")
        #expect(Self.html("> [!note]  \n>\n> Later.\n").contains("<p class=\"callout-title\">Note</p>\n<p>Later.</p>\n</div>"))
    }

    @Test(arguments: [
        "> [!NOTE] on the same line\n> text\n",
        "> Text first\n> [!NOTE]\n",
        "> *[!NOTE]*\n> text\n",
        "> [!NOTES]\n> text\n",
        "> [!]\n> text\n",
        "[!NOTE]\ntext\n",
        "> \\[!NOTE]\n> text\n",
    ])
    func otherQuotesStayQuotes(markdown: String) {
        #expect(!Self.html(markdown).contains("callout"), "\(markdown.debugDescription)")
    }

    @Test func termsInCalloutsAreFoundWhereTheyAre() {
        let document = MarkdownDocument(markdown: "Intro.\n\n> [!WARNING]\n> Check the [[kerning]].\n", file: "p.md", firstLine: 4)
        #expect(document.references.map { "\($0.location.line):\($0.location.column) \($0.key)" } == ["7:13 kerning"])
    }

    @Test func searchTextIsTheProseWithoutHeadingsCodeBlocksOrHTML() {
        let markdown = "# Title\n\nSome *text* with `code`\nand [a link](/x/).\n\n```swift\nlet hidden = 1\n```\n\n<div>raw</div>\n\n- item [[term]]\n"
        #expect(MarkdownDocument(markdown: markdown, file: "p.md").searchableText() == "Some text with code and a link.\nitem term\n")
    }
}
