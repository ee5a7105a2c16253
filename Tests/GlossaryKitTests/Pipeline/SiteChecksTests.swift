import Foundation
import Testing

@testable import GlossaryKit

/// What `glossary check` looks for beyond a build: team entries no page uses; and the links every build checks,
/// wherever they are written (pages, glossary entries, `see_also:`), as `.md` files or raw paths.
@Suite struct SiteChecksTests {
    func check(_ text: String) async throws -> [String] {
        let site = try ExportTestSite(text)
        defer { site.remove() }
        return await SiteBuilder(options: site.options).check().diagnostics.map(\.description)
    }

    @Test func anEntryNoPageUsesIsReportedAtItsTerm() async throws {
        let diagnostics = try await check(
            """
            -- content/index.md --
            ---
            terms: [tracking]
            ---
            About [[line spacing]].
            -- content/glossary/leading.md --
            ---
            term: Leading
            aliases: [line spacing]
            ---
            Space between lines; see [[kerning]].
            -- content/glossary/kerning.md --
            ---
            term: Kerning
            ---
            Used only by another entry.
            -- content/glossary/tracking.md --
            ---
            term: Tracking
            ---
            Declared in front matter.
            -- content/glossary/widow.md --
            ---
            draft: false
            term: Widow
            ---
            Unused.
            -- content/draft.md --
            ---
            draft: true
            ---
            A draft about [[widow]] doesn't count.
            """)
        #expect(
            diagnostics == [
                "content/glossary/kerning.md:2:7: warning: no page uses 'Kerning' [unused-term]",
                "content/glossary/widow.md:3:7: warning: no page uses 'Widow' [unused-term]",
            ])
    }

    @Test func aBuildDoesNotWarnAboutUnusedEntries() async throws {
        let site = try ExportTestSite("-- content/index.md --\nHi.\n-- content/glossary/a.md --\n---\nterm: A\n---\nA.\n")
        defer { site.remove() }
        let built = await SiteBuilder(options: site.options).build(into: MemorySink())
        #expect(built.diagnostics == [])
    }

    @Test func linksInEntriesResolveFromTheirTermPage() async throws {
        let diagnostics = try await check(
            """
            -- glossary.yml --
            title: T
            base_url: /docs/
            -- content/index.md --
            [[Kerning]] [[Leading]]
            -- content/guide/intro.md --
            Intro.
            -- content/glossary/kerning.md --
            ---
            term: Kerning
            ---
            Like [leading](../leading/), the [intro](../../guide/intro/), [its file](../guide/intro.md), [the index](../), [raw](/guide/intro/).
            Broken: [a sibling](../nosuch/), [a file](../guide/nosuch.md), [raw](/guide/nosuch/), [an entry's own URL](/glossary/kerning/).
            -- content/glossary/leading.md --
            ---
            term: Leading
            ---
            Lines.
            """)
        #expect(
            diagnostics == [
                "content/glossary/kerning.md:5:21: warning: link to '../nosuch/' leads to no page or file of the site [broken-link]",
                "content/glossary/kerning.md:5:43: warning: link to '../guide/nosuch.md' leads to no page or file of the site [broken-link]",
                "content/glossary/kerning.md:5:70: warning: link to '/guide/nosuch/' leads to no page or file of the site [broken-link]",
                "content/glossary/kerning.md:5:108: warning: link to '/glossary/kerning/' leads to no page or file of the site [broken-link]",
            ])
    }

    @Test func rawPathsToGeneratedFilesAndStaticFilesAreFound() async throws {
        let diagnostics = try await check(
            """
            -- glossary.yml --
            title: T
            base_url: /docs/
            -- content/index.md --
            [data](/glossary.json) [tbx](glossary.tbx) [csv](./glossary.csv) [map](/sitemap.xml) [robots](/robots.txt) [terms](/terms/)
            [a term](/terms/kerning/) [search](/search/) [css](/assets/glossary.css) [image](/images/a.svg) ![image](images/a.svg)
            [no term](/terms/nosuch/) [no image](images/b.svg) [with base](/docs/terms/kerning/) [query](/terms/kerning/?x#y) [[kerning]]
            -- content/images/a.svg --
            <svg/>
            -- content/glossary/kerning.md --
            ---
            term: Kerning
            ---
            Space.
            """)
        #expect(
            diagnostics == [
                "content/index.md:3:11: warning: link to '/terms/nosuch/' leads to no page or file of the site [broken-link]",
                "content/index.md:3:38: warning: link to 'images/b.svg' leads to no page or file of the site [broken-link]",
                // Site-absolute links are below the site's root: base_url is added, so it must not be written.
                "content/index.md:3:64: warning: link to '/docs/terms/kerning/' leads to no page or file of the site [broken-link]",
            ])
    }

    @Test func seeAlsoLinksAreLinkedAndChecked() async throws {
        let site = try ExportTestSite(
            """
            -- glossary.yml --
            title: T
            base_url: /docs/
            -- content/index.md --
            [[Kerning]]
            -- content/guide/intro.md --
            ---
            title: The introduction
            ---
            Intro.
            -- content/glossary/kerning.md --
            ---
            term: Kerning
            see_also: [leading, ../guide/intro.md, /guide/intro/, ../leading/, https://example.org/kern, QZX/IP, /nowhere/, ../nosuch.md]
            ---
            Space.
            -- content/glossary/leading.md --
            ---
            term: Leading
            ---
            Lines.
            """)
        defer { site.remove() }
        let checked = await SiteBuilder(options: site.options).check()
        #expect(
            checked.diagnostics.map(\.description) == [
                "content/glossary/kerning.md:3:11: warning: see_also names 'QZX/IP', which has no definition [unknown-term]",
                "content/glossary/kerning.md:3:102: warning: link to '/nowhere/' leads to no page or file of the site [broken-link]",
                "content/glossary/kerning.md:3:113: warning: link to '../nosuch.md' leads to no page or file of the site [broken-link]",
                "content/glossary/leading.md:2:7: warning: no page uses 'Leading' [unused-term]",
            ])
        let (_, files) = await site.build()
        let page = try #require(files["terms/kerning/index.html"])
        let seeAlso = try #require(page.components(separatedBy: "<section class=\"see-also\"").last)
        #expect(
            seeAlso.contains(
                "<li><a href=\"/docs/terms/leading/\">leading</a></li><li><a href=\"/docs/guide/intro/\">The introduction</a></li>"
                    + "<li><a href=\"/docs/guide/intro/\">The introduction</a></li><li><a href=\"../leading/\">Leading</a></li>"
                    + "<li><a href=\"https://example.org/kern\">https://example.org/kern</a></li><li>QZX/IP</li>"
                    + "<li><a href=\"/docs/nowhere/\">/nowhere/</a></li><li><a href=\"../nosuch.md\">../nosuch.md</a></li>"))
    }

    @Test(arguments: [
        ("/guide/", true), ("./a", true), ("../a/", true), ("intro.md", true), ("../intro.md#part", true), ("https://x.example", true),
        ("HTTP://x.example", true), ("mailto:a@b.example", true), ("kerning", false), ("QZX/IP", false), ("re:Invent", false),
        ("read me.md", false), ("A/B testing", false),
    ])
    func whatASeeAlsoLinkIs(item: String, isLink: Bool) {
        #expect(SeeAlso.isLink(item) == isLink)
    }
}
