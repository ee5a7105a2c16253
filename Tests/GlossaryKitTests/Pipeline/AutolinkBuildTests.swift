import Foundation
import Testing

@testable import GlossaryKit

/// Auto-linking in a build: plain occurrences of the team's terms and aliases become term links (`data-autolink`),
/// as `autolink:` in glossary.yml or a page's front matter says; never in headings, code, links, images, raw HTML or
/// an explicit reference; whole words, the longest match, case-sensitive entries as spelled.
@Suite struct AutolinkBuildTests {
    static let entries = """
        -- content/glossary/ssg.md --
        ---
        term: static site generator
        aliases: [SSG]
        ---
        A tool.
        -- content/glossary/static-site.md --
        ---
        term: static site
        ---
        A site of files.
        -- content/glossary/api.md --
        ---
        term: API
        case_sensitive: true
        ---
        An interface.
        -- content/glossary/cat.md --
        ---
        term: cat
        ---
        An animal.

        """

    /// The built page's HTML, its paragraphs only, with the diagnostics.
    func paragraphs(config: String, page: String) async throws -> (html: [String], diagnostics: [String]) {
        let site = try ExportTestSite("-- glossary.yml --\ntitle: T\n\(config)\n" + Self.entries + "-- content/index.md --\n" + page)
        defer { site.remove() }
        let (result, files) = await site.build()
        // The page's own blocks, not the footer's.
        let html = (files["index.html"] ?? "").components(separatedBy: "<footer").first ?? ""
        // Headings keep their id and anchor link out of it: what matters is what they hold.
        let blocks = html.matches(of: #/(?s)<(p|h1)(?: id="[^"]*")?>(.*?)(?:<a class="anchor"[^>]*></a>)?</(p|h1)>/#).map { "<\($0.1)>\($0.2)</\($0.3)>" }
        return (blocks, result.diagnostics.map(\.description))
    }

    /// An automatic link to the term of `slug`, named by its key (the slug with spaces for `_`, as these keys are).
    static func link(_ slug: String, _ text: String) -> String {
        "<a class=\"term\" href=\"/terms/\(slug)/\" data-term=\"\(slug.replacingOccurrences(of: "_", with: " "))\" data-autolink>\(text)</a>"
    }

    @Test func allLinksEveryPlainOccurrenceButNeverInHeadingsCodeLinksImagesOrHTML() async throws {
        let (html, diagnostics) = try await paragraphs(
            config: "autolink: all",
            page: """
                # A static site generator

                A Static Site Generator, an SSG and a static site; the API, not the api. A category of cat's toys, a cat.
                `static site` [a static site](/) ![a static site](https://example.org/i.png) <span>static site</span> [[the site|static site]].

                """)
        #expect(diagnostics == [])
        let l = Self.link
        #expect(
            html == [
                "<h1>A static site generator</h1>",
                "<p>A \(l("static_site_generator", "Static Site Generator")), an \(l("static_site_generator", "SSG")) and a \(l("static_site", "static site")); "
                    + "the \(l("api", "API")), not the api. A category of \(l("cat", "cat"))'s toys, a \(l("cat", "cat")).\n"
                    + "<code>static site</code> <a href=\"/\">a static site</a> <img src=\"https://example.org/i.png\" alt=\"a static site\" /> <!-- raw HTML omitted -->static site<!-- raw HTML omitted --> "
                    + "<a class=\"term\" href=\"/terms/static_site/\" data-term=\"static site\">the site</a>.</p>",
            ])
    }

