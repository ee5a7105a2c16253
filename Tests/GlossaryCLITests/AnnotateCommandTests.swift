import Foundation
import TestSupport
import Testing

/// `glossary annotate`: a glossary's links, card stylesheet and script in a built HTML site, every other byte kept, idempotent,
/// unknown words reported at their place, `--check` for CI, untouched files left alone.
@Suite struct AnnotateCommandTests {
    /// A glossary built with `site:` set (its term URLs absolute) under `glossary/`, and a docs site another tool built
    /// under `docs/`.
    static let site = """
        -- glossary.yml --
        title: Team Glossary
        site: https://glossary.example.org
        -- content/index.md --
        # Home
        -- content/glossary/kerning.md --
        ---
        term: Kerning
        aliases: [letter spacing]
        ---
        The *space* between letters.
        -- content/glossary/api.md --
        ---
        term: API
        case_sensitive: true
        ---
        An interface.
        -- docs/index.html --
        <!DOCTYPE html>
        <html lang="en">
        <head>
          <meta charset="utf-8">
          <title>[[kerning]] – Docs</title>
        </head>
        <body>
        <h1>On [[kerning]]</h1>
        <p>Tune the [[Kerning]] and the [[spacing|letter spacing]] of an [[API]]; not [[kernig]].</p>
        <pre><code>[[kerning]]</code></pre>
        <p><a href="/x/">[[kerning]]</a> <button>[[kerning]]</button></p>
        <nav>[[kerning]]</nav>
        <div data-glossary-skip><p>[[kerning]]</p></div>
        <script>var s = "[[kerning]]";</script>
        <p>Odd   bytes: &amp; &#x41; <!-- [[kerning]] --> [[  ]] [[ker
        ning]]</p>
        </body>
        </html>
        -- docs/guide/plain.html --
        <!doctype html><html><head><title>Plain</title></head><body><p>No references.</p></body></html>
        -- docs/style.css --
        p { color: red }
        """

    static let stylesheet = #"<link rel="stylesheet" href="https://glossary.example.org/embed.css" data-glossary-embed>"# + "\n"
    static let script = #"<script src="https://glossary.example.org/embed.js" defer data-glossary-embed></script>"# + "\n"
    /// What goes before `</head>` once per page.
    static let insertions = stylesheet + script

    static func link(_ slug: String, _ word: String, _ shown: String) -> String {
        #"<a class="glossary-term" href="https://glossary.example.org/terms/\#(slug)/" data-glossary-term="\#(word)">\#(shown)</a>"#
    }

    /// The site with its glossary built into `glossary/`.
    static func prepared() async throws -> TestSite {
        let site = try TestSite(site)
        let build = try await site.run(["build", "--offline", "--quiet", "--output", "glossary"])
        #expect(build.status == 0, "\(build.stderr)")
        return site
    }

    /// An annotated page with its insertions taken out again: the stylesheet link and script tag removed, each link back to the reference
    /// it replaced.
    static func stripped(_ html: String) throws -> String {
        var text = html.replacingOccurrences(of: insertions, with: "")
        let pattern = try Regex(#"<a class="glossary-term" href="[^"]*" data-glossary-term="([^"]*)">([^<]*)</a>"#)
        text = text.replacing(pattern) { match in
            let word = String(match.output[1].substring ?? "")
            let shown = String(match.output[2].substring ?? "")
            return word == shown ? "[[\(shown)]]" : "[[\(shown)|\(word)]]"
        }
        return text
    }

    @Test func linksReferencesAndKeepsEveryOtherByte() async throws {
        let site = try await Self.prepared()
        defer { site.remove() }
        let before = try #require(site.read("docs/index.html"))
        let result = try await site.run(["annotate", "docs", "--glossary", "glossary", "--no-source-lines"])
        #expect(result.status == 0, "\(result.stderr)")
        let after = try #require(site.read("docs/index.html"))
        let expectedParagraph =
            "<p>Tune the \(Self.link("kerning", "Kerning", "Kerning")) and the \(Self.link("kerning", "letter spacing", "spacing")) of an "
            + "\(Self.link("api", "API", "API")); not [[kernig]].</p>"
        #expect(after.contains(expectedParagraph))
        #expect(after.contains("<title>[[kerning]] – Docs</title>\n" + Self.insertions + "</head>"))
        #expect(try Self.stripped(after) == before)
        #expect(after.components(separatedBy: "glossary-term\"").count == 4, "only the three references in running text")
        #expect(
            result.stderr == """
                docs/index.html:11:378: warning: no definition found for 'kernig' [unknown-term]
                Annotated 2 pages with Team Glossary: 2 changed, 1 warning

                """)
        #expect(site.read("docs/guide/plain.html")?.contains(Self.insertions + "</head>") == true)
    }

