import Foundation
import TestSupport
import Testing

@testable import GlossaryKit

/// What a build knows once definitions are resolved: which terms get pages, who uses them, how a reference is
/// marked up, which links lead nowhere.
@Suite struct BuiltSiteTests {
    static let files = InlineSite.parse(
        """
        -- glossary.yml --
        title: Site
        base_url: /docs/
        -- content/index.md --
        ---
        title: Home
        ---
        [[Kerning]], [[pair kerning]] again, and [[zzqx]]. See [the guide](guide.md) and [nothing](/nowhere/).
        -- content/guide.md --
        ---
        title: Guide
        ---
        More [[kerning]], and [[kerning]] once more.
        -- content/unused.md --
        ---
        title: Unused
        ---
        No terms here.
        -- content/glossary/kerning.md --
        ---
        term: Kerning
        aliases: [pair kerning]
        ---
        The space between letters; see [[leading]].
        -- content/glossary/leading.md --
        ---
        term: Leading
        ---
        The space between lines.
        """)

    static func site() async throws -> BuiltSite {
        let root = try InlineSite.temporaryFolder("glossary-built-site")
        defer { try? FileManager.default.removeItem(at: root) }
        try InlineSite.write(files, into: root)
        var options = BuildOptions(source: root)
        options.offline = true
        options.wordNetFolder = root.appendingPathComponent("no-wordnet").path
        let result = await SiteBuilder(options: options).build(into: MemorySink())
        return try #require(result.site)
    }

    static func key(_ text: String) -> TermKey { TermKey(text)! }

    @Test func teamEntriesAndDefinedTermsGetPagesUnresolvedOnesDoNot() async throws {
        let site = try await Self.site()
        #expect(Set(site.termPages.keys) == [Self.key("kerning"), Self.key("leading")])
        #expect(site.definition(for: Self.key("pair kerning"))?.key == Self.key("kerning"), "an alias finds its entry")
        #expect(site.definition(for: Self.key("zzqx")) == nil)
        #expect(site.unresolvedReferences.map(\.word) == ["zzqx"])
        #expect(site.termURL(try #require(site.termPages[Self.key("kerning")])) == "/docs/terms/kerning/")
    }

    @Test func usedOnListsPagesOnceInOrderByAnyNameAndNeverEntries() async throws {
        let site = try await Self.site()
        let kerning = try #require(site.termPages[Self.key("kerning")])
        #expect(site.usedOn(kerning).map(\.page.contentPath) == ["guide.md", "index.md"])
        let leading = try #require(site.termPages[Self.key("leading")])
        #expect(site.usedOn(leading).isEmpty, "used only by an entry")
    }

    @Test func aReferenceIsALinkOrAMarkedUnknownTerm() async throws {
        let site = try await Self.site()
        let home = try #require(site.pages.first { $0.page.contentPath == "index.md" })
        let wrappers = site.wrappers(home)
        #expect(wrappers.count == home.references.count)
        #expect(wrappers[0].open == #"<a class="term" href="/docs/terms/kerning/" data-term="kerning">"# && wrappers[0].close == "</a>")
        #expect(wrappers[1].open == wrappers[0].open, "the alias links to its entry")
        #expect(wrappers[2].open.hasPrefix(#"<span class="term term-unknown" data-term-unknown="zzqx""#) && wrappers[2].close == "</span>")
    }

    @Test func unresolvedTermsSayWhyTheyAreUnresolved() async throws {
        let site = try await Self.site()
        #expect(
            site.unresolvedDiagnostics(offline: true).map(\.description) == [
                "content/index.md:4:42: warning: no definition found for 'zzqx' (offline, and not in the cache) [unknown-term]"
            ])
        #expect(site.unresolvedDiagnostics(offline: false).map(\.message) == ["no definition found for 'zzqx' (the dictionary could not be reached)"])
    }

    @Test func linksToNoFileOfTheSiteAreBroken() async throws {
        let site = try await Self.site()
        let paths: Set<String> = ["index.html", "guide/index.html", "unused/index.html"]
        #expect(
            site.brokenLinkDiagnostics(paths: paths).map(\.description) == [
                "content/index.md:4:92: warning: link to '/nowhere/' leads to no page or file of the site [broken-link]"
            ])
        #expect(site.brokenLinkDiagnostics(paths: paths.union(["nowhere/index.html"])).isEmpty)
        #expect(site.brokenLinkDiagnostics(paths: ["index.html"]).count == 2, "guide.md's page is gone too")
    }
}
