import Foundation
import Testing

@testable import GlossaryKit

/// Folders named with what a URL can't hold as it is (`#`, `%`, `?`, a space, an encoded-looking `%2e`, non-ASCII):
/// every URL the build writes to them is percent-encoded once from the name, whichever writer writes it, and a
/// markdown link that encodes the name leads to the page.
@Suite struct EscapedPathBuildTests {
    static let site = """
        -- glossary.yml --
        title: T
        site: https://example.org
        -- content/index.md --
        ---
        title: Home
        ---
        Home.
        -- content/C#/index.md --
        ---
        title: C Sharp
        weight: 1
        ---
        About [[kerning]].
        -- content/C#/intro.md --
        ---
        title: C Intro
        ---
        Intro.
        -- content/C#/next.md --
        ---
        title: C Next
        ---
        Next.
        -- content/100%/full.md --
        ---
        title: Full
        weight: 2
        ---
        Full of [[kerning]].
        -- content/a b/index.md --
        ---
        title: A B
        weight: 3
        ---
        Spaced.
        -- content/pct%2e%2e/index.md --
        ---
        title: Dots
        weight: 4
        ---
        Not a traversal.
        -- content/?q/index.md --
        ---
        title: Query
        weight: 5
        ---
        Not a query.
        -- content/é/index.md --
        ---
        title: E acute
        weight: 6
        ---
        Accented [[kerning]].
        -- content/notes/links.md --
        ---
        title: Links
        weight: 7
        ---
        [escaped](../C%23/intro.md) [spaced](<../a b/index.md>) [percent](../100%25/full.md#top) [accent](../%C3%A9/index.md)
        [dots](../pct%252e%252e/index.md) [absolute](/%3Fq/) [raw](../C#/intro.md)
        -- content/glossary/kerning.md --
        ---
        term: Kerning
        ---
        Space between letters.
        """

    static func build() async throws -> (diagnostics: [String], files: [String: String]) {
        let site = try ExportTestSite(Self.site)
        defer { site.remove() }
        let (result, files) = await site.build()
        return (result.diagnostics.map(\.description), files)
    }