    @Test func aPageAnnotatedBeforeTheStylesheetGetsOnlyTheStylesheet() async throws {
        let site = try await Self.prepared()
        defer { site.remove() }
        let page = "<!doctype html><html><head><title>Old</title>\n\(Self.script)</head><body><p>Done.</p></body></html>\n"
        try site.write("docs/guide/plain.html", page)
        let result = try await site.run(["annotate", "docs", "--glossary", "glossary"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            site.read("docs/guide/plain.html")
                == "<!doctype html><html><head><title>Old</title>\n\(Self.script)\(Self.stylesheet)</head><body><p>Done.</p></body></html>\n")
    }

    @Test func aSecondRunChangesNothingAndTouchesNoFile() async throws {
        let site = try await Self.prepared()
        defer { site.remove() }
        try await site.run(["annotate", "docs", "--glossary", "glossary"])
        let once = try #require(site.read("docs/index.html"))
        let old = Date(timeIntervalSince1970: 1_000_000_000)
        for path in ["docs/index.html", "docs/guide/plain.html", "docs/style.css"] {
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: site.root.appendingPathComponent(path).path)
        }
        let again = try await site.run(["annotate", "docs", "--glossary", "glossary", "--no-source-lines"])
        #expect(again.status == 0)
        #expect(again.stderr.hasSuffix("Annotated 2 pages with Team Glossary: 0 changed, 1 warning\n"))
        #expect(site.read("docs/index.html") == once)
        for path in ["docs/index.html", "docs/guide/plain.html", "docs/style.css"] {
            let modified = try FileManager.default.attributesOfItem(atPath: site.root.appendingPathComponent(path).path)[.modificationDate] as? Date
            #expect(modified == old, "\(path) was written")
        }
    }

    @Test func checkChangesNothingAndFailsOnWorkLeftOrUnknownWords() async throws {
        let site = try await Self.prepared()
        defer { site.remove() }
        let before = site.read("docs/index.html")
        let check = try await site.run(["annotate", "docs", "--glossary", "glossary", "--check", "--format", "json"])
        #expect(check.status == 1)
        #expect(
            check.stdout
                == #"{"code":"unknown-term","column":79,"file":"docs/index.html","line":9,"message":"no definition found for 'kernig'","notes":[],"severity":"warning"}"#
                + "\n")
        #expect(check.stderr == "Annotated 2 pages with Team Glossary: 2 would change, 1 warning\n")
        #expect(site.read("docs/index.html") == before)

