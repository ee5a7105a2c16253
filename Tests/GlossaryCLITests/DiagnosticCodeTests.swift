import Foundation
import GlossaryKit
import TestSupport
import Testing

/// Every diagnostic code, triggered by the real binary on a small site (or a real loopback server), with the
/// exact text it prints: the compiler-form line, and for some the source line, caret and notes under it.
@Suite struct DiagnosticCodeTests {
    /// How to provoke one code, and what must appear in stderr, line for line.
    struct Trigger: Sendable, CustomTestStringConvertible {
        var code: DiagnosticCode
        var site: String
        var arguments: [String] = ["build", "--offline"]
        /// Replies of a dictionary API on loopback (the API URL points at it when set).
        var api: (@Sendable (LoopbackServer.Request) -> LoopbackServer.Reply)?
        /// Environment variables for the run.
        var environment: [String: String] = [:]
        /// Changes to the site's folder before the run (files the inline syntax can't write).
        var prepare: @Sendable (URL) throws -> Void = { _ in }
        /// Lines that must appear together, in order, in stderr (`{ROOT}` stands for the site's folder, `{API}` for
        /// the loopback API's address).
        var expected: [String]

        var testDescription: String { code.rawValue }
    }

    static let page = "-- content/index.md --\nHello.\n"

    static let triggers: [Trigger] = [
        Trigger(
            code: .yamlSyntax, site: "-- glossary.yml --\ntitle: [x\n" + page,
            expected: [
                "glossary.yml:2:1: error: did not find expected ',' or ']' [yaml-syntax]",
                "glossary.yml:1:8: note: parsing a flow sequence started here",
                " 1 | title: [x",
                "   |        ^",
            ]),
        Trigger(
            code: .yamlAlias, site: "-- glossary.yml --\ntitle: &t A\ndescription: *t\n" + page,
            expected: ["glossary.yml:2:14: error: YAML aliases ('*t') are not supported; write the value out instead [yaml-alias]"]),
        Trigger(
            code: .unknownKey, site: "-- glossary.yml --\ntitel: A\n" + page,
            expected: [
                "glossary.yml:1:1: warning: unknown key 'titel' in glossary.yml; did you mean 'title'? [unknown-key]",
                " 1 | titel: A",
                "   | ^",
            ]),
        Trigger(
            code: .duplicateKey, site: "-- glossary.yml --\ntitle: A\ntitle: B\n" + page,
            expected: [
                "glossary.yml:2:1: warning: key 'title' is repeated in glossary.yml; the last value is used [duplicate-key]",
                " 2 | title: B",
                "   | ^",
                "glossary.yml:1:1: note: 'title' first appears here",
                " 1 | title: A",
                "   | ^",
            ]),
        Trigger(
            code: .configType, site: "-- glossary.yml --\ntitle: [A, B]\n" + page,
            expected: ["glossary.yml:1:8: error: 'title' must be a string, found a list [config-type]"]),
        Trigger(
            code: .configValue, site: "-- glossary.yml --\nbase_url: docs/\n" + page,
            expected: [
                "glossary.yml:1:11: error: 'base_url' must start with '/', 'http://' or 'https://', found 'docs/' [config-value]",
                " 1 | base_url: docs/",
                "   |           ^",
            ]),
        Trigger(
            code: .frontMatterType, site: "-- content/index.md --\n---\n- a\n---\nHello.\n",
            expected: ["content/index.md:2:1: error: front matter must be a mapping of keys to values, found a list [front-matter-type]"]),
        Trigger(
            code: .frontMatterUnclosed, site: "-- content/index.md --\n---\ntitle: A\nHello.\n",
            expected: [
                "content/index.md:1:1: error: front matter opened on line 1 is never closed with '---' [front-matter-unclosed]",
                " 1 | ---",
                "   | ^",
            ]),
        Trigger(
            code: .configMissing, site: page, prepare: { try FileManager.default.removeItem(at: $0.appendingPathComponent("glossary.yml")) },
            expected: ["error: no glossary.yml in {ROOT}; run 'glossary new DIR' to start a site [config-missing]"]),
        Trigger(
            code: .contentMissing, site: "-- glossary.yml --\ntitle: A\n",
            expected: ["error: no content/ folder in {ROOT} [content-missing]"]),
        Trigger(
            code: .encoding, site: page,
            prepare: { try Data("ok\nbad \u{e9}".utf8.dropLast(1) + [0xFF, 0x0A]).write(to: $0.appendingPathComponent("content/bad.md")) },
            expected: ["content/bad.md:2:5: error: file is not valid UTF-8 [encoding]"]),
        Trigger(
            code: .symlinkSkipped, site: page + "-- content/folder/a.md --\nA.\n",
            prepare: { try FileManager.default.createSymbolicLink(atPath: $0.appendingPathComponent("content/link").path, withDestinationPath: "folder") },
            expected: ["content/link:1:1: warning: symbolic link to a folder or to a file outside content/ is not published [symlink-skipped]"]),
        Trigger(
            code: .fileSkipped, site: page,
            prepare: { _ = mkfifo($0.appendingPathComponent("content/pipe.md").path, 0o644) },
            expected: ["content/pipe.md:1:1: warning: not published: it is a FIFO, not a regular file [file-skipped]"]),
        Trigger(
            code: .duplicatePage, site: page + "-- content/a.md --\nA.\n-- content/a/index.md --\nA again.\n",
            expected: [
                "content/a.md:1:1: error: this page and content/a/index.md both publish /a/ [duplicate-page]",
                "content/a/index.md:1:1: note: the other page",
            ]),
        Trigger(
            code: .reservedPath, site: page + "-- content/terms/x.md --\nX.\n",
            expected: ["content/terms/x.md:1:1: error: /terms/ is generated by glossary; move this page elsewhere [reserved-path]"]),
        Trigger(
            code: .outputPath, site: page, arguments: ["build", "--offline", "--output", "content"],
            expected: ["{ROOT}/content: error: the output folder would replace the site's own files; choose a folder such as site/ [output-path]"]),
        Trigger(
            code: .writeFailed, site: page + "-- blocker --\nnot a folder\n", arguments: ["build", "--offline", "--output", "blocker/site"],
            expected: ["blocker/site: error: can't create the new site beside {ROOT}/blocker/site: not a directory [write-failed]"]),
        Trigger(
            code: .dotfilesKept, site: page + "-- site/.git/HEAD --\nref: refs/heads/gh-pages\n-- .site.old-99999999/.git/HEAD --\nref: refs/heads/old\n",
            expected: [
                "site: warning: the old site's .git could not be moved into the new site, which has its own; the old site is kept in .site.old-99999999 [dotfiles-kept]"
            ]),
        Trigger(
            code: .entryMissingTerm, site: page + "-- content/glossary/x.md --\n---\npart_of_speech: noun\n---\nA thing.\n",
            expected: ["content/glossary/x.md:1:1: error: glossary entry has no 'term:' in its front matter [entry-missing-term]"]),
        Trigger(
            code: .duplicateTerm,
            site: page + "-- content/glossary/a.md --\n---\nterm: Kerning\n---\nA.\n-- content/glossary/b.md --\n---\nterm: kerning\n---\nB.\n",
            expected: [
                "content/glossary/b.md:2:7: error: 'kerning' is already defined [duplicate-term]",
                " 2 | term: kerning",
                "   |       ^",
                "content/glossary/a.md:2:7: note: 'kerning' is first defined here",
                " 2 | term: Kerning",
                "   |       ^",
            ]),
        Trigger(
            code: .aliasCollision,
            site: page
                + "-- content/glossary/a.md --\n---\nterm: Kerning\n---\nA.\n-- content/glossary/b.md --\n---\nterm: Spacing\naliases: [kerning]\n---\nB.\n",
            expected: [
                "content/glossary/b.md:3:11: error: alias 'kerning' is already the term 'Kerning' [alias-collision]",
                " 3 | aliases: [kerning]",
                "   |           ^",
                "content/glossary/a.md:2:7: note: 'Kerning' is defined here",
                " 2 | term: Kerning",
                "   |       ^",
            ]),
        Trigger(
            code: .unusedTerm, site: page + "-- content/glossary/a.md --\n---\nterm: Kerning\n---\nA.\n", arguments: ["check", "--offline"],
            expected: [
                "content/glossary/a.md:2:7: warning: no page uses 'Kerning' [unused-term]",
                " 2 | term: Kerning",
                "   |       ^",
            ]),
        Trigger(
            code: .conceptUntranslated,
            site:
                "-- glossary.yml --\nlanguages: [en, fr]\n-- content/index.md --\nA [[server]].\n-- content/glossary/a.md --\n---\nterm: server\nconcept: srv\n---\nA.\n",
            arguments: ["check", "--offline", "--strict"],
            expected: [
                "content/glossary/a.md:3:10: note: concept 'srv' has no entry in fr (Français) [concept-untranslated]",
                " 3 | concept: srv",
                "   |          ^",
            ]),
        Trigger(
            code: .deprecatedTerm,
            site: "-- content/index.md --\nUse the logon screen.\n-- content/glossary/a.md --\n---\nterm: log in\ndeprecated: [logon]\n---\nA.\n",
            expected: [
                "content/index.md:1:9: warning: 'logon' is a deprecated term; use 'log in' [deprecated-term]",
                " 1 | Use the logon screen.",
                "   |         ^",
                "content/glossary/a.md:2:7: note: 'log in' is defined here",
                " 2 | term: log in",
                "   |       ^",
            ]),
        Trigger(
            code: .forbiddenTerm,
            site: "-- content/index.md --\nSee [[hosts]].\n-- content/glossary/a.md --\n---\nterm: server\n---\nA.\n"
                + "-- content/glossary/b.md --\n---\nterm: host\nstatus: forbidden\nuse: server\n---\nB.\n",
            expected: [
                "content/index.md:1:7: error: 'hosts' is a form of 'host', a forbidden term; use 'server' [forbidden-term]",
                " 1 | See [[hosts]].",
                "   |       ^",
                "content/glossary/a.md:2:7: note: 'server' is defined here",
                " 2 | term: server",
                "   |       ^",
            ]),
        Trigger(
            code: .importUnmapped, site: page + "-- terms.csv --\nterm,colour\nhost,red\n", arguments: ["import", "terms.csv"],
            expected: [
                "terms.csv:1:6: warning: the column 'colour' is not imported: glossary has nothing to map it to [import-unmapped]",
                " 1 | term,colour",
                "   |      ^",
            ]),
        Trigger(
            code: .importSyntax, site: page + "-- terms.csv --\nterm\n\"open\n", arguments: ["import", "terms.csv"],
            expected: [
                "terms.csv:2:1: error: a quoted CSV field is never closed [import-syntax]",
                " 2 | \"open",
                "   | ^",
            ]),
        Trigger(
            code: .importExists, site: page + "-- content/glossary/host.md --\n---\nterm: host\n---\nA.\n-- terms.csv --\nterm\nhost\n",
            arguments: ["import", "terms.csv"],
            expected: [
                "terms.csv:2:1: error: content/glossary/host.md exists; pass --force to replace it [import-exists]",
                " 2 | host",
                "   | ^",
            ]),
        Trigger(
            code: .unclosedTerm, site: "-- content/index.md --\nSee [[open\n",
            expected: [
                "content/index.md:1:5: warning: '[[' is not closed by ']]' on the same line; write '\\[[' for a literal '[[' [unclosed-term]",
                " 1 | See [[open",
                "   |     ^",
            ]),
        Trigger(
            code: .termMarkup, site: "-- content/index.md --\nSee [[<img src=x onerror=alert(1)>]] here.\n",
            expected: [
                "content/index.md:1:5: warning: term reference '[[<img src=x onerror=alert(1)>]]' holds markup; a reference names a plain word ([[word]] or [[shown text|word]]) [term-markup]",
                " 1 | See [[<img src=x onerror=alert(1)>]] here.",
                "   |     ^",
            ]),
        Trigger(
            code: .emptyTerm, site: "-- content/index.md --\nSee [[ ]] here.\n",
            expected: ["content/index.md:1:5: warning: term reference names no word [empty-term]"]),
        Trigger(
            code: .termTooLong, site: "-- content/index.md --\nSee [[\(String(repeating: "x", count: 201))]].\n",
            expected: [
                "content/index.md:1:5: error: term '\(String(repeating: "x", count: 79))…' is 201 characters long, more than a term may have (200) [term-too-long]"
            ]),
        Trigger(
            code: .unknownTerm, site: "-- content/index.md --\nSee\tthe [[keybord]].\n",
            expected: [
                "content/index.md:1:9: warning: no definition found for 'keybord' (offline, and not in the cache) [unknown-term]",
                " 1 | See\tthe [[keybord]].",
                "   |    \t    ^",
            ]),
        Trigger(
            code: .ambiguousTerm,
            site: "-- content/index.md --\nA [[Crane]] lifts.\n-- content/glossary/crane-bird.md --\n---\nterm: crane\nsense: bird\n---\nA bird.\n"
                + "-- content/glossary/crane-machine.md --\n---\nterm: crane\nsense: machine\n---\nA machine.\n",
            expected: [
                "content/index.md:1:3: warning: 'Crane' has several senses: 'Crane (bird)', 'Crane (machine)'; write one, or pick one in front matter with 'senses:'; linking the first [ambiguous-term]",
                " 1 | A [[Crane]] lifts.",
                "   |   ^",
            ]),
        Trigger(
            code: .slugCollision,
            site: page + "-- content/glossary/a.md --\n---\nterm: ★★☆★☆★★★★☆★★☆\n---\nA.\n-- content/glossary/b.md --\n---\nterm: ☆★★☆★☆★☆☆★☆★★★☆★\n---\nB.\n",
            expected: ["error: terms '★★☆★☆★★★★☆★★☆' and '☆★★☆★☆★☆☆★☆★★★☆★' would share /terms/term-1f5263ec/ [slug-collision]"]),
        Trigger(
            code: .brokenLink, site: "-- content/index.md --\nRead [the guide](guide.md).\n",
            expected: [
                "content/index.md:1:18: warning: link to 'guide.md' leads to no page or file of the site [broken-link]",
                " 1 | Read [the guide](guide.md).",
                "   |                  ^",
            ]),
        Trigger(
            code: .brokenAnchor, site: "-- content/index.md --\nSee [setup](guide.md#set-up).\n-- content/guide.md --\n## Setup\n",
            expected: [
                "content/index.md:1:13: warning: link to 'guide.md#set-up' leads to no heading 'set-up' on /guide/ [broken-anchor]",
                " 1 | See [setup](guide.md#set-up).",
                "   |             ^",
            ]),
        Trigger(
            code: .headingID, site: "-- content/index.md --\n## Two {#dup}\n\n## Three {#dup}\n",
            expected: [
                "content/index.md:3:10: warning: heading id '{#dup}' can't be used: another heading of the page (or the page itself) has that id; the heading's id is 'dup-1' [heading-id]",
                " 3 | ## Three {#dup}",
                "   |          ^",
            ]),
        Trigger(
            code: .navUnknownPage, site: "-- glossary.yml --\nnav:\n  - index.md\n  - Guide:\n      - guide/intro.md\n" + page,
            expected: [
                "glossary.yml:4:9: warning: nav lists 'guide/intro.md', which is not a page or folder of content/ [nav-unknown-page]",
                " 4 |       - guide/intro.md",
                "   |         ^",
            ]),
        Trigger(
            code: .missingTranslation, site: "-- glossary.yml --\nlanguages: [en, fr]\n-- themes/default/i18n/en.yml --\nlegend: Legend\n" + page,
            expected: [
                "glossary.yml:1:12: warning: the theme has no 'fr' string 'legend'; the English one is shown [missing-translation]",
                " 1 | languages: [en, fr]",
                "   |            ^",
            ]),
        Trigger(
            code: .navDuplicatePage, site: "-- glossary.yml --\nnav:\n  - index.md\n  - Home again: index.md\n" + page,
            expected: [
                "glossary.yml:3:17: warning: nav lists 'index.md' again; only its first place is used [nav-duplicate-page]",
                " 3 |   - Home again: index.md",
                "   |" + String(repeating: " ", count: 17) + "^",
                "glossary.yml:2:5: note: 'index.md' is first listed here",
                " 2 |   - index.md",
                "   |     ^",
            ]),
        Trigger(
            code: .themeMissing, site: "-- glossary.yml --\ntitle: A\ntheme: plain\n" + page,
            expected: ["glossary.yml:2:8: error: theme 'plain' not found in themes/plain/ (the built-in theme is 'default') [theme-missing]"]),
        Trigger(
            code: .themeCycle,
            site: "-- glossary.yml --\ntitle: A\ntheme: a\n" + page + "-- themes/a/theme.yml --\nextends: b\n-- themes/b/theme.yml --\nextends: a\n",
            expected: [
                "themes/b/theme.yml:1:10: error: theme 'b' extends 'a', which extends it again: a → b → a (themes/a/theme.yml, themes/b/theme.yml) [theme-cycle]",
                " 1 | extends: a",
                "   |          ^",
            ]),
        Trigger(
            code: .templateSyntax, site: page + themeFiles(page: "{{#page}}<main>{{{page.content}}}</main>\n"),
            arguments: ["build", "--offline"],
            expected: [
                "themes/small/templates/page.mustache:1:1: error: section 'page' is never closed [template-syntax]",
                " 1 | {{#page}}<main>{{{page.content}}}</main>",
                "   | ^",
            ]),
        Trigger(
            code: .templateRecursion, site: page + themeFiles(page: "<main>{{>page}}</main>\n"),
            expected: [
                "themes/small/templates/page.mustache:1:7: error: template 'page' includes itself outside any section ('page' → 'page'): rendering it would never end [template-recursion]",
                " 1 | <main>{{>page}}</main>",
                "   |       ^",
            ]),
        Trigger(
            code: .templateMissing, site: page + themeFiles(page: nil),
            expected: ["themes/small/templates:1:1: error: theme 'small' has no page.mustache [template-missing]"]),
        Trigger(
            code: .cacheUnreadable, site: "-- content/index.md --\n[[ink]]\n",
            prepare: {
                try FileManager.default.createDirectory(at: $0.appendingPathComponent(".glossary/cache/en/ink.json"), withIntermediateDirectories: true)
            },
            expected: [".glossary/cache/en/ink.json:1:1: warning: cache entry for 'ink' can't be read; ignored offline [cache-unreadable]"]),
        Trigger(
            code: .cacheCorrupt, site: "-- content/index.md --\n[[ink]]\n-- .glossary/cache/en/ink.json --\n{\"format\": 1, \"key\"\n",
            expected: [
                ".glossary/cache/en/ink.json:1:1: warning: cache entry for 'ink' is not valid JSON (truncated or corrupt file); ignored offline [cache-corrupt]"
            ]),
        Trigger(
            code: .cacheWrite,
            site: "-- glossary.yml --\ntitle: A\ndictionary:\n  cache: blocker\n-- blocker --\nnot a folder\n-- content/index.md --\n[[ink]]\n",
            arguments: ["build"], api: { _ in wordReply("ink") },
            expected: ["blocker/en/ink.json: warning: can't write the cache entry for 'ink': can't create {ROOT}/blocker/en: not a directory [cache-write]"]),
        Trigger(
            code: .cacheLeftover, site: page + "-- .glossary/cache/en/.ink.42.7.tmp --\n{\n", arguments: ["cache", "verify"],
            expected: [".glossary/cache/en/.ink.42.7.tmp:1:1: warning: leftover of an interrupted write; 'glossary cache prune' deletes it [cache-leftover]"]),
        Trigger(
            code: .staleDefinition,
            site:
                "-- glossary.yml --\ntitle: A\ndictionary:\n  max_age_days: 0\n  timeout_seconds: 2\n-- content/index.md --\n[[ink]]\n-- .glossary/cache/en/ink.json --\n"
                + cachedEntry("ink"),
            arguments: ["build"], api: { _ in .respond(status: 403, body: Data()) },
            expected: [
                "{API}/api/v2/entries/en/ink: warning: using the cached definition of 'ink' fetched 2024-01-02: unexpected HTTP 403 from the dictionary API for 'ink' [stale-definition]"
            ]),
        Trigger(
            code: .badAPIURL, site: "-- content/index.md --\n[[ink]]\n", arguments: ["build", "--api-url", "ftp://127.0.0.1:9/{word}"],
            expected: ["ftp://127.0.0.1:9/ink: error: can't request 'ink': not an http or https URL [bad-api-url]"]),
        Trigger(
            code: .apiUnreachable, site: "-- glossary.yml --\ntitle: A\ndictionary:\n  timeout_seconds: 2\n-- content/index.md --\n[[ink]]\n",
            arguments: ["build"],
            expected: ["http://127.0.0.1:9/api/v2/entries/en/ink: warning: can't connect to the dictionary API for 'ink' (4 attempts) [api-unreachable]"]),
        Trigger(
            code: .apiError, site: "-- content/index.md --\n[[ink]]\n", arguments: ["build"], api: { _ in .respond(status: 503, body: Data()) },
            expected: ["{API}/api/v2/entries/en/ink: warning: the dictionary API answered HTTP 503 for 'ink' (4 attempts) [api-error]"]),
        Trigger(
            code: .apiRateLimited, site: "-- content/index.md --\n[[ink]]\n", arguments: ["build"],
            api: { _ in .respond(status: 429, headers: ["Retry-After": "0"], body: Data()) },
            expected: [
                "{API}/api/v2/entries/en/ink: warning: the dictionary API kept answering HTTP 429 (too many requests) for 'ink' (6 attempts) [api-rate-limited]"
            ]),
        Trigger(
            code: .badResponse, site: "-- content/index.md --\n[[ink]]\n", arguments: ["build"], api: { _ in .json(200, "not json") },
            expected: ["{API}/api/v2/entries/en/ink: error: response for 'ink' is not valid JSON [bad-response]"]),
        Trigger(
            code: .wordNetUnavailable, site: "-- content/index.md --\n[[ink]]\n", environment: ["WNSEARCHDIR": "/nonexistent/wordnet"],
            expected: [
                "warning: no WordNet data folder at /nonexistent/wordnet (install wordnet-base, or set WNSEARCHDIR to the folder holding index.noun); building without WordNet [wordnet-unavailable]"
            ]),
    ]

