import Foundation
import TestSupport
import Testing

@testable import GlossaryKit

/// The A–Z index paged by letter once the glossary has more than `terms_per_page` terms: which entries each page
/// lists, where pages are published, what the pages show and which files list them.
@Suite struct TermIndexPagesTests {
    static func definitions(_ words: [String]) -> [TermDefinition] {
        words.map { TermDefinition(key: TermKey($0)!, word: $0, entries: [], origin: .team(pageIndex: 0)) }
    }

    /// Each page as `path letter number first-entry…last-entry prefix`.
    static func summary(_ index: TermIndexPages) -> [String] {
        index.pages.enumerated().map { number, page in
            let words = index.sorted[page.entries].map(\.word)
            return "\(page.urlPath) \(page.letter) \(page.number) \(words.joined(separator: ",")) \(index.prefix(ofPage: number))"
        }
    }

    @Test func pagesHoldAtMostTheLimitAndNeverTwoLetters() {
        let words = ["b", "abbot", "Éclair", "a", "abacus", "3D", "abbey", "acorn", "act", "bee", "ace"]
        let index = TermIndexPages(Self.definitions(words), folder: "terms/", limit: 3)
        #expect(
            Self.summary(index) == [
                "terms/_/a/ A 1 a,abacus,abbey a",
                "terms/_/a/2/ A 2 abbot,ace,acorn ab",
                "terms/_/a/3/ A 3 act ac",
                "terms/_/b/ B 1 b,bee b",
                "terms/_/e/ E 1 Éclair ec",
                "terms/_/other/ # 1 3D 3d",
            ])
        #expect(index.letters.map(\.letter) == ["A", "B", "E", "#"])
        #expect(index.indexPath == "terms/index.html")
    }

    @Test func aPrefixGrowsUntilItDiffersFromThePreviousPagesStart() {
        let index = TermIndexPages(Self.definitions(["abbey", "abbeys", "abbot", "abbots", "abc"]), folder: "fr/terms/", limit: 2)
        #expect(Self.summary(index) == ["fr/terms/_/a/ A 1 abbey,abbeys ab", "fr/terms/_/a/2/ A 2 abbot,abbots abbo", "fr/terms/_/a/3/ A 3 abc abc"])
    }

    @Test func aWordFilesUnderItsFirstLetterFoldedOrUnderOther() {
        let words = ["zebra", "Zebra", "éclair", "e\u{301}clair", "Øre", "ﬁx", "3D", "_x", "@home", "[a]", "`b", "{c", "日本"]
        #expect(words.map(TermIndexPages.letter) == ["Z", "Z", "E", "E", "#", "F", "#", "#", "#", "#", "#", "#", "#"])
    }

    @Test func aGlossaryOfAtMostTheLimitIsOnePage() {
        let index = TermIndexPages(Self.definitions(["b", "a", "c"]), folder: "terms/", limit: 3)
        #expect(index.pages.isEmpty && !index.isPaged)
        #expect(index.sorted.map(\.word) == ["a", "b", "c"])
    }

    @Test func noPageListsMoreThanTheLimitAndEveryTermIsListedOnce() {
        let seed = UInt64(ProcessInfo.processInfo.environment["GLOSSARY_SEED"] ?? "") ?? 37
        print("TermIndexPagesTests seed \(seed)")
        var random = SeededRandom(seed: seed)
        let alphabet = Array("aabcdeéz1 -")
        for _ in 0..<50 {
            var byKey: [TermKey: TermDefinition] = [:]
            for _ in 0..<random.next(60) {
                let word = String((0...random.next(5)).map { _ in alphabet[random.next(alphabet.count)] }).trimmingCharacters(in: .whitespaces)
                if let key = TermKey(word) { byKey[key] = TermDefinition(key: key, word: word, entries: [], origin: .team(pageIndex: 0)) }
            }
            let limit = 1 + random.next(7)
            let index = TermIndexPages(Array(byKey.values), folder: "terms/", limit: limit)
            guard index.isPaged else {
                #expect(index.sorted.count <= limit)
                continue
            }
            #expect(index.pages.allSatisfy { $0.entries.count <= limit && !$0.entries.isEmpty })
            #expect(index.pages.flatMap { Array($0.entries) } == Array(index.sorted.indices), "seed \(seed)")
            #expect(Set(index.pages.map(\.urlPath)).count == index.pages.count, "seed \(seed)")
            for page in index.pages { #expect(index.sorted[page.entries].allSatisfy { TermIndexPages.letter($0.word) == page.letter }) }
        }
    }

    static let site = """
        -- glossary.yml --
        title: T
        site: https://example.org
        terms_per_page: 3
        llms: true
        -- content/index.md --
        Home.
        -- content/glossary/a.md --
        ---
        term: a
        ---
        The letter.
        -- content/glossary/abacus.md --
        ---
        term: abacus
        ---
        Beads.
        -- content/glossary/abbey.md --
        ---
        term: Abbey
        ---
        Monks.
        -- content/glossary/abbot.md --
        ---
        term: abbot
        ---
        A monk.
        -- content/glossary/bee.md --
        ---
        term: bee
        ---
        Buzz.
        """

    /// The `<article>` of a built index page.
    static func article(_ html: String?) -> String {
        guard let html, let start = html.range(of: "<article"), let end = html.range(of: "</article>") else { return "" }
        return String(html[start.lowerBound..<end.upperBound])
    }

    static func alphabet(_ present: [String: String], current: String? = nil) -> String {
        (65...90).map { String(UnicodeScalar(UInt8($0))) }.map { letter in
            guard let href = present[letter] else { return "<li><span class=\"letter-absent\">\(letter)</span></li>" }
            return "<li><a href=\"\(href)\"\(letter == current ? " aria-current=\"page\"" : "")>\(letter)</a></li>"
        }.joined()
    }

    @Test func aLetterPageListsItsEntriesUnderAJumpBarAndTheAlphabet() async throws {
        let site = try ExportTestSite(Self.site)
        defer { site.remove() }
        let (result, files) = await site.build()
        #expect(result.diagnostics == [])
        let letters = ["A": "/terms/_/a/", "B": "/terms/_/b/"]
        #expect(
            Self.article(files["terms/_/a/2/index.html"]) == """
                <article class="terms-index">
                  <h1 class="page-title">Glossary – A (2)</h1>
                  <p class="lead">5 terms, from the team’s own entries and the dictionaries. <a href="/search/">Look up any other word in the dictionary.</a></p>
                  <nav class="letter-nav" aria-label="Letters">
                    <ul>\(Self.alphabet(letters, current: "A"))</ul>
                  </nav>
                  <section class="letter-group" id="letter-a" aria-labelledby="letter-a-heading">
                    <h2 class="letter-heading" id="letter-a-heading">A</h2>
                    <nav class="prefix-nav" aria-label="Pages">
                      <ul><li><a href="/terms/_/a/">a…</a></li><li><a href="/terms/_/a/2/" aria-current="page">ab…</a></li></ul>
                    </nav>
                    <dl class="term-list">
                      <dt><a href="/terms/abbot/">abbot</a></dt><dd>A monk.</dd>
                    </dl>
                  </section>
                </article>
                """)
        #expect(files["terms/_/a/index.html"]?.contains("<title>Glossary – A · T</title>") == true)
        #expect(
            Self.article(files["terms/index.html"]) == """
                <article class="terms-index">
                  <h1 class="page-title">Glossary</h1>
                  <p class="lead">5 terms, from the team’s own entries and the dictionaries. <a href="/search/">Look up any other word in the dictionary.</a></p>
                  <nav class="letter-nav" aria-label="Letters">
                    <ul>\(Self.alphabet(letters))</ul>
                  </nav>
                  <section class="letter-group" id="letter-a" aria-labelledby="letter-a-heading">
                    <h2 class="letter-heading" id="letter-a-heading">A</h2>
                    <nav class="prefix-nav" aria-label="Pages">
                      <ul><li><a href="/terms/_/a/">a…</a></li><li><a href="/terms/_/a/2/">ab…</a></li></ul>
                    </nav>
                  </section>
                  <section class="letter-group" id="letter-b" aria-labelledby="letter-b-heading">
                    <h2 class="letter-heading" id="letter-b-heading">B</h2>
                    <nav class="prefix-nav" aria-label="Pages">
                      <ul><li><a href="/terms/_/b/">be…</a></li></ul>
                    </nav>
                  </section>
                </article>
                """)
        // The term "a" keeps its page beside the letter's.
        #expect(files["terms/a/index.html"]?.contains("The letter.") == true)
        #expect(Self.article(files["terms/_/a/index.html"]).contains("<dt><a href=\"/terms/a/\">a</a></dt><dd>The letter.</dd>"))
        let indexPages = files.keys.filter { $0.hasPrefix("terms/_/") }.sorted()
        #expect(indexPages == ["terms/_/a/2/index.html", "terms/_/a/index.html", "terms/_/b/index.html"])
    }

    @Test func theSitemapAndLLMsTextListTheLetterPages() async throws {
        let site = try ExportTestSite(Self.site)
        defer { site.remove() }
        let (_, files) = await site.build()
        #expect(
            files["sitemap.xml"] == """
                <?xml version="1.0" encoding="UTF-8"?>
                <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
                <url><loc>https://example.org/</loc></url>
                <url><loc>https://example.org/terms/</loc></url>
                <url><loc>https://example.org/terms/_/a/</loc></url>
                <url><loc>https://example.org/terms/_/a/2/</loc></url>
                <url><loc>https://example.org/terms/_/b/</loc></url>
                <url><loc>https://example.org/terms/a/</loc></url>
                <url><loc>https://example.org/terms/abacus/</loc></url>
                <url><loc>https://example.org/terms/abbey/</loc></url>
                <url><loc>https://example.org/terms/abbot/</loc></url>
                <url><loc>https://example.org/terms/bee/</loc></url>
                </urlset>

                """)
        #expect(
            files["llms.txt"]?.contains(
                """
                - [Glossary index](https://example.org/terms/): Every term of the glossary, A to Z.
                - [Glossary index: A](https://example.org/terms/_/a/): Terms from “a…”.
                - [Glossary index: A, page 2](https://example.org/terms/_/a/2/): Terms from “ab…”.
                - [Glossary index: B](https://example.org/terms/_/b/): Terms from “be…”.
                - [a](https://example.org/terms/a/)
                """) == true)
    }

    @Test func aLetterPageIsInTheSiteLanguage() async throws {
        let site = try ExportTestSite(Self.site.replacingOccurrences(of: "llms: true\n", with: "language: de\n"))
        defer { site.remove() }
        let (_, files) = await site.build()
        #expect(Self.article(files["terms/_/a/2/index.html"]).contains("<h1 class=\"page-title\">Glossar – A (2)</h1>"))
        #expect(Self.article(files["terms/_/a/2/index.html"]).contains("<nav class=\"prefix-nav\" aria-label=\"Seiten\">"))
    }
}