        try site.write("docs/index.html", try #require(before).replacingOccurrences(of: "[[kernig]]", with: "kernig"))
        #expect(try await site.run(["annotate", "docs", "--glossary", "glossary"]).status == 0)
        let clean = try await site.run(["annotate", "docs", "--glossary", "glossary", "--check"])
        #expect(clean.status == 0, "\(clean.stderr)")
        #expect(clean.stderr == "Annotated 2 pages with Team Glossary: 0 would change, 0 warnings\n")

        // One page is one page.
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("docs/guide"))
        let one = try await site.run(["annotate", "docs", "--glossary", "glossary", "--check"])
        #expect(one.stderr == "Annotated 1 page with Team Glossary: 0 would change, 0 warnings\n")
    }

    @Test func strictFailsOnUnknownWordsAndGitHubFormatShowsThem() async throws {
        let site = try await Self.prepared()
        defer { site.remove() }
        let result = try await site.run(["annotate", "docs", "--glossary", "glossary", "--strict", "--format", "github"])
        #expect(result.status == 1)
        #expect(result.stdout == "::error file=docs/index.html,line=11,col=378,title=unknown-term::no definition found for 'kernig'\n")
    }

    static let autolinkSite = """
        -- glossary.yml --
        title: Team Glossary
        site: https://glossary.example.org
        -- content/glossary/kerning.md --
        ---
        term: Kerning
        aliases: [letter spacing]
        ---
        Space.
        -- content/glossary/api.md --
        ---
        term: API
        case_sensitive: true
        ---
        An interface.
        -- content/glossary/leading.md --
        ---
        term: leading
        ---
        Lines.
        -- content/glossary/amp.md --
        ---
        term: amp
        ---
        An amplifier.
        -- docs/index.html --
        <html><head></head><body>
        <p>Kerning, kerning; AT&amp;T; an API and api; <span data-term="leading">the gaps</span>, letter   spacing.</p>
        <h2>kerning</h2><p><code>kerning</code> <a href="/k">kerning</a> [[kerning]]</p>
        </body></html>
        """

    @Test(arguments: [
        (
            "first",
            #"<p>Kerning, kerning; AT&amp;T; an \#(link("api", "api", "API")) and api; <span data-term="leading">\#(link("leading", "leading", "the gaps"))</span>, letter   spacing.</p>"#
        ),
        (
            "all",
            #"<p>\#(link("kerning", "kerning", "Kerning")), \#(link("kerning", "kerning", "kerning")); AT&amp;T; an \#(link("api", "api", "API")) and api; "#
                + #"<span data-term="leading">\#(link("leading", "leading", "the gaps"))</span>, \#(link("kerning", "kerning", "letter   spacing")).</p>"#
        ),
    ])
    func autolinkAndMarkedElementsFollowTheBuildsRules(mode: String, paragraph: String) async throws {
        let site = try TestSite(Self.autolinkSite)
        defer { site.remove() }
        #expect(try await site.run(["build", "--offline", "--quiet", "--output", "glossary"]).status == 0)
        let result = try await site.run(["annotate", "docs", "--glossary", "glossary", "--autolink", mode])
        #expect(result.status == 0, "\(result.stderr)")
        let html = try #require(site.read("docs/index.html"))
        // A written reference counts as its term's first link; nothing in headings, code or links; a case-sensitive
        // term only as spelled; never inside a character reference; a marked element's content becomes its link.
        #expect(
            html == "<html><head>\(Self.insertions)</head><body>\n\(paragraph)\n"
                + #"<h2>kerning</h2><p><code>kerning</code> <a href="/k">kerning</a> \#(Self.link("kerning", "kerning", "kerning"))</p>"# + "\n</body></html>\n"
        )
        let again = try await site.run(["annotate", "docs", "--glossary", "glossary", "--autolink", mode, "--check"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(site.read("docs/index.html") == html)
    }

    /// A glossary given by its address: its term API is fetched over HTTP (libcurl), and the pages come out as from the
    /// glossary's folder. An address with no glossary is named with the status it got.
    @Test func aGlossaryAtAnAddressIsFetchedOverHTTP() async throws {
        let (byAddress, byFolder) = (try await Self.prepared(), try await Self.prepared())
        defer {
            byAddress.remove()
            byFolder.remove()
        }
        let built = byAddress.root.appendingPathComponent("glossary").path
        let server = try LoopbackServer { request in
            guard !request.path.contains(".."), let data = FileManager.default.contents(atPath: built + request.path) else {
                return .respond(status: 404)
            }
            return .respond(status: 200, headers: ["Content-Type": "application/json"], body: data)
        }
        defer { server.stop() }
        let fetched = try await byAddress.run(["annotate", "docs", "--glossary", server.url("/"), "--no-source-lines"])
        #expect(fetched.status == 0, "\(fetched.stderr)")
        #expect(server.requestPaths.first == "/terms/api.json")
        let read = try await byFolder.run(["annotate", "docs", "--glossary", "glossary", "--no-source-lines"])
        #expect(read.status == 0, "\(read.stderr)")
        let page = try #require(byAddress.read("docs/index.html"))
        #expect(page.contains(Self.link("kerning", "Kerning", "Kerning")))
        #expect(page == byFolder.read("docs/index.html"))

        let missing = try await byAddress.run(["annotate", "docs", "--glossary", server.url("/nothing"), "--check"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("\(server.url("/nothing/terms/api.json")) answered HTTP 404"), "\(missing.stderr)")
    }

    @Test func aGlossaryWithoutAnAddressIsRefused() async throws {
        let site = try TestSite(
            """
            -- content/glossary/kerning.md --
            ---
            term: Kerning
            ---
            Space.
            -- docs/index.html --
            <p>[[kerning]]</p>
            """)
        defer { site.remove() }
        #expect(try await site.run(["build", "--offline", "--quiet", "--output", "glossary"]).status == 0)
        let result = try await site.run(["annotate", "docs", "--glossary", "glossary"])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "error: can't read the glossary at 'glossary': its term URLs are relative (build it with site: set, or give its URL)\n")
        #expect(site.read("docs/index.html") == "<p>[[kerning]]</p>\n")
    }

    @Test func usageErrors() async throws {
        let site = try TestSite("-- docs/a.html --\n<p></p>\n")
        defer { site.remove() }
        #expect(try await site.run(["annotate", "docs"]).status == 64)
        #expect(try await site.run(["annotate", "--glossary", "g"]).status == 64)
        #expect(try await site.run(["annotate", "nowhere", "--glossary", "g"]).status == 64)
    }
}
