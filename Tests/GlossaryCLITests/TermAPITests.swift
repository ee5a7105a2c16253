import Foundation
import Testing

/// `terms/api.json`, the term API other sites read: its exact shape, absolute URLs when the site has an address, and
/// shards past 2,500 terms.
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
                {"version":1,"title":"Test Site","terms":[{"key":"api (software)","word":"API","case_sensitive":true,"sense":"software",\
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
        #expect(json.hasPrefix(#"{"version":1,"title":"Docs","root":"https://example.org/docs/","terms":["#))
        #expect(json.contains(#""url":"https://example.org/docs/terms/kerning/""#))
    }

    @Test func aBigGlossaryIsShardedByFirstCharacter() async throws {
        var text = "-- content/index.md --\nHello.\n"
        for index in 0..<2_501 {
            let word = (index % 2 == 0 ? "alpha" : "beta") + String(index)
            text += "-- content/glossary/t\(index).md --\n---\nterm: \(word)\n" + (index == 1 ? "aliases: [Zeta]\n" : "") + "---\nA word.\n"
        }
        let site = try TestSite(text)
        defer { site.remove() }
        let build = try await site.run(["build", "--offline", "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        #expect(
            site.read("site/terms/api.json") == #"{"version":1,"title":"Test Site","shards":{"a":"api.61.json","b":"api.62.json","z":"api.7a.json"}}"# + "\n")
        let zeta = try #require(site.read("site/terms/api.7a.json"))
        #expect(
            zeta == #"{"version":1,"title":"Test Site","terms":[{"key":"beta1","word":"beta1","aliases":["Zeta"],"url":"beta1/","summary_html":"A word."}]}"#
                + "\n")
        #expect(site.read("site/terms/api.61.json")?.components(separatedBy: #""key":"alpha"#).count == 1_252)
        #expect(site.read("site/terms/api.62.json")?.components(separatedBy: #""key":"beta"#).count == 1_251)
    }
}
