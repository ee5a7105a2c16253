import Foundation
import TestSupport
import Testing

@testable import GlossaryKit

/// Headings with ids and a link to themselves, GitHub alerts as callouts, the text search reads.
@Suite struct MarkdownDocumentBlocksTests {
    static func html(_ markdown: String) -> String {
        MarkdownDocument(markdown: markdown, file: "p.md").html { .init(open: "<a data-term=\"\($0.key)\">", close: "</a>") }
    }

    static func anchor(_ id: String) -> String {
        "<a class=\"anchor\" href=\"#\(id)\" aria-labelledby=\"\(id)\"></a>"
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

    /// Fuzzer input (Fuzz/corpus/markdown/combining-heading.md): a heading whose text starts with a combining mark
    /// (U+0619) vanished, because `<h1>` and the mark were one Character, not the prefix `<h1>`.
    @Test(arguments: ["\u{0619}[[g]]\n=", "# \u{0619}[[g]]\n", "## \u{0301}x\n"])
    func aHeadingStartingWithACombiningMarkKeepsItsText(markdown: String) {
        let document = MarkdownDocument(markdown: markdown, file: "p.md")
        let html = Self.html(markdown)
        let heading = document.headings.first
        #expect(html.utf8.starts(with: "<h\(heading?.level ?? 0) id=\"\(heading?.id ?? "")\">".utf8), "\(html.debugDescription)")
        let text = markdown.unicodeScalars.drop { $0 == "#" || $0 == " " }.prefix { $0 != "[" && $0 != "\n" }
        #expect(html.contains(String(String.UnicodeScalarView(text))), "the heading's own text: \(html.debugDescription)")
        #expect(html.contains(Self.anchor(heading?.id ?? "")))
    }

    @Test func aFirstParagraphStartingWithACombiningMarkLosesOnlyItsTags() {
        let document = MarkdownDocument(markdown: "\u{0619}mark and *more*\n", file: "p.md")
        #expect(document.firstParagraphHTML() == "\u{0619}mark and <em>more</em>")
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
        // The escape is looked for on the marker's line as cmark counts lines, CR LF and lone CR ending them too.
        "a\r\n\r\n> \\[!NOTE]\r\n> text\r\n",
        "a\r\r> \\[!NOTE]\r> text\r",
    ])
    func otherQuotesStayQuotes(markdown: String) {
        #expect(!Self.html(markdown).contains("callout"), "\(markdown.debugDescription)")
    }

    @Test func calloutsAndHeadingsInTheBlocksAfterATableAreMadeToo() {
        // cmark reads each as one paragraph (a setext heading); cmark-gfm ends the table at the indented line, the
        // ordered list, and parses the rest as blocks of their own.
        let document = MarkdownDocument(markdown: "# Intro\n\n| a |\n| - |\n    code\nb\n---\n\n## End\n", file: "p.md")
        #expect(document.headings.map(\.id) == ["intro", "b", "end"])
        #expect(Self.html("| a |\n| - |\n    code\nb\n---\n").contains("<h2 id=\"b\">b\(Self.anchor("b"))</h2>"))
        #expect(Self.html("| a |\n| - |\n2. > [!NOTE]\n").contains("<li>\n<div class=\"callout callout-note\""))
        #expect(Self.html("a\r\n\r\n> [!NOTE]\r\n> text\r\n").contains("<div class=\"callout callout-note\""))
    }

    @Test func termsInCalloutsAreFoundWhereTheyAre() {
        let document = MarkdownDocument(markdown: "Intro.\n\n> [!WARNING]\n> Check the [[kerning]].\n", file: "p.md", firstLine: 4)
        #expect(document.references.map { "\($0.location.line):\($0.location.column) \($0.key)" } == ["7:13 kerning"])
    }

    @Test func searchTextIsTheProseWithoutHeadingsCodeBlocksOrHTML() {
        let markdown = "# Title\n\nSome *text* with `code`\nand [a link](/x/).\n\n```swift\nlet hidden = 1\n```\n\n<div>raw</div>\n\n- item [[term]]\n"
        #expect(MarkdownDocument(markdown: markdown, file: "p.md").searchableText() == "Some text with code and a link.\nitem term\n")
    }

