import Foundation
import Synchronization
import Testing

@testable import GlossaryKit

/// An incremental rebuild produces exactly the bytes a fresh build does, after every kind of edit.
@Suite struct IncrementalBuilderTests {
    final class Folder: Sendable {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("glossary-incremental-\(UUID().uuidString)", isDirectory: true)

        deinit {
            try? FileManager.default.removeItem(at: root)
        }

        func write(_ path: String, _ text: String) throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }

        func remove(_ path: String) throws {
            try FileManager.default.removeItem(at: root.appendingPathComponent(path))
        }
    }

    static let theme: [String: String] = [
        "themes/default/templates/base.mustache": "<html><head><title>{{page_title}}</title></head><body>{{$content}}{{/content}}</body></html>\n",
        "themes/default/templates/page.mustache":
            "{{<base}}{{$content}}{{{page.content}}}<ul>{{#page.terms}}<li><a href=\"{{url}}\">{{word}}</a>: {{summary}}</li>{{/page.terms}}</ul>{{/content}}{{/base}}\n",
        "themes/default/templates/term.mustache":
            "{{<base}}{{$content}}<h1>{{term.word}}</h1>{{{term.body}}}{{#term.see_also}}<a href=\"{{url}}\">{{word}}</a>{{/term.see_also}}<ul>{{#term.used_on}}<li><a href=\"{{url}}\">{{title}}</a></li>{{/term.used_on}}</ul>{{/content}}{{/base}}\n",
        "themes/default/templates/terms.mustache":
            "{{<base}}{{$content}}{{#letters}}<h2>{{letter}}</h2>{{#terms}}<a href=\"{{url}}\">{{word}}</a>: {{summary}}{{/terms}}{{/letters}}{{/content}}{{/base}}\n",
        "themes/default/templates/search.mustache": "{{<base}}{{$content}}<form></form>{{/content}}{{/base}}\n",
        "themes/default/templates/404.mustache": "{{<base}}{{$content}}Not found{{/content}}{{/base}}\n",
        "themes/default/assets/site.css": "body {}\n",
    ]

    /// Edits applied one after another; after each, the incremental output must equal a fresh build's.
    static let edits: [(String, @Sendable (Folder) throws -> Void)] = [
        (
            "add a page",
            { try $0.write("content/guide/new.md", "---\ntitle: New\n---\nA new page about [[kerning]] and [[ligature]]. See [intro](intro.md).\n") }
        ),
        (
            "edit a term reference",
            { try $0.write("content/guide/intro.md", "---\ntitle: Intro\n---\n# Intro\n\nNow about [[tracking]] and [[the leading|leading]], not kerning.\n") }
        ),
        ("reference an unknown term", { try $0.write("content/index.md", "---\ntitle: Home\n---\nWelcome to [[kerning]] and [[nosuchterm]].\n") }),
        (
            "change a page title used on term pages",
            { try $0.write("content/guide/new.md", "---\ntitle: Renamed\n---\nA new page about [[kerning]] and [[ligature]]. See [intro](intro.md).\n") }
        ),
        ("delete a page", { try $0.remove("content/guide/intro.md") }),
        (
            "edit a glossary entry",
            {
                try $0.write(
                    "content/glossary/kerning.md",
                    "---\nterm: Kerning\naliases: [letter spacing pairs]\nsee_also: [leading, tracking]\n---\nThe space between **two** letters, adjusted.\n")
            }
        ),
        (
            "add a glossary entry for a known word",
            { try $0.write("content/glossary/ligature.md", "---\nterm: Ligature\n---\nTwo letters joined as one glyph.\n") }
        ),
        ("delete a glossary entry", { try $0.remove("content/glossary/tracking.md") }),
        (
            "edit a template",
            {
                try $0.write(
                    "themes/default/templates/term.mustache", "{{<base}}{{$content}}<h1 class=\"t\">{{term.word}}</h1>{{{term.body}}}{{/content}}{{/base}}\n")
            }
        ),
        ("edit a partial", { try $0.write("themes/default/templates/base.mustache", "<html><body class=\"b\">{{$content}}{{/content}}</body></html>\n") }),
        ("break the front matter", { try $0.write("content/index.md", "---\ntitle: [oops\n---\nx\n") }),
        ("fix it again", { try $0.write("content/index.md", "---\ntitle: Home again\n---\nWelcome back to [[kerning]].\n") }),
        (
            "re-add the deleted page",
            { try $0.write("content/guide/intro.md", "---\ntitle: Intro\n---\n# Intro\n\nBack, with [[kerning]] and a [link](../index.md).\n") }
        ),
        ("add a static file", { try $0.write("content/images/a.svg", "<svg/>\n") }),
        ("change the config", { try $0.write("glossary.yml", "title: Renamed Site\nbase_url: /docs/\n") }),
        ("edit a page after the config change", { try $0.write("content/guide/new.md", "---\ntitle: Renamed\n---\nSee [intro](intro.md) and [home](/).\n") }),
        (
            "use a dictionary word",
            {
                try $0.write(
                    ".glossary/cache/en/quill.json",
                    #"{"body":[{"meanings":[{"definitions":[{"definition":"A pen."}],"partOfSpeech":"noun"}],"word":"quill"}],"fetched_at":"2026-01-01T00:00:00Z","format":1,"key":"quill","language":"en","status":200,"url":"x"}"#)
                try $0.write("content/guide/new.md", "---\ntitle: Renamed\n---\nA [[quill]] here.\n")
            }
        ),
        ("change the language", { try $0.write("glossary.yml", "title: Renamed Site\nbase_url: /docs/\nlanguage: fr\n") }),
        ("change it back", { try $0.write("glossary.yml", "title: Renamed Site\nbase_url: /docs/\n") }),
    ]

    @Test func incrementalOutputEqualsAFreshBuildAfterEveryEdit() async throws {
        let folder = Folder()
        for (path, text) in Self.theme { try folder.write(path, text) }
        try folder.write("glossary.yml", "title: Site\n")
        try folder.write("content/index.md", "---\ntitle: Home\n---\nWelcome to [[kerning]].\n")
        try folder.write("content/guide/intro.md", "---\ntitle: Intro\n---\n# Intro\n\nAbout [[kerning]], [[tracking]] and [[leading]].\n")
        try folder.write("content/glossary/kerning.md", "---\nterm: Kerning\nsee_also: [leading]\n---\nThe space between two letters.\n")
        try folder.write("content/glossary/leading.md", "---\nterm: Leading\n---\nThe space between lines.\n")
        try folder.write("content/glossary/tracking.md", "---\nterm: Tracking\n---\nEven spacing of a word's letters.\n")
        // A cached dictionary entry, so dictionary terms take part too.
        try folder.write(
            ".glossary/cache/en/ligature.json",
            """
            {"body":[{"meanings":[{"antonyms":[],"definitions":[{"antonyms":[],"definition":"A joined glyph.","synonyms":[]}],"partOfSpeech":"noun","synonyms":["tie"]}],"phonetics":[],"word":"ligature"}],"fetched_at":"2026-01-01T00:00:00Z","format":1,"key":"ligature","language":"en","status":200,"url":"x"}
            """)

        var options = BuildOptions(source: folder.root)
        options.offline = true
        options.bodySuffix = "<script>reload</script>"
        let incremental = IncrementalBuilder(options: options)
        let first = await incremental.build()
        #expect(first.result.errors.isEmpty, "\(first.result.errors)")
        #expect(first.changedPaths == first.result.output?.paths)

        var previous = try #require(first.result.output)
        for (name, edit) in Self.edits {
            try edit(folder)
            let rebuilt = await incremental.build()
            let fresh = await SiteBuilder(options: options).build()
            #expect(rebuilt.result.diagnostics == fresh.diagnostics, "\(name)")
            guard let freshOutput = fresh.output else {
                #expect(rebuilt.result.output == nil, "\(name): the fresh build failed, the incremental one did not")
                #expect(rebuilt.changedPaths == nil)
                continue
            }
            let output = try #require(rebuilt.result.output, "\(name)")
            #expect(output.files.keys.sorted() == freshOutput.files.keys.sorted(), "\(name)")
            for (path, data) in freshOutput.files where output.files[path] != data {
                Issue.record("\(name): \(path) differs from a fresh build")
            }
            #expect(output.copies == freshOutput.copies, "\(name)")
            // The changed paths are exactly those whose bytes differ from the previous good build.
            let expected = Set(output.paths.filter { previous.files[$0] != output.files[$0] || previous.copies[$0] != output.copies[$0] })
                .union(previous.paths.subtracting(output.paths))
            #expect(rebuilt.changedPaths == expected, "\(name)")
            previous = output
        }
    }

    @Test func anEditRerendersOnlyThePageAndWhatShowsIt() async throws {
        let folder = Folder()
        for (path, text) in Self.theme { try folder.write(path, text) }
        try folder.write("glossary.yml", "title: Site\n")
        for index in 0..<20 {
            try folder.write("content/page-\(index).md", "---\ntitle: Page \(index)\n---\nAbout [[kerning]] and [[term\(index)]].\n")
            try folder.write("content/glossary/term\(index).md", "---\nterm: term\(index)\n---\nDefinition \(index).\n")
        }
        try folder.write("content/glossary/kerning.md", "---\nterm: Kerning\n---\nSpace.\n")
        var options = BuildOptions(source: folder.root)
        options.offline = true
        let incremental = IncrementalBuilder(options: options)
        _ = await incremental.build()

        try folder.write("content/page-3.md", "---\ntitle: Page 3\n---\nNow about [[term4]] only.\n")
        let build = await incremental.build()
        // The page; term3 and kerning lose a user; term4 gains one. Nothing else.
        #expect(build.changedPaths == ["page-3/index.html", "terms/term3/index.html", "terms/term4/index.html", "terms/kerning/index.html"])

        try folder.write("content/glossary/term7.md", "---\nterm: term7\n---\nA new definition.\n")
        let entry = await incremental.build()
        // The term page, the pages listing its summary, the index and the JSON the browser reads.
        #expect(entry.changedPaths == ["terms/term7/index.html", "page-7/index.html", "terms/index.html", "terms/index.json"])

        let nothing = await incremental.build()
        #expect(nothing.changedPaths == [])
    }

    /// A fetcher that answers nothing; only how often one is made matters here.
    struct SilentFetcher: DefinitionFetcher {
        func fetch(_ keys: [TermKey], language: String, progress: @escaping @Sendable (FetchProgress) -> Void) async -> [TermKey: FetchOutcome] { [:] }
    }

    @Test func theDictionaryClientFollowsTheConfigAndLastsWhileItIsUnchanged() async throws {
        let folder = Folder()
        for (path, text) in Self.theme { try folder.write(path, text) }
        try folder.write("glossary.yml", "title: Site\ndictionary:\n  concurrency: 4\n")
        try folder.write("content/index.md", "Hello.\n")
        let made = Mutex<[Int]>([])
        let incremental = IncrementalBuilder(options: BuildOptions(source: folder.root)) { config in
            made.withLock { $0.append(config.dictionary.concurrency) }
            return SilentFetcher()
        }
        _ = await incremental.build()
        try folder.write("content/index.md", "Hello again.\n")
        _ = await incremental.build()
        #expect(made.withLock { $0 } == [4], "an edit that leaves dictionary: alone keeps the client")
        try folder.write("glossary.yml", "title: Site\ndictionary:\n  concurrency: 2\n")
        _ = await incremental.build()
        #expect(made.withLock { $0 } == [4, 2], "a changed dictionary: setting makes a new client")
    }
}
