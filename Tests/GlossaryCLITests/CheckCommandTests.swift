import Foundation
import Testing

/// `glossary check` for CI: unused entries are warnings that fail it only with `--strict`; every format prints them.
@Suite struct CheckCommandTests {
    static let site = """
        -- content/index.md --
        About [[kerning]].
        -- content/glossary/kerning.md --
        ---
        term: Kerning
        ---
        Space.
        -- content/glossary/widow.md --
        ---
        term: Widow
        ---
        A lone line.
        """

    @Test func unusedEntriesWarnWithoutFailingTheCheck() async throws {
        let site = try TestSite(Self.site)
        defer { site.remove() }
        let result = try await site.run(["check", "--offline", "--no-source-lines"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr == """
                content/glossary/widow.md:2:7: warning: no page uses 'Widow' [unused-term]
                Check passed with 1 warning: 1 pages, 2 terms, every reference resolved, every internal link found

                """)
        #expect(!site.exists("site"), "check writes nothing")
    }

    @Test func strictFailsOnThem() async throws {
        let site = try TestSite(Self.site)
        defer { site.remove() }
        let result = try await site.run(["check", "--offline", "--strict", "--no-source-lines"])
        #expect(result.status == 1)
        #expect(
            result.stderr == """
                content/glossary/widow.md:2:7: error: no page uses 'Widow' [unused-term]
                Check failed: 1 unused term

                """)
    }

    @Test func jsonAndGitHubFormatsCarryThem() async throws {
        let site = try TestSite(Self.site)
        defer { site.remove() }
        let json = try await site.run(["check", "--offline", "--format", "json"])
        #expect(json.status == 0)
        #expect(
            json.stdout
                == #"{"code":"unused-term","column":7,"file":"content/glossary/widow.md","line":2,"message":"no page uses 'Widow'","notes":[],"severity":"warning"}"#
                + "\n")
        let github = try await site.run(["check", "--offline", "--format", "github"])
        #expect(github.stdout == "::warning file=content/glossary/widow.md,line=2,col=7,title=unused-term::no page uses 'Widow'\n")
    }

    @Test func aCleanSiteHasNoProblems() async throws {
        let site = try TestSite("-- content/index.md --\n[[Kerning]]\n-- content/glossary/kerning.md --\n---\nterm: Kerning\n---\nSpace.\n")
        defer { site.remove() }
        let result = try await site.run(["check", "--offline", "--strict"])
        #expect(result.status == 0)
        #expect(result.stderr == "No problems: 1 pages, 1 terms, every reference resolved, every internal link found\n")
    }

    @Test func aBuildWritesTheExportsWithAbsoluteURLsFromBaseURL() async throws {
        let site = try TestSite(Self.site)
        defer { site.remove() }
        let result = try await site.run(["build", "--offline", "--base-url", "https://example.org/docs/"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(site.read("site/robots.txt") == "User-agent: *\nAllow: /\n\nSitemap: https://example.org/docs/sitemap.xml\n")
        #expect(site.read("site/sitemap.xml")?.contains("<url><loc>https://example.org/docs/terms/widow/</loc></url>") == true)
        let json = try #require(site.read("site/glossary.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let terms = try #require(object["terms"] as? [[String: Any]])
        #expect(terms.map { $0["url"] as? String } == ["https://example.org/docs/terms/kerning/", "https://example.org/docs/terms/widow/"])
        #expect(site.read("site/glossary.csv")?.hasPrefix("\"key\",\"word\",") == true)
        #expect(site.read("site/glossary.tbx")?.contains("<conceptEntry id=\"term-widow\">") == true)
    }
}
