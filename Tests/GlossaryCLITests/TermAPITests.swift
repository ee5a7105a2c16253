import Foundation
import Testing

/// `terms/api.json`, the term API other sites read: its exact shape and absolute URLs when the site has an address (its
/// shards: `TermShardsTests`).
@Suite struct TermAPITests {
    static let entries = """
        -- content/index.md --
        About [[kerning]], [[kerned]] and [[API]].
        -- content/glossary/kerning.md --
        ---
        term: Kerning
        aliases: [letter spacing]
        part_of_speech: noun
        phonetic: /ˈkɜːnɪŋ/
        ---
        The *space* between <b>letters</b>; [see](javascript:alert(1)) and [this](https://example.org/a?b=1&c=2).
        -- content/glossary/api.md --
        ---
        term: API
        case_sensitive: true
        sense: software
        ---
        An "interface".
        """

    @Test func listsEveryTermWithItsSpellingsURLAndSafeSummary() async throws {
        let site = try TestSite(Self.entries)
        defer { site.remove() }
        let build = try await site.run(["build", "--offline", "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        let json = try #require(site.read("site/terms/api.json"))
        #expect(
            json == """
                {"version":2,"title":"Test Site","terms":[{"key":"api (software)","word":"API","case_sensitive":true,"sense":"software",\
                "url":"api-software-87dd5d6d/","summary_html":"An &quot;interface&quot;."},\
                {"key":"kern","word":"kern","forms":["kerned"],"part_of_speech":"noun","url":"kern/",\
                "summary":"United States composer of musical comedies (1885-1945)"},\
                {"key":"kerning","word":"Kerning","aliases":["letter spacing"],"part_of_speech":"noun","phonetic":"/ˈkɜːnɪŋ/",\
                "url":"kerning/","summary_html":"The <em>space</em> between letters; <a>see</a> and <a href=\\"https://example.org/a?b=1&amp;c=2\\">this</a>."}]}

                """)
    }

    @Test func termURLsAreAbsoluteWhenTheSiteHasAnAddress() async throws {
        let site = try TestSite(Self.entries + "\n-- glossary.yml --\ntitle: Docs\nbase_url: /docs/\nsite: https://example.org\n")
        defer { site.remove() }
        try await site.run(["build", "--offline", "--quiet"])
        let json = try #require(site.read("site/terms/api.json"))
        #expect(json.hasPrefix(#"{"version":2,"title":"Docs","root":"https://example.org/docs/","terms":["#))
        #expect(json.contains(#""url":"https://example.org/docs/terms/kerning/""#))
    }
}