    @Test func searchTextIsTheStringItWasWhenMadeNodeByNode() {
        let pieces = [
            "word", " ", "*em*", "`code`", "\n", "\n\n", "&#13;", "&#10;", "&#13;\n\n", "é", "e\u{301}", "  \n", "\\\n", "> q\n", "- i\n",
            "<b>h</b>", "[l](/u)", "\r\n",
        ]
        var random = SeededRandom(seed: 0x5ea)
        for _ in 0..<1500 {
            var markdown = (0..<Int(random.next() % 30)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            let root = CMark.parse(&markdown, options: .default)
            defer { root.free() }
            // Custom blocks (table rows, callouts) around some blocks, custom inlines (cells, terms) around some inlines.
            var nodes: [CMarkNode] = []
            for (node, _) in root.events where node != root && !nodes.contains(node) { nodes.append(node) }
            for node in nodes where random.next() % 3 == 0 {
                let wrapper = CMarkNode.make(node.kind.isBlock ? .customBlock : .customInline)
                wrapper.insert(before: node)
                node.unlink()
                wrapper.appendChild(node)
            }
            #expect(PlainText.searchable([root]) == Self.referenceSearchableText(of: root), "\(markdown.debugDescription)")
        }
    }

    /// The search text as it was made before: a string appended to node by node.
    static func referenceSearchableText(of root: CMarkNode) -> String {
        var text = ""
        for (node, entering) in root.events {
            switch node.kind {
            case .text, .code:
                if entering, let literal = node.literal { text += literal }
            case .softBreak, .lineBreak:
                if entering { text += " " }
            case .paragraph:
                if !entering { text += "\n" }
            case .customBlock:
                if !entering, !text.isEmpty, !text.hasSuffix("\n") { text += "\n" }
            case .customInline:
                if !entering, node.parent?.kind == .customBlock { text += " " }
            default:
                break
            }
        }
        return text
    }

    /// The block walk visits exactly the blocks cmark's iterator enters, in the same order, and stops when told.
    @Test func theBlockWalkVisitsEveryBlockInDocumentOrder() {
        let markdown = """
            # Title

            Para *one* [[x]].

            > quoted
            >
            > - item **a**
            >   1. inner
            >
            >   ```
            >   code
            >   ```

            | a | b |
            |---|---|
            | 1 | 2 |

            <div>html</div>

            ***

            - last `item`
            """
        var source = markdown
        let root = CMark.parse(&source, options: MarkdownDocument.options)
        defer { root.free() }
        let entered = root.events.filter { $0.entering && $0.node.kind.isBlock }.map(\.node)
        var walked: [CMarkNode] = []
        root.forEachBlock { node, _ in
            walked.append(node)
            return true
        }
        #expect(walked == entered && walked.count == 18)
        var firstFour: [CMarkNode] = []
        root.forEachBlock { node, _ in
            firstFour.append(node)
            return firstFour.count < 4
        }
        #expect(firstFour == Array(entered.prefix(4)))
    }

    @Test func theFirstParagraphIsFoundInsideContainers() {
        let document = MarkdownDocument(markdown: "# Title\n\n> - **In** a [[quote]]\n\nLater.\n", file: "p.md")
        #expect(document.firstParagraphText() == "In a quote")
        #expect(document.firstParagraphHTML() == "<strong>In</strong> a quote")
    }

    /// A page big enough for its search field to be counted in parallel runs of blocks has the field its whole text
    /// makes: tables, callouts, lists, code and headings at the runs' edges included.
    @Test func aBigPagesSearchFieldIsTheOneItsWholeTextMakes() {
        let blocks = [
            "Para [[term]] *one* `code span` word\u{00A0}joined\n", "| a | b |\n|---|---|\n| cell [[x]] | two |\n",
            "> [!NOTE]\n> Callout *text*\n", "- item one\n- item `two`\n  continued\n", "```\ncode block\n```\n",
            "## Heading [[y]]\n", "<div>raw</div>\n", "Setext\n---\n", "Line with hard  \nbreak and Σ\n",
        ]
        var random = SeededRandom(seed: 0x5ea4c)
        var markdown = ""
        while markdown.utf8.count < 100_000 {
            markdown += blocks[Int(random.next() % UInt64(blocks.count))] + "word\(random.next() % 5000)\n\n"
        }
        let document = MarkdownDocument(markdown: markdown, file: "big.md")
        let field = document.searchTerms(parallelFrom: 50_000)
        #expect(field == SearchTerms(text: document.searchableText()))
        #expect(field.terms.count > 1000 && field.terms.contains("callout") && field.terms.contains("cell"))
    }

    /// A big page rendered in runs of blocks on every core is the page rendered whole, byte for byte: headings with
    /// their anchors, tables, callouts, lists, code, raw HTML and thematic breaks at the runs' edges, terms and links
    /// as the render decides, whatever the first and last blocks are; and again when rendered a second time.
    @Test func aBigPageRenderedInParallelIsThePageRenderedWhole() {
        let blocks = [
            "Para [[term]] *one* [a link](/x) `code`\n", "| a | b |\n|---|---|\n| cell [[x]] | two |\n", "> [!NOTE]\n> Callout *text*\n",
            "- item one\n- item `two`\n\n  loose\n", "1. first\n2. second\n", "```\ncode block\n```\n", "## Heading [[y]]\n",
            "<div>raw</div>\n", "Setext\n---\n", "***\n", "> quoted\n> > deeper\n", "    indented code\n", "Line with hard  \nbreak\n",
        ]
        var random = SeededRandom(seed: 0x7e4d)
        for round in 0..<3 {
            var markdown = round == 1 ? "# Title\n\n" : ""
            while markdown.utf8.count < 60_000 {
                markdown += blocks[Int(random.next() % UInt64(blocks.count))] + (random.next() % 3 == 0 ? "\n" : "\n\n")
            }
            let document = MarkdownDocument(markdown: markdown, file: "big.md")
            let wrappers = document.references.map { MarkdownDocument.Wrapper(open: "<a data-term=\"\($0.key)\">", close: "</a>") }
            let destinations = document.links.map { "/base" + $0.destination }
            let whole = document.renderHTML(wrappers: wrappers, destinations: destinations, parallelFrom: .max)
            let parallel = document.renderHTML(wrappers: wrappers, destinations: destinations, parallelFrom: 0)
            #expect(parallel == whole, "round \(round)")
            #expect(document.renderHTML(wrappers: wrappers, destinations: destinations, parallelFrom: 0) == whole)
            #expect(whole.contains("<table>") && whole.contains("callout") && whole.contains("class=\"anchor\"") && whole.contains("<hr />"))
        }
    }

    // MARK: Ids a heading chooses

    @Test func aHeadingEndingWithAnIdAttributeTakesThatIdAndShowsItsTextWithout() {
        let markdown = """
            ## Owners and dependents {#owners-dependents}

            Title of [[kerning]] {#kern.v1:b_c}
            ====

            ## Plain

            ## Escaped \\{#kept}

            ## Glued{#not-an-id}

            ## `code {#in-code}`
            """
        let document = MarkdownDocument(markdown: markdown, file: "p.md")
        #expect(
            document.headings == [
                PageHeading(level: 2, text: "Owners and dependents", id: "owners-dependents"),
                PageHeading(level: 1, text: "Title of kerning", id: "kern.v1:b_c"),
                PageHeading(level: 2, text: "Plain", id: "plain"),
                PageHeading(level: 2, text: "Escaped {#kept}", id: "escaped-kept"),
                PageHeading(level: 2, text: "Glued{#not-an-id}", id: "gluednot-an-id"),
                PageHeading(level: 2, text: "code {#in-code}", id: "code-in-code"),
            ])
        #expect(document.diagnostics.isEmpty, "\(document.diagnostics)")
        #expect(document.firstHeading == "Owners and dependents")
        let html = Self.html(markdown)
        #expect(html.hasPrefix("<h2 id=\"owners-dependents\">Owners and dependents\(Self.anchor("owners-dependents"))</h2>\n"), "\(html)")
        #expect(html.contains("<h1 id=\"kern.v1:b_c\">Title of <a data-term=\"kerning\">kerning</a>\(Self.anchor("kern.v1:b_c"))</h1>"), "\(html)")
        #expect(!html.contains("{#owners") && !html.contains("{#kern"))
    }

