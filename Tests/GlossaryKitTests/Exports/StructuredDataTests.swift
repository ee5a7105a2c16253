import Foundation
import Testing

@testable import GlossaryKit

/// What the default theme's pages tell search engines and link previews: schema.org JSON-LD on the index and the
/// term pages, a canonical link and Open Graph tags on every page, `<html lang>` from the site's language.
@Suite struct StructuredDataTests {
    /// The text of each `<script type="application/ld+json">` of a page, parsed.
    static func jsonLD(_ html: String) throws -> [[String: Any]] {
        var objects: [[String: Any]] = []
        var rest = Substring(html)
        let open = "<script type=\"application/ld+json\">"
        while let start = rest.range(of: open), let end = rest[start.upperBound...].range(of: "</script>") {
            let text = rest[start.upperBound..<end.lowerBound]
            objects.append(try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]))
            rest = rest[end.upperBound...]
        }
        return objects
    }

    static let site = """
        -- glossary.yml --
        title: Type & Co
        description: Words.
        site: https://example.org
        base_url: /docs/
        language: en-GB
        -- content/index.md --
        [[Kerning]] and [[x-height]].
        -- content/guide.md --
        ---
        title: The guide
        description: How to.
        ---
        Text.
        -- content/glossary/kerning.md --
        ---
        term: Kerning
        ---
        Space between letters `</script><script>alert(1)</script>` & more\u{2028}here.
        -- content/glossary/x-height.md --
        ---
        term: x-height
        ---
        The height of an x.
        """

    @Test func theIndexIsADefinedTermSetOfEveryTerm() async throws {
        let site = try ExportTestSite(Self.site)
        defer { site.remove() }
        let (_, files) = await site.build()
        let html = try #require(files["terms/index.html"])
        let objects = try Self.jsonLD(html)
        #expect(objects.count == 1)
        let set = try #require(objects.first)
        #expect(set["@context"] as? String == "https://schema.org")
        #expect(set["@type"] as? String == "DefinedTermSet")
        #expect(set["@id"] as? String == "https://example.org/docs/terms/")
        #expect(set["name"] as? String == "Type & Co")
        #expect(set["inLanguage"] as? String == "en-GB")
        let terms = try #require(set["hasDefinedTerm"] as? [[String: Any]])
        #expect(terms.map { $0["name"] as? String } == ["Kerning", "x-height"])
        #expect(terms.map { $0["termCode"] as? String } == ["kerning", "x-height"])
        #expect(terms.map { $0["url"] as? String } == ["https://example.org/docs/terms/kerning/", "https://example.org/docs/terms/x-height/"])
        #expect(terms.allSatisfy { $0["@type"] as? String == "DefinedTerm" && $0["description"] is String })
    }

    @Test func eachTermPageIsADefinedTermInTheSetAndItsTextCantCloseTheScript() async throws {
        let site = try ExportTestSite(Self.site)
        defer { site.remove() }
        let (_, files) = await site.build()
        let html = try #require(files["terms/kerning/index.html"])
        let objects = try Self.jsonLD(html)
        #expect(objects.count == 1)
        let term = try #require(objects.first)
        #expect(term["@type"] as? String == "DefinedTerm")
        #expect(term["name"] as? String == "Kerning")
        #expect(term["description"] as? String == "Space between letters </script><script>alert(1)</script> & more\u{2028}here.")
        #expect(term["url"] as? String == "https://example.org/docs/terms/kerning/")
        #expect(term["termCode"] as? String == "kerning")
        let set = try #require(term["inDefinedTermSet"] as? [String: Any])
        #expect(set["@type"] as? String == "DefinedTermSet" && set["@id"] as? String == "https://example.org/docs/terms/")
        // The block holds no `<`, `>`, `&` or U+2028 of its own: nothing in it can end the script or a line of it.
        let block = try #require(html.components(separatedBy: "<script type=\"application/ld+json\">").last?.components(separatedBy: "</script>").first)
        #expect(!block.contains("<") && !block.contains(">") && !block.contains("&") && !block.contains("\u{2028}"))
        #expect(block.contains(#"\u003c/script\u003e"#) && block.contains(#"\u2028"#))
        // Pages other than the index and the terms carry none.
        let home = try #require(files["index.html"])
        #expect(try Self.jsonLD(home).isEmpty)
    }

    @Test func everyPageHasACanonicalLinkAndOpenGraphTagsAndTheLanguage() async throws {
        let site = try ExportTestSite(Self.site)
        defer { site.remove() }
        let (_, files) = await site.build()
        let pages: [(String, String, String, String, String?)] = [
            ("index.html", "https://example.org/docs/", "website", "Index", "Words."),
            ("guide/index.html", "https://example.org/docs/guide/", "article", "The guide", "How to."),
            ("terms/index.html", "https://example.org/docs/terms/", "website", "Glossary", "Words."),
            ("terms/x-height/index.html", "https://example.org/docs/terms/x-height/", "article", "x-height", "The height of an x."),
            ("search/index.html", "https://example.org/docs/search/", "website", "Dictionary", "Words."),
        ]
        for (path, url, type, title, description) in pages {
            let html = try #require(files[path], "\(path)")
            #expect(html.contains("<html lang=\"en-GB\">"), "\(path)")
            #expect(html.contains("<link rel=\"canonical\" href=\"\(url)\">"), "\(path)")
            #expect(html.contains("<meta property=\"og:url\" content=\"\(url)\">"), "\(path)")
            #expect(html.contains("<meta property=\"og:type\" content=\"\(type)\">"), "\(path)")
            #expect(html.contains("<meta property=\"og:title\" content=\"\(title)\">"), "\(path)")
            #expect(html.contains("<meta property=\"og:site_name\" content=\"Type &amp; Co\">"), "\(path)")
            if let description { #expect(html.contains("<meta property=\"og:description\" content=\"\(description)\">"), "\(path)") }
        }
        // The 404 page answers for any address, so it names none.
        let notFound = try #require(files["404.html"])
        #expect(!notFound.contains("rel=\"canonical\"") && !notFound.contains("og:url"))
        #expect(notFound.contains("<meta property=\"og:title\" content=\"Page not found\">"))
    }

    @Test func withoutAnAddressCanonicalLinksAreSiteAbsolute() async throws {
        let site = try ExportTestSite(Self.site.replacingOccurrences(of: "site: https://example.org\n", with: ""))
        defer { site.remove() }
        let (_, files) = await site.build()
        #expect(files["guide/index.html"]?.contains("<link rel=\"canonical\" href=\"/docs/guide/\">") == true)
        let html = try #require(files["terms/kerning/index.html"])
        let term = try #require(try Self.jsonLD(html).first)
        #expect(term["url"] as? String == "/docs/terms/kerning/")
    }
}
