import Testing

@testable import GlossaryKit

/// `site:` in glossary.yml: the address (scheme, host, port) exported URLs start with.
@Suite struct SiteAddressTests {
    @Test(arguments: [
        ("https://example.org", "https://example.org"),
        ("https://Example.ORG/", "https://example.org"),
        ("HTTP://127.0.0.1:8080", "http://127.0.0.1:8080"),
        ("https://[::1]:8443/", "https://[::1]:8443"),
        ("https://docs.example.org:443", "https://docs.example.org:443"),
    ])
    func anAddressIsItsOrigin(text: String, origin: String) {
        #expect(SiteAddress(text)?.origin == origin)
    }

    @Test(arguments: [
        "example.org", "/docs/", "ftp://example.org", "https://", "https://example.org/docs/", "https://example.org?x=1", "https://example.org#top",
        "https://user@example.org", "https://exa mple.org", "https://exämple.org", "https://example.org\n", "javascript://x", "https://a\"b.org",
    ])
    func anythingElseIsNot(text: String) {
        #expect(SiteAddress(text) == nil)
    }

    @Test func aFullBaseURLGivesItsOrigin() {
        #expect(SiteAddress(baseURL: "https://Example.org/über docs/")?.origin == "https://example.org")
        #expect(SiteAddress(baseURL: "/docs/") == nil)
    }

    @Test func glossaryYmlReadsSiteAndReportsABadOneAtItsPlace() {
        let (config, diagnostics) = SiteConfig.load(yaml: "title: T\nsite: https://example.org/\nbase_url: /docs/\n", file: "glossary.yml")
        #expect(diagnostics.isEmpty)
        #expect(config.site?.origin == "https://example.org" && config.address == config.site)

        let (bad, problems) = SiteConfig.load(yaml: "title: T\nsite: example.org/docs\n", file: "glossary.yml")
        #expect(bad.site == nil)
        #expect(
            problems.map(\.description) == [
                "glossary.yml:2:7: error: 'site' must be the site's address: http:// or https://, a host and no path, like 'https://example.org', found 'example.org/docs' [config-value]"
            ])

        let (_, wrongType) = SiteConfig.load(yaml: "site: [a]\n", file: "glossary.yml")
        #expect(wrongType.map(\.description) == ["glossary.yml:1:7: error: 'site' must be a string, found a list [config-type]"])

        let (other, disagreeing) = SiteConfig.load(yaml: "base_url: https://a.example/docs/\nsite: https://b.example\n", file: "glossary.yml")
        #expect(other.address?.origin == "https://a.example")
        #expect(
            disagreeing.map(\.description) == [
                "glossary.yml:2:7: error: 'site' must be the address base_url gives ('https://a.example') when base_url is a full URL, found 'https://b.example' [config-value]"
            ])
    }
}