    /// The `href`s in the first element of `html` that starts with `start`, up to `end`, in order.
    static func hrefs(_ html: String?, from start: String, to end: String) -> [String] {
        guard let html, let open = html.range(of: start), let close = html[open.upperBound...].range(of: end) else { return [] }
        return html[open.lowerBound..<close.lowerBound].components(separatedBy: " href=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    @Test func theSidebarBreadcrumbsAndPagerLinkToEncodedPaths() async throws {
        let (_, files) = try await Self.build()
        let intro = files["C#/intro/index.html"]
        #expect(
            Self.hrefs(intro, from: "<nav class=\"sidebar\"", to: "</nav>") == [
                "/C%23/", "/C%23/intro/", "/C%23/next/", "/a%20b/", "/pct%252e%252e/", "/%3Fq/", "/%C3%A9/", "/100%25/", "/notes/",
            ])
        #expect(Self.hrefs(intro, from: "<nav class=\"breadcrumbs\"", to: "</nav>") == ["/", "/C%23/"])
        #expect(Self.hrefs(intro, from: "<nav class=\"pager\"", to: "</nav>") == ["/C%23/", "/C%23/next/"])
        #expect(Self.hrefs(files["a b/index.html"], from: "<nav class=\"pager\"", to: "</nav>") == ["/C%23/next/", "/pct%252e%252e/"])
        #expect(Self.hrefs(files["?q/index.html"], from: "<nav class=\"pager\"", to: "</nav>") == ["/pct%252e%252e/", "/%C3%A9/"])
        #expect(
            Self.hrefs(files["é/index.html"], from: "<head>", to: "</head>").filter { $0.hasPrefix("https:") } == ["https://example.org/%C3%A9/"],
            "the canonical link")
    }

    @Test func encodedMarkdownLinksLeadToThePageAndARawHashIsAFragment() async throws {
        let (diagnostics, files) = try await Self.build()
        #expect(
            Self.hrefs(files["notes/links/index.html"], from: "<p>", to: "</p>") == [
                "/C%23/intro/", "/a%20b/", "/100%25/full/#top", "/%C3%A9/", "/pct%252e%252e/", "/%3Fq/", "../C#/intro.md",
            ])
        // `#` starts the fragment: `../C#/intro.md` is a link to `../C`, which is no page.
        #expect(
            diagnostics == [
                "content/notes/links.md:6:60: warning: link to '../C#/intro.md' leads to no page or file of the site [broken-link]"
            ])
    }

    @Test func termLinksAndUsedOnLinksAreEncoded() async throws {
        let (_, files) = try await Self.build()
        #expect(
            Self.hrefs(files["terms/kerning/index.html"], from: "<section class=\"used-on\"", to: "</section>") == [
                "/100%25/full/", "/C%23/", "/%C3%A9/",
            ])
        #expect(Self.hrefs(files["100%/full/index.html"], from: "<p>Full of", to: "</p>") == ["/terms/kerning/"])
    }

    @Test func theSearchIndexHoldsEncodedPathsBelowTheRoot() async throws {
        let (_, files) = try await Self.build()
        let documents = try #require(files["search/docs/0.json"])
        let urls = documents.components(separatedBy: "\",\"").compactMap { part -> String? in
            part.hasSuffix("/") || part.isEmpty ? part : nil
        }
        #expect(
            urls == [
                "100%25/full/", "%3Fq/", "C%23/", "C%23/intro/", "C%23/next/", "a%20b/", "", "notes/links/", "pct%252e%252e/", "%C3%A9/",
                "100%25/", "notes/", "terms/kerning/",
            ])
    }

    @Test func theSitemapAndExportsEncodeEveryPathOnce() async throws {
        let (_, files) = try await Self.build()
        let sitemap = try #require(files["sitemap.xml"])
        #expect(
            sitemap.components(separatedBy: "<loc>").dropFirst().map { String($0.prefix { $0 != "<" }) } == [
                "https://example.org/100%25/full/", "https://example.org/%3Fq/", "https://example.org/C%23/", "https://example.org/C%23/intro/",
                "https://example.org/C%23/next/", "https://example.org/a%20b/", "https://example.org/", "https://example.org/notes/links/",
                "https://example.org/pct%252e%252e/", "https://example.org/%C3%A9/", "https://example.org/100%25/", "https://example.org/notes/",
                "https://example.org/terms/", "https://example.org/terms/kerning/",
            ])
        let json = try #require(files["glossary.json"])
        let pages = try #require(json.components(separatedBy: "\"pages\": [").last?.components(separatedBy: "]").first)
        #expect(
            pages.components(separatedBy: "\"url\": \"").dropFirst().map { String($0.prefix { $0 != "\"" }) } == [
                "https://example.org/100%25/full/", "https://example.org/C%23/", "https://example.org/%C3%A9/",
            ])
        #expect(
            files["glossary.csv"]?.contains(#","https://example.org/100%25/full/ https://example.org/C%23/ https://example.org/%C3%A9/""#) == true)
    }

    @Test func aRootThatNeedsEncodingIsEncodedOnceInEveryHref() async throws {
        let site = try ExportTestSite(
            Self.site.replacingOccurrences(of: "site: https://example.org\n", with: "base_url: https://example.org/my%20docs/\n"))
        defer { site.remove() }
        let (result, files) = await site.build()
        #expect(result.diagnostics.count == 1)
        let intro = files["C#/intro/index.html"]
        #expect(Self.hrefs(intro, from: "<nav class=\"breadcrumbs\"", to: "</nav>") == ["/my%20docs/", "/my%20docs/C%23/"])
        #expect(
            Self.hrefs(files["C#/index.html"], from: "<p>About", to: "</p>") == ["/my%20docs/terms/kerning/"], "a term link")
        #expect(
            Self.hrefs(files["notes/links/index.html"], from: "<p>", to: "</p>").prefix(2) == ["/my%20docs/C%23/intro/", "/my%20docs/a%20b/"])
        #expect(files["sitemap.xml"]?.contains("<loc>https://example.org/my%20docs/C%23/intro/</loc>") == true)
        #expect(files["C#/index.html"]?.contains("<body data-root=\"/my%20docs/\"") == true)
    }
}
