import Foundation
import Testing

/// Word forms end to end, through the binary and the default theme: a form links to its base term's page, which
/// lists it; words of their own keep their own pages.
@Suite struct WordFormSiteTests {
    @Test func aFormLinksToItsBaseAndTheBasePageListsIt() async throws {
        let site = try TestSite(
            """
            -- content/index.md --
            ---
            title: Home
            ---
            Many [[keyboards]], one [[Keyboard]], [[geese]] and [[glasses]].
            """)
        defer { site.remove() }

        let result = try await site.run(["build", "--offline"])

        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("Built 1 pages, 3 terms (0 local, 0 cached, 0 fetched, 3 from WordNet), 0 unresolved in "), "\(result.stderr)")
        let home = try #require(site.read("site/index.html"))
        #expect(home.contains(#"<a class="term" href="/terms/keyboard/" data-term="keyboard">keyboards</a>"#))
        #expect(home.contains(#"<a class="term" href="/terms/goose/" data-term="goose">geese</a>"#))
        #expect(home.contains(#"<a class="term" href="/terms/glasses/" data-term="glasses">glasses</a>"#))
        let keyboard = try #require(site.read("site/terms/keyboard/index.html"))
        #expect(keyboard.contains(#"<p class="forms-used">Forms used: <span class="sep-item">keyboards</span></p>"#))
        #expect(keyboard.contains(#"<ul><li><a href="/">Home</a></li></ul>"#), "used on the page, once")
        #expect(keyboard.contains("· WordNet entry"))
        #expect(!site.exists("site/terms/keyboards") && !site.exists("site/terms/geese"), "no page for a form")
        let json = try #require(site.read("site/terms/index.json"))
        #expect(!json.contains(#""key":"keyboards""#) && json.contains(#""key":"keyboard""#))
    }
}