    /// A small theme of the site's own, with or without its page template.
    static func themeFiles(page: String?) -> String {
        var files = "-- glossary.yml --\ntitle: A\ntheme: small\n"
        for name in ["term", "terms", "search", "404"] { files += "-- themes/small/templates/\(name).mustache --\n<p>{{title}}</p>\n" }
        if let page { files += "-- themes/small/templates/page.mustache --\n" + page }
        return files
    }

    static func wordReply(_ word: String) -> LoopbackServer.Reply {
        .json(200, #"[{"word":"\#(word)","meanings":[{"partOfSpeech":"noun","definitions":[{"definition":"A word."}]}]}]"#)
    }

    static func cachedEntry(_ word: String) -> String {
        """
        {"body": [{"meanings": [{"definitions": [{"definition": "A word."}], "partOfSpeech": "noun"}], "word": "\(word)"}],
         "fetched_at": "2024-01-02T03:04:05Z", "format": 1, "key": "\(word)", "language": "en", "status": 200,
         "url": "https://api.dictionaryapi.dev/api/v2/entries/en/\(word)"}

        """
    }

    @Test(arguments: triggers)
    func eachCodeIsReportedWithItsExactText(_ trigger: Trigger) async throws {
        let site = try TestSite(trigger.site)
        defer { site.remove() }
        try trigger.prepare(site.root)
        var environment = trigger.environment
        var server: LoopbackServer?
        if let api = trigger.api {
            let started = try LoopbackServer(fallback: api)
            server = started
            environment["GLOSSARY_API_URL"] = started.url("/api/v2/entries/{lang}/{word}")
        }
        defer { server?.stop() }
        let result = try await site.run(trigger.arguments, environment: environment)
        let root = site.root.standardizedFileURL.path
        let expected = trigger.expected.map { line in
            line.replacingOccurrences(of: "{ROOT}", with: root).replacingOccurrences(of: "{API}", with: server.map { $0.url("") } ?? "{API}")
        }
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = lines.firstIndex(of: expected[0])
        #expect(start != nil, "\(trigger.code.rawValue): no line \(expected[0].debugDescription) in:\n\(result.stderr)")
        if let start {
            #expect(Array(lines[start...].prefix(expected.count)) == expected, "\(result.stderr)")
        }
        #expect(trigger.code.severity == (expected[0].contains("error: ") ? .error : expected[0].contains(": note: ") ? .note : .warning))
        // A note never fails, --strict or not.
        if trigger.code.severity == .note { #expect(result.status == 0, "\(result.stderr)") }
        // A second build has nothing to do and says it all again, exactly as the first did (source lines too).
        if trigger.arguments.first == "build", result.status == 0 {
            let again = try await site.run(trigger.arguments, environment: environment)
            func diagnostics(_ stderr: String) -> [Substring] { stderr.split(separator: "\n").filter { !$0.hasPrefix("Built ") } }
            #expect(diagnostics(again.stderr) == diagnostics(result.stderr), "\(again.stderr)")
        }
    }

    @Test func everyCodeHasATrigger() {
        let triggered = Set(Self.triggers.map(\.code)).union(Self.triggeredElsewhere)
        #expect(Set(DiagnosticCode.allCases).subtracting(triggered).sorted().map(\.rawValue) == [])
    }

    /// Codes a site can't provoke from the command line, each triggered by a test of its own (named here).
    static let triggeredElsewhere: Set<DiagnosticCode> = [
        .readFailed,  // SiteSourceTests.aFileThatCantBeReadIsAnErrorSayingWhy
        .buildLocked,  // BuildCommandTests.aSecondBuildWaitsForTheFirstOrFailsWithNoWait
        .watchPolling,  // PreviewServerTests.whenInotifyCannotWatchTheServerPollsAndSaysSoOnce
    ]

    @Test func theReadmeListsEveryCode() async throws {
        let readme = try String(contentsOf: GlossaryBinary.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let missing = DiagnosticCode.allCases.filter { !readme.contains("`\($0.rawValue)`") }.map(\.rawValue)
        #expect(missing == [])
    }

    @Test func explainSaysWhatACodeMeansAndHowToFixIt() async throws {
        let site = try TestSite(Self.page)
        defer { site.remove() }
        for code in DiagnosticCode.allCases {
            let result = try await site.run(["explain", code.rawValue])
            #expect(result.status == 0)
            #expect(result.stdout == "\(code.rawValue) (\(code.severity.rawValue)): \(code.summary)\n\n\(code.fix)\n")
        }
        let bracketed = try await site.run(["explain", "[unknown-term]"])
        #expect(bracketed.stdout.hasPrefix("unknown-term (warning): a referenced term has no definition\n"))
        let list = try await site.run(["explain"])
        #expect(list.stdout.split(separator: "\n").count == DiagnosticCode.allCases.count)
        let unknown = try await site.run(["explain", "dup"])
        #expect(unknown.status == 64)
        #expect(
            unknown.stderr.hasPrefix(
                "error: no diagnostic code 'dup'; did you mean 'duplicate-key' or 'duplicate-page' or 'duplicate-term' or 'nav-duplicate-page'?\n"))
    }

    @Test func sourceLinesCanBeLeftOut() async throws {
        let site = try TestSite("-- content/index.md --\nSee the [[keybord]].\n")
        defer { site.remove() }
        let result = try await site.run(["build", "--offline", "--no-source-lines"])
        #expect(
            result.stderr.hasPrefix("content/index.md:1:9: warning: no definition found for 'keybord' (offline, and not in the cache) [unknown-term]\nBuilt "))
    }

    @Test func jsonAndGitHubFormats() async throws {
        let site = try TestSite(
            "-- content/index.md --\nSee the [[keybord]] and [[x]].\n-- content/glossary/a.md --\n---\nterm: x\n---\nA.\n-- content/glossary/b.md --\n---\nterm: X\n---\nB.\n"
        )
        defer { site.remove() }
        let json = try await site.run(["check", "--offline", "--format", "json"])
        #expect(json.status == 1)
        let objects = json.stdout.split(separator: "\n").map { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
        }
        #expect(objects.count == 2)
        #expect(objects.first?["code"] as? String == "duplicate-term")
        #expect(objects.first?["file"] as? String == "content/glossary/b.md")
        #expect(objects.first?["line"] as? Int == 2 && objects.first?["column"] as? Int == 7)
        let notes = objects.first?["notes"] as? [[String: Any]]
        #expect(notes?.first?["file"] as? String == "content/glossary/a.md")
        #expect(notes?.first?["message"] as? String == "'x' is first defined here")
        #expect(objects.last?["severity"] as? String == "warning")
        #expect(objects.last?["message"] as? String == "no definition found for 'keybord' (offline, and not in the cache)")

        let github = try await site.run(["check", "--offline", "--format", "github"])
        #expect(
            github.stdout.split(separator: "\n").map(String.init) == [
                "::error file=content/glossary/b.md,line=2,col=7,title=duplicate-term::'x' is already defined%0Acontent/glossary/a.md:2:7: note: 'x' is first defined here",
                "::warning file=content/index.md,line=1,col=9,title=unknown-term::no definition found for 'keybord' (offline, and not in the cache)",
            ])
        let bad = try await site.run(["check", "--format", "xml"])
        #expect(bad.status == 64)
        #expect(bad.stderr.hasPrefix("error: --format must be one of text, json, github, not 'xml'\n"))
    }

    @Test func pathsWithControlCharactersCantForgeADiagnosticLine() async throws {
        let site = try TestSite(Self.page)
        defer { site.remove() }
        try site.write("content/x\n1:2: error: forged.md", "See [[nothingz]].\n")
        let result = try await site.run(["build", "--offline", "--no-source-lines"])
        #expect(result.stderr.contains("content/x\\n1:2: error: forged.md:1:5: warning: no definition found for 'nothingz'"))
        #expect(!result.stderr.split(separator: "\n").contains { $0.hasPrefix("1:2: error: forged") })
    }
}