    @Test func anIdThatIsNoIdOrIsTakenIsAWarningAtItsBrace() {
        let markdown = "## Install\n\n## Setup {#install}\n\n## Two words {#a b}\n\n## Main {#main}\n\n## Quote {#a\"b}\n"
        let document = MarkdownDocument(markdown: markdown, file: "p.md")
        #expect(document.headings.map(\.id) == ["install", "install-1", "two-words", "main-1", "quote"])
        #expect(document.headings.map(\.text) == ["Install", "Setup", "Two words", "Main", "Quote"])
        #expect(
            document.diagnostics.map(\.description) == [
                "p.md:3:10: warning: heading id '{#install}' can't be used: another heading of the page (or the page itself) has that id; the heading's id is 'install-1' [heading-id]",
                "p.md:5:14: warning: heading id '{#a b}' can't be used: an id is letters, digits, '-', '_', ':' and '.'; the heading's id is 'two-words' [heading-id]",
                "p.md:7:9: warning: heading id '{#main}' can't be used: another heading of the page (or the page itself) has that id; the heading's id is 'main-1' [heading-id]",
                "p.md:9:10: warning: heading id '{#a\"b}' can't be used: an id is letters, digits, '-', '_', ':' and '.'; the heading's id is 'quote' [heading-id]",
            ])
    }

    @Test func rawHTMLInsideAReferenceSaysSoInsteadOfUnclosed() {
        let document = MarkdownDocument(markdown: "See [[<img src=x onerror=alert(1)>]] and [[`code`]] and [[open\n", file: "p.md")
        #expect(
            document.diagnostics.map(\.description) == [
                "p.md:1:5: warning: term reference '[[<img src=x onerror=alert(1)>]]' holds markup; a reference names a plain word ([[word]] or [[shown text|word]]) [term-markup]",
                "p.md:1:42: warning: term reference '[[`code`]]' holds markup; a reference names a plain word ([[word]] or [[shown text|word]]) [term-markup]",
                "p.md:1:57: warning: '[[' is not closed by ']]' on the same line; write '\\[[' for a literal '[[' [unclosed-term]",
            ])
    }
}
