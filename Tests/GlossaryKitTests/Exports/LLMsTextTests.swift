import Foundation
import Testing

@testable import GlossaryKit

/// `llms.txt` (llmstxt.org), `llms-full.txt` and the pages as markdown (`llms: pages`): what they say, where their
/// links lead, where the full text is cut, and that `llms: false` writes none.
@Suite struct LLMsTextTests {
    static func site(_ config: String) -> String {
        """
        -- glossary.yml --
        \(config)
        -- content/index.md --
        ---
        title: Home
        description: Where it starts.
        ---
        Mind the [[Kerning]], the [[pen|quill]] and `[[code]]`; \\[[literal]] stays.

        Read [the intro](guide/intro.md#on) or [elsewhere](https://example.org/x.md), and `[code](guide/intro.md#on)` too.
        -- content/guide/intro.md --
        # Intro

        On [[kerning]] and [[nosuchword]].
        -- content/glossary/kerning.md --
        ---
        term: Kerning
        ---
        The space between two *letters*.
        -- .glossary/cache/en/quill.json --

        """
            + ExportTestSite.cacheEntry("quill", body: ExportTestSite.quillBody)
    }

    @Test func llmsTxtMapsThePagesAndTheGlossaryAbsoluteUnderTheAddress() async throws {
        let site = try ExportTestSite(Self.site("title: Type & Co\ndescription: Words about type.\nsite: https://docs.example.org\nbase_url: /docs/"))
        defer { site.remove() }
        let (result, files) = await site.build()
        #expect(result.succeeded, "\(result.errors)")
        #expect(
            files["llms.txt"] == """
                # Type & Co

                > Words about type.

                The full text of every page and every definition is in [llms-full.txt](https://docs.example.org/docs/llms-full.txt).

                ## Pages

                - [Home](https://docs.example.org/docs/): Where it starts.
                - [Intro](https://docs.example.org/docs/guide/intro/)
                - [Guide](https://docs.example.org/docs/guide/)

                ## Glossary

                - [Glossary index](https://docs.example.org/docs/terms/): Every term of the glossary, A to Z.
                - [Kerning](https://docs.example.org/docs/terms/kerning/): The space between two letters.
                - [quill](https://docs.example.org/docs/terms/quill/): A pen made from a feather.

                """)
    }

    @Test func llmsFullHoldsEveryPageAsMarkdownAndEveryDefinition() async throws {
        let site = try ExportTestSite(Self.site("title: T\nbase_url: /docs/"))
        defer { site.remove() }
        let (_, files) = await site.build()
        #expect(
            files["llms-full.txt"] == """
                # T

                ---

                URL: /docs/

                # Home

                Mind the [Kerning](/docs/terms/kerning/), the [pen](/docs/terms/quill/) and `[[code]]`; \\[[literal]] stays.

                Read [the intro](/docs/guide/intro/#on) or [elsewhere](https://example.org/x.md), and `[code](/docs/guide/intro/#on)` too.

                ---

                URL: /docs/guide/intro/

                # Intro

                On [kerning](/docs/terms/kerning/) and nosuchword.

                ---

                # Glossary

                ## Kerning

                URL: /docs/terms/kerning/

                The space between two letters.

                ## quill

                URL: /docs/terms/quill/

                noun
                1. A pen made from a feather.
                2. A spine of a porcupine.
                verb
                1. To pleat.


                """)
        #expect(files["index.md"] == nil, "pages as markdown only with llms: pages")
    }

    @Test func llmsFullIsCutAtItsLimitWithANote() async throws {
        let site = try ExportTestSite(Self.site("title: T\nllms_full_max_bytes: 300"))
        defer { site.remove() }
        let (_, files) = await site.build()
        let full = try #require(files["llms-full.txt"])
        let note = "---\n\nThis file is cut at 300 bytes (llms_full_max_bytes): 1 page and 2 terms are left out. [llms.txt](/llms.txt) links to every one.\n"
        #expect(full.hasSuffix(note), "\(full)")
        #expect(full.utf8.count - note.utf8.count <= 300)
        #expect(full.contains("URL: /\n") && !full.contains("URL: /guide/intro/"))
    }

    @Test func llmsPagesWritesEveryPageAsMarkdownBesideItsHTML() async throws {
        let site = try ExportTestSite(Self.site("title: T\nllms: pages"))
        defer { site.remove() }
        let (_, files) = await site.build()
        #expect(
            files["index.md"]
                == "# Home\n\nMind the [Kerning](/terms/kerning/), the [pen](/terms/quill/) and `[[code]]`; \\[[literal]] stays.\n\n"
                + "Read [the intro](/guide/intro/#on) or [elsewhere](https://example.org/x.md), and `[code](/guide/intro/#on)` too.\n")
        #expect(files["guide/intro/index.md"] == "# Intro\n\nOn [kerning](/terms/kerning/) and nosuchword.\n")
        #expect(files.keys.filter { $0.hasSuffix(".md") }.sorted() == ["guide/intro/index.md", "index.md"])
        // llms.txt links the markdown.
        #expect(files["llms.txt"]?.contains("- [Intro](/guide/intro/index.md)\n") == true)
        #expect(files["llms-full.txt"] != nil)
    }

    @Test func llmsFalseWritesNone() async throws {
        let site = try ExportTestSite(Self.site("title: T\nllms: false"))
        defer { site.remove() }
        let (result, files) = await site.build()
        #expect(result.succeeded && files["index.html"] != nil)
        #expect(files.keys.filter { $0.hasPrefix("llms") || $0.hasSuffix(".md") }.isEmpty)
    }

    @Test func aSiteOwnLLMsTxtIsCopiedInstead() async throws {
        let site = try ExportTestSite(Self.site("title: T") + "-- content/llms.txt --\n# Our own\n")
        defer { site.remove() }
        let (result, files) = await site.build()
        #expect(result.errors.isEmpty)
        #expect(files["llms.txt"] == "# Our own\n")
        #expect(files["llms-full.txt"]?.hasPrefix("# T\n") == true)
    }

    /// A summary is one line of at most `length` characters, plain ASCII or not: runs of white space are one space,
    /// and a cut line ends in `…` without a space before it.
    @Test func oneLineCollapsesWhiteSpaceAndCutsByCharacters() {
        #expect(LLMsText.oneLine("  a\tb \r\n c  ", length: 200) == "a b c")
        #expect(LLMsText.oneLine("  a\u{A0}b\u{2003} é  ", length: 200) == "a b é")
        #expect(LLMsText.oneLine("abc def ghi", length: 5) == "abc…")
        #expect(LLMsText.oneLine("abc déf ghi", length: 5) == "abc…")
        #expect(LLMsText.oneLine("abcdefghij", length: 5) == "abcd…")
        #expect(LLMsText.oneLine("abcdé\u{301}fghij", length: 6) == "abcdé\u{301}…")
        #expect(LLMsText.oneLine("abcde", length: 5) == "abcde")
    }
}
