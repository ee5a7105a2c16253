import Foundation
import Testing

/// A whole site built and compared, file by file, with a recorded tree (`Golden/*.txt`).
/// Re-record after an intended change with `GLOSSARY_RECORD=1 swift test --filter GoldenSiteTests`.
@Suite struct GoldenSiteTests {
    /// A theme of the test's own, so the default theme's evolution doesn't churn this file.
    static let theme = """
        -- themes/plain/templates/base.mustache --
        <html data-theme="light" data-font="sans"><head><meta http-equiv="Content-Security-Policy" content="{{csp}}">{{>head-script}}<title>{{page_title}}</title></head>
        <body>{{#nav}}[{{title}}]({{url}}){{#current}}*{{/current}} {{/nav}}
        {{$content}}{{/content}}</body></html>
        -- themes/plain/templates/head-script.mustache --
        <script>document.documentElement.lang = "{{site.language}}";</script>
        -- themes/plain/templates/page.mustache --
        {{<base}}{{$content}}{{#page.show_title}}<h1>{{page.title}}</h1>{{/page.show_title}}{{#page.date}}<time>{{page.date}}</time>{{/page.date}}{{#page.tags}}<i>{{.}}</i>{{/page.tags}}
        {{{page.content}}}{{#page.has_terms}}<dl>{{#page.terms}}<dt><a href="{{url}}">{{word}}</a></dt><dd>{{summary}}</dd>{{/page.terms}}</dl>{{/page.has_terms}}{{/content}}{{/base}}
        -- themes/plain/templates/term.mustache --
        {{<base}}{{$content}}<h1>{{term.word}}</h1>{{#term.phonetic}}<p>{{.}}</p>{{/term.phonetic}}{{#term.part_of_speech}}<p>{{.}}</p>{{/term.part_of_speech}}
        {{#term.is_team}}{{{term.body}}}{{/term.is_team}}{{#term.meanings}}<h2>{{part_of_speech}}</h2><ol>{{#definitions}}<li>{{definition}}{{#example}} — {{.}}{{/example}}</li>{{/definitions}}</ol>{{#synonyms}}{{#url}}<a href="{{url}}">{{word}}</a>{{/url}}{{^url}}{{word}}{{/url}} {{/synonyms}}{{/term.meanings}}
        {{#term.audio}}<button data-audio="{{url}}">{{label}}</button>{{/term.audio}}{{#term.licenses}}<small>{{name}}</small>{{/term.licenses}}
        {{#term.see_also}}<a href="{{url}}">{{word}}</a>{{/term.see_also}}{{#term.used_on}}<li><a href="{{url}}">{{title}}</a></li>{{/term.used_on}}{{/content}}{{/base}}
        -- themes/plain/templates/terms.mustache --
        {{<base}}{{$content}}{{#alphabet}}{{#present}}<a href="#{{id}}">{{letter}}</a>{{/present}}{{/alphabet}}
        {{#letters}}<h2 id="{{id}}">{{letter}}</h2>{{#terms}}<a href="{{url}}">{{word}}</a> {{summary}}
        {{/terms}}{{/letters}}{{/content}}{{/base}}
        -- themes/plain/templates/search.mustache --
        {{<base}}{{$content}}<form data-dictionary-search></form>{{/content}}{{/base}}
        -- themes/plain/templates/404.mustache --
        {{<base}}{{$content}}Not found{{/content}}{{/base}}
        -- themes/plain/assets/style.css --
        body { color: black; }
        """

    static let site = """
        -- glossary.yml --
        title: Golden
        base_url: /docs/
        theme: plain
        -- content/index.md --
        ---
        title: Home
        tags: [a, b]
        ---
        Read about [[Kerning]], [[the café|Café]] and [[serendipity]]; \\[[literal]] stays.

        Go to the [guide](guide/intro.md#top) or [about](/about/).
        -- content/about.md --
        ---
        title: About
        date: 2024-01-02
        ---
        About [[kerning]] and an [[unknownword]].
        -- content/guide/intro.md --
        # Intro from heading

        * [[Line spacing]] is an alias.
        -- content/glossary/kerning.md --
        ---
        term: Kerning
        phonetic: /ˈkɜːnɪŋ/
        part_of_speech: noun
        see_also: [leading]
        ---
        Space between *two* letters, unlike [[leading]].
        -- content/glossary/leading.md --
        ---
        term: Leading
        aliases: [LINE  Spacing]
        ---
        Space between lines.
        -- content/glossary/cafe.md --
        ---
        term: Café
        ---
        A place for coffee.
        -- .glossary/cache/en/serendipity.json --
        {
          "body": [{"word": "serendipity", "phonetic": "/ˌsɛɹənˈdɪpɪti/",
            "phonetics": [{"text": "/x/", "audio": ""}, {"text": "/y/", "audio": "https://example.org/serendipity-us.mp3"}],
            "meanings": [{"partOfSpeech": "noun", "definitions": [{"definition": "A happy <accident>.", "example": "Pure serendipity.", "synonyms": [], "antonyms": []}],
              "synonyms": ["luck", "luck", "kerning"], "antonyms": []}],
            "license": {"name": "CC0 sample", "url": "https://example.org/cc0"}, "sourceUrls": []}],
          "fetched_at": "2026-01-01T00:00:00Z", "format": 1, "key": "serendipity", "language": "en", "status": 200,
          "url": "https://api.dictionaryapi.dev/api/v2/entries/en/serendipity"
        }
        """

    static let goldenFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/site.txt")

    @Test func wholeSiteMatchesTheRecordedTree() async throws {
        let site = try TestSite(Self.theme + "\n" + Self.site)
        defer { site.remove() }
        let result = try await site.run(["build", "--offline"])
        #expect(result.status == 0, "\(result.stderr)")
        var dump = "== diagnostics ==\n" + result.diagnostics.joined(separator: "\n") + "\n"
        for path in site.files(under: "site") {
            dump += "== \(path) ==\n" + (site.read("site/" + path) ?? "<unreadable>") + "\n"
        }
        if ProcessInfo.processInfo.environment["GLOSSARY_RECORD"] == "1" {
            try Data(dump.utf8).write(to: Self.goldenFile)
            return
        }
        let expected = try String(contentsOf: Self.goldenFile, encoding: .utf8)
        #expect(dump == expected, "\(LineDiff.describe(expected: expected, actual: dump))")
    }
}

/// The first differing lines of two texts, for readable golden failures.
enum LineDiff {
    static func describe(expected: String, actual: String, context: Int = 3) -> String {
        let lhs = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let rhs = actual.split(separator: "\n", omittingEmptySubsequences: false)
        guard
            let first = zip(lhs, rhs).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset
                ?? (lhs.count != rhs.count ? min(lhs.count, rhs.count) : nil)
        else {
            return "identical"
        }
        var lines = ["first difference at line \(first + 1):"]
        for index in max(0, first - context)..<min(max(lhs.count, rhs.count), first + context + 1) {
            let expectedLine = index < lhs.count ? String(lhs[index]) : "<none>"
            let actualLine = index < rhs.count ? String(rhs[index]) : "<none>"
            if expectedLine == actualLine {
                lines.append("  \(expectedLine)")
            } else {
                lines.append("- \(expectedLine)")
                lines.append("+ \(actualLine)")
            }
        }
        return lines.joined(separator: "\n")
    }
}
