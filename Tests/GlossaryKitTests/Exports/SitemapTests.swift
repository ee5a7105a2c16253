import Foundation
import Testing

@testable import GlossaryKit

/// `sitemap.xml` and `robots.txt`: every published page (a folder's generated page too) and term page, absolute under the site's address and
/// subpath; the site's own files win.
@Suite struct SitemapTests {
    static let site = """
        -- glossary.yml --
        title: T
        site: https://Docs.Example.org:8443/
        base_url: /docs/
        -- content/index.md --
        Home with [[kerning]].
        -- content/guide/intro.md --
        ---
        date: 2024-05-06
        ---
        Intro.
        -- content/guide/draft.md --
        ---
        draft: true
        ---
        Not yet.
        -- content/glossary/kerning.md --
        ---
        term: Kerning
        ---
        Space.
        -- content/glossary/ice-cream.md --
        ---
        term: ice cream
        ---
        Cold.
        """

    @Test func everyPageAndTermPageAbsoluteUnderTheSubpath() async throws {
        let site = try ExportTestSite(Self.site)
        defer { site.remove() }
        let (_, files) = await site.build()
        #expect(
            files["sitemap.xml"] == """
                <?xml version="1.0" encoding="UTF-8"?>
                <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
                <url><loc>https://docs.example.org:8443/docs/guide/intro/</loc><lastmod>2024-05-06</lastmod></url>
                <url><loc>https://docs.example.org:8443/docs/</loc></url>
                <url><loc>https://docs.example.org:8443/docs/guide/</loc></url>
                <url><loc>https://docs.example.org:8443/docs/terms/</loc></url>
                <url><loc>https://docs.example.org:8443/docs/terms/ice_cream/</loc></url>
                <url><loc>https://docs.example.org:8443/docs/terms/kerning/</loc></url>
                </urlset>

                """)
        #expect(files["robots.txt"] == "User-agent: *\nAllow: /\n\nSitemap: https://docs.example.org:8443/docs/sitemap.xml\n")
    }

    /// The site's six URLs built with at most `limit` a file.
    static func files(limit: Int) async throws -> [String: String] {
        let site = try ExportTestSite(Self.site)
        defer { site.remove() }
        var options = site.options
        options.sitemapLimit = limit
        let result = await SiteBuilder(options: options).build(into: MemorySink())
        return (result.output?.files ?? [:]).filter { $0.key.hasPrefix("sitemap") || $0.key == "robots.txt" }.mapValues { String(decoding: $0, as: UTF8.self) }
    }

    @Test func moreURLsThanAFileMayHoldMakeASitemapIndex() async throws {
        let files = try await Self.files(limit: 4)
        #expect(files.keys.sorted() == ["robots.txt", "sitemap-1.xml", "sitemap-2.xml", "sitemap.xml"])
        #expect(
            files["sitemap.xml"] == """
                <?xml version="1.0" encoding="UTF-8"?>
                <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
                <sitemap><loc>https://docs.example.org:8443/docs/sitemap-1.xml</loc></sitemap>
                <sitemap><loc>https://docs.example.org:8443/docs/sitemap-2.xml</loc></sitemap>
                </sitemapindex>

                """)
        #expect(
            files["sitemap-1.xml"] == """
                <?xml version="1.0" encoding="UTF-8"?>
                <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
                <url><loc>https://docs.example.org:8443/docs/guide/intro/</loc><lastmod>2024-05-06</lastmod></url>
                <url><loc>https://docs.example.org:8443/docs/</loc></url>
                <url><loc>https://docs.example.org:8443/docs/guide/</loc></url>
                <url><loc>https://docs.example.org:8443/docs/terms/</loc></url>
                </urlset>

                """)
        #expect(
            files["sitemap-2.xml"] == """
                <?xml version="1.0" encoding="UTF-8"?>
                <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
                <url><loc>https://docs.example.org:8443/docs/terms/ice_cream/</loc></url>
                <url><loc>https://docs.example.org:8443/docs/terms/kerning/</loc></url>
                </urlset>

                """)
        #expect(files["robots.txt"] == "User-agent: *\nAllow: /\n\nSitemap: https://docs.example.org:8443/docs/sitemap.xml\n")
    }

    @Test func asManyURLsAsAFileMayHoldStayOneSitemap() async throws {
        let files = try await Self.files(limit: 6)
        #expect(files.keys.sorted() == ["robots.txt", "sitemap.xml"])
        #expect(files["sitemap.xml"]?.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset") == true)
        #expect(files["sitemap.xml"]?.components(separatedBy: "<url>").count == 7)
        #expect(Sitemap.paths(count: 100_001, limit: Sitemap.maximumURLs) == ["sitemap.xml", "sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml"])
        #expect(Sitemap.paths(count: 50_000, limit: Sitemap.maximumURLs) == ["sitemap.xml"])
    }

    @Test func aSitemapPartOfTheSitesOwnIsAnError() async throws {
        let site = try ExportTestSite(Self.site + "\n-- content/sitemap-2.xml --\n<urlset/>\n")
        defer { site.remove() }
        var options = site.options
        options.sitemapLimit = 4
        let result = await SiteBuilder(options: options).build(into: MemorySink())
        #expect(result.diagnostics.map(\.code) == [.reservedPath])
    }

    @Test func withoutAnAddressLocationsAreSiteAbsoluteAndRobotsNamesNoSitemap() async throws {
        let site = try ExportTestSite(Self.site.replacingOccurrences(of: "site: https://Docs.Example.org:8443/\n", with: ""))
        defer { site.remove() }
        let (_, files) = await site.build()
        #expect(files["sitemap.xml"]?.contains("<url><loc>/docs/guide/intro/</loc><lastmod>2024-05-06</lastmod></url>\n<url><loc>/docs/</loc></url>\n") == true)
        #expect(files["robots.txt"] == "User-agent: *\nAllow: /\n")
    }

    @Test func theSitesOwnRobotsAndSitemapAreCopiedInstead() async throws {
        let site = try ExportTestSite(Self.site + "\n-- content/robots.txt --\nUser-agent: *\nDisallow: /private/\n-- content/sitemap.xml --\n<urlset/>\n")
        defer { site.remove() }
        let (result, files) = await site.build()
        #expect(result.diagnostics == [])
        #expect(files["robots.txt"] == "User-agent: *\nDisallow: /private/\n")
        #expect(files["sitemap.xml"] == "<urlset/>\n")
        #expect(result.output?.copies["robots.txt"] != nil, "copied from content/, not generated")
    }

    @Test func pathsAreEscapedForXMLAndURIs() async throws {
        let site = try ExportTestSite("-- glossary.yml --\ntitle: T\nsite: https://example.org\n-- content/a&b <c>.md --\nHi.\n")
        defer { site.remove() }
        let (_, files) = await site.build()
        #expect(files["sitemap.xml"]?.contains("<url><loc>https://example.org/a&amp;b%20%3Cc%3E/</loc></url>") == true)
    }
}