    @Test func firstLinksEachTermOnceWhateverTheFormAndExplicitReferencesCount() async throws {
        let (html, _) = try await paragraphs(
            config: "autolink: first",
            page: "An SSG, a static site generator, a [[cat]], a cat, a *static site*; the API, an API.\n")
        let l = Self.link
        #expect(
            html == [
                "<p>An \(l("static_site_generator", "SSG")), a static site generator, a <a class=\"term\" href=\"/terms/cat/\" data-term=\"cat\">cat</a>, a cat, "
                    + "a <em>\(l("static_site", "static site"))</em>; the \(l("api", "API")), an API.</p>"
            ])
    }

    @Test func frontMatterTurnsItOnOrOffAndExcludesTerms() async throws {
        let page = "A cat on a static site.\n"
        let off = try await paragraphs(config: "", page: page)
        #expect(off.html == ["<p>A cat on a static site.</p>"])
        let on = try await paragraphs(config: "", page: "---\nautolink: all\nautolink_exclude: [Cat]\n---\n" + page)
        #expect(on.html == ["<p>A cat on a \(Self.link("static_site", "static site")).</p>"])
        let pageOff = try await paragraphs(config: "autolink: all", page: "---\nautolink: off\n---\n" + page)
        #expect(pageOff.html == ["<p>A cat on a static site.</p>"])
    }

    @Test func aTermPageListsThePagesThatUseItAutomatically() async throws {
        let site = try ExportTestSite("-- glossary.yml --\ntitle: T\nautolink: all\n" + Self.entries + "-- content/index.md --\nA cat.\n")
        defer { site.remove() }
        let (_, files) = await site.build()
        #expect(files["terms/cat/index.html"]?.contains("<a href=\"/\">") == true)
    }

    @Test func entryBodiesLinkOtherTermsButNeverTheirOwn() async throws {
        let site = try ExportTestSite(
            "-- glossary.yml --\ntitle: T\nautolink: all\n" + Self.entries
                + """
                -- content/glossary/tabby.md --
                ---
                term: tabby
                aliases: [tabbies]
                ---
                A striped cat, unlike other tabbies; not `cat` in code, nor [a cat](/).

                ## A cat heading
                -- content/index.md --
                A page.

                """)
        defer { site.remove() }
        let (result, files) = await site.build()
        #expect(result.diagnostics.map(\.description) == [])
        let page = files["terms/tabby/index.html"] ?? ""
        #expect(
            page.contains(
                "<p>A striped \(Self.link("cat", "cat")), unlike other tabbies; not <code>cat</code> in code, nor <a href=\"/\">a cat</a>.</p>"))
        #expect(page.contains(">A cat heading<"))
        // The card's text stays plain, as the entry's summary.
        #expect(files["terms/index.json"]?.contains("A striped cat, unlike other tabbies;") == true)
        let off = try ExportTestSite(
            "-- glossary.yml --\ntitle: T\n" + Self.entries + "-- content/glossary/tabby.md --\n---\nterm: tabby\n---\nA striped cat.\n")
        defer { off.remove() }
        #expect((await off.build()).files["terms/tabby/index.html"]?.contains("<p>A striped cat.</p>") == true)
    }

    /// A site whose pages reference dictionary words (cached), with `autolink_dictionary` as given.
    static func dictionarySite(linksDictionary: Bool) throws -> ExportTestSite {
        let body = { (word: String) in #"[{"word":"\#(word)","meanings":[{"partOfSpeech":"noun","definitions":[{"definition":"A \#(word)."}]}]}]"# }
        return try ExportTestSite(
            "-- glossary.yml --\ntitle: T\nautolink: all\nautolink_dictionary: \(linksDictionary)\n" + Self.entries
                + "-- content/a.md --\n---\ntitle: A\nterms: [ink]\n---\nA [[quill]] and a cat.\n"
                + "-- content/b.md --\n---\ntitle: B\n---\nQuills, ink and a vellum, in `quill` code.\n"
                + "-- .glossary/cache/en/quill.json --\n" + ExportTestSite.cacheEntry("quill", body: body("quill"))
                + "-- .glossary/cache/en/ink.json --\n" + ExportTestSite.cacheEntry("ink", body: body("ink"))
                + "-- .glossary/cache/en/vellum.json --\n" + ExportTestSite.cacheEntry("vellum", body: body("vellum")))
    }

    @Test func autolinkDictionaryLinksEveryTermTheSiteReferencesExplicitly() async throws {
        let site = try Self.dictionarySite(linksDictionary: true)
        defer { site.remove() }
        let (result, files) = await site.build()
        #expect(result.diagnostics.map(\.description) == [])
        // quill is written as a reference, ink declared in `terms:`; vellum is cached but referenced nowhere.
        #expect(
            files["b/index.html"]?.contains(
                "<p>\(Self.link("quill", "Quills")), \(Self.link("ink", "ink")) and a vellum, in <code>quill</code> code.</p>") == true)
        #expect(
            files["a/index.html"]?.contains("A <a class=\"term\" href=\"/terms/quill/\" data-term=\"quill\">quill</a> and a \(Self.link("cat", "cat")).")
                == true)
        #expect(files["terms/vellum/index.html"] == nil)
        #expect(files["terms/quill/index.html"]?.contains("<a href=\"/b/\">B</a>") == true)
        #expect(files["terms/quill/index.html"]?.contains("Forms used: <span class=\"sep-item\">quills</span>") == true)

        let without = try Self.dictionarySite(linksDictionary: false)
        defer { without.remove() }
        #expect((await without.build()).files["b/index.html"]?.contains("<p>Quills, ink and a vellum, in <code>quill</code> code.</p>") == true)
    }

    @Test func autoLinkingNeverFetchesAWordNoPageReferences() async throws {
        let site = try ExportTestSite(
            "-- glossary.yml --\ntitle: T\nautolink: all\nautolink_dictionary: true\n" + Self.entries
                + "-- content/a.md --\n---\ntitle: A\n---\nA [[zebra]].\n-- content/b.md --\n---\ntitle: B\n---\nZebras and a cat.\n")
        defer { site.remove() }
        let fetcher = DefinitionResolverTests.ScriptedFetcher()
        let zebra = #"[{"word":"zebra","meanings":[{"partOfSpeech":"noun","definitions":[{"definition":"A striped horse."}]}]}]"#
        fetcher.outcomes["zebra"] = .fetched(
            CacheEntry(
                key: TermKey("zebra")!, language: "en", url: "http://api/zebra", status: 200, fetchedAt: Date(),
                entries: try CacheEntry.decodeBody(Data(zebra.utf8), status: 200), body: Data(zebra.utf8)))
        var options = site.options
        options.offline = false
        let result = await SiteBuilder(options: options, fetcher: fetcher).build(into: MemorySink())
        #expect(fetcher.requested == [TermKey("zebra")!])
        let b = result.output?.files["b/index.html"].map { String(decoding: $0, as: UTF8.self) } ?? ""
        #expect(b.contains("<p>\(Self.link("zebra", "Zebras")) and a \(Self.link("cat", "cat")).</p>"))
    }

    @Test func aBadModeIsAnErrorAtItsValue() async throws {
        let (_, diagnostics) = SiteConfig.load(yaml: "autolink: some\n", file: "glossary.yml")
        #expect(diagnostics.map(\.description) == ["glossary.yml:1:11: error: 'autolink' must be off, first or all, found 'some' [config-value]"])
    }
}
