import Foundation
import TestSupport
import Testing

@testable import GlossaryKit

/// A build that reuses what earlier builds left (the state file for `glossary build`, the session's state for the
/// preview server) produces exactly the bytes and the problems of a build from nothing, after every kind of edit, with
/// the tests' theme, the built-in default theme and a theme overriding part of it.
@Suite struct IncrementalBuildTests {
    static let theme: [String: String] = [
        "themes/default/templates/base.mustache": "<html><head><title>{{page_title}}</title></head><body>{{$content}}{{/content}}</body></html>\n",
        // Every navigation value a page shows, so a stale one would be seen.
        "themes/default/templates/page.mustache":
            "{{<base}}{{$content}}<nav>{{#navigation.sidebar}}{{>level}}{{/navigation.sidebar}}</nav>"
            + "{{#navigation.breadcrumbs}}<a href=\"{{url}}\">{{title}}</a>{{/navigation.breadcrumbs}}<h1>{{page.title}}</h1>"
            + "{{#page.toc}}<a href=\"#{{id}}\">{{level}} {{text}}</a>{{/page.toc}}{{{page.content}}}"
            + "{{#navigation.section_entries}}<li><a href=\"{{url}}\">{{title}}</a></li>{{/navigation.section_entries}}"
            + "<ul>{{#page.terms}}<li><a href=\"{{url}}\">{{word}}</a>: {{summary}}</li>{{/page.terms}}</ul>"
            + "{{#navigation.previous}}<a rel=prev href=\"{{url}}\">{{title}}</a>{{/navigation.previous}}"
            + "{{#navigation.next}}<a rel=next href=\"{{url}}\">{{title}}</a>{{/navigation.next}}{{/content}}{{/base}}\n",
        "themes/default/templates/level.mustache":
            "<ul>{{hidden_before}}{{#items}}<li{{#current}} class=c{{/current}}{{#open}} class=o{{/open}}>{{title}} {{url}}"
            + "{{#children}}{{>level}}{{/children}}</li>{{/items}}{{hidden_after}} {{listed_at}}</ul>",
        "themes/default/templates/term.mustache":
            "{{<base}}{{$content}}<h1>{{term.word}}</h1>{{{term.body}}}{{#term.meanings}}{{#definitions}}<p>{{definition}}</p>{{/definitions}}{{#synonyms}}<a href=\"{{url}}\">{{word}}</a>{{/synonyms}}{{/term.meanings}}{{#term.see_also}}<a href=\"{{url}}\">{{word}}</a>{{/term.see_also}}{{#term.is_wordnet}}<small>WordNet</small>{{/term.is_wordnet}}{{#term.forms_used}}<i>{{.}}</i>{{/term.forms_used}}<ul>{{#term.used_on}}<li><a href=\"{{url}}\">{{title}}</a></li>{{/term.used_on}}</ul>{{#term.stale}}stale{{/term.stale}}{{/content}}{{/base}}\n",
        "themes/default/templates/terms.mustache":
            "{{<base}}{{$content}}{{#letters}}<h2>{{letter}}</h2>{{#terms}}<a href=\"{{url}}\">{{word}}</a>: {{summary}}{{/terms}}{{/letters}}{{/content}}{{/base}}\n",
        "themes/default/templates/search.mustache": "{{<base}}{{$content}}<form></form>{{/content}}{{/base}}\n",
        "themes/default/templates/404.mustache": "{{<base}}{{$content}}Not found{{/content}}{{/base}}\n",
        "themes/default/assets/site.css": "body {}\n",
    ]

    /// The themes the sites are built with: the tests' own (every navigation value a page shows, so a stale one would
    /// be seen), the built-in default theme, and the default theme with two templates and an asset of the site's own.
    enum SiteTheme: CaseIterable, Sendable {
        case test, builtIn, overriding

        var files: [String: String] {
            switch self {
            case .test: IncrementalBuildTests.theme
            case .builtIn: [:]
            case .overriding:
                [
                    "themes/default/templates/footer.mustache":
                        "<footer class=\"site\">{{site.title}} · {{page.title}} · {{#page.terms}}{{word}} {{/page.terms}}</footer>\n",
                    "themes/default/templates/term.mustache":
                        "{{<base}}{{$content}}<article><h1>{{term.word}}</h1>{{{term.body}}}{{#term.used_on}}<a href=\"{{url}}\">{{title}}</a>{{/term.used_on}}</article>{{/content}}{{/base}}\n",
                    "themes/default/assets/css/extra.css": "body { margin: 0; }\n",
                ]
            }
        }
    }

    static let startingSite: [String: String] = [
        "glossary.yml": "title: Site\n",
        "content/index.md": "---\ntitle: Home\n---\nWelcome to [[kerning]].\n",
        "content/guide/intro.md": "---\ntitle: Intro\n---\n# Intro\n\nAbout [[kerning]], [[tracking]] and [[leading]].\n",
        "content/glossary/kerning.md": "---\nterm: Kerning\nsee_also: [leading]\n---\nThe space between two letters.\n",
        "content/glossary/leading.md": "---\nterm: Leading\n---\nThe space between lines.\n",
        "content/glossary/tracking.md": "---\nterm: Tracking\n---\nEven spacing of a word's letters.\n",
        ".glossary/cache/en/ligature.json": cacheEntry("ligature", "A joined glyph.", synonyms: ["tie", "kerning"]),
    ]

    static func cacheEntry(_ word: String, _ definition: String, synonyms: [String] = [], fetched: String = "2026-01-01T00:00:00Z") -> String {
        let list = synonyms.map { "\"\($0)\"" }.joined(separator: ",")
        return
            #"{"body":[{"meanings":[{"definitions":[{"definition":"\#(definition)"}],"partOfSpeech":"noun","synonyms":[\#(list)]}],"word":"\#(word)"}],"fetched_at":"\#(fetched)","format":1,"key":"\#(word)","language":"en","status":200,"url":"x"}"#
            + "\n"
    }

    /// A site folder of a test's own.
    final class Folder: @unchecked Sendable {
        let root: URL
        /// The paths written, removed or moved since `takeTouched`, relative to the root: what a preview's watcher
        /// reports.
        private var touched: Set<String> = []

        /// A site of `files`, with `theme`'s files.
        init(_ files: [String: String], theme: SiteTheme = .test) throws {
            root = try InlineSite.temporaryFolder("glossary-incremental")
            try InlineSite.write(theme.files.merging(files) { $1 }, into: root)
        }

        deinit { try? FileManager.default.removeItem(at: root.deletingLastPathComponent().appendingPathComponent(root.lastPathComponent)) }

        func write(_ path: String, _ text: String) throws {
            touched.insert(path)
            try InlineSite.write([path: text], into: root)
        }
        /// Adds `text` at the end of a file.
        func append(_ path: String, _ text: String) throws {
            let old = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            try write(path, old + text)
        }
        func remove(_ path: String) throws {
            touched.insert(path)
            try FileManager.default.removeItem(at: root.appendingPathComponent(path))
        }
        /// The paths touched since the last call.
        func takeTouched() -> Set<String> {
            defer { touched = [] }
            return touched
        }
        func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path) }
        /// Moves a file or folder, making the folders the target needs (as a writer would, just before).
        func move(_ from: String, _ to: String) throws {
            touched.formUnion([from, to])
            let target = root.appendingPathComponent(to)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.moveItem(at: root.appendingPathComponent(from), to: target)
        }
    }

    /// Offline unless `dictionary` is given: then online, with the dictionary's clock as the build's. The preview
    /// server's builds add the live-reload tag to every page.
    static func options(_ folder: Folder, drafts: Bool = false, dictionary: ScriptedAPI? = nil, mode: Mode = .build) -> BuildOptions {
        var options = BuildOptions(source: folder.root)
        options.offline = dictionary == nil
        options.drafts = drafts
        options.jobs = 2
        if mode == .serve { options.bodySuffix = "<script src=\"/_glossary/live.js\"></script>" }
        if let dictionary { options.now = { dictionary.now } }
        return options
    }

    /// The dictionary API of builds that go online, with the clock they read: time moves only when a test moves it,
    /// and every word gets the same answer each time it is asked at the same time — some words are defined (their
    /// definition names the day), one is unknown to the API, and the API can't be reached for the rest.
    final class ScriptedAPI: DefinitionFetcher, @unchecked Sendable {
        static let defined: Set<String> = ["quill", "serif", "tusk", "kerning"]
        static let unknown: Set<String> = ["nosuchword"]
        private let lock = NSLock()
        private var time: Date

        init(start: Date) { time = start }

        var now: Date { lock.withLock { time } }

        func advance(seconds: TimeInterval) { lock.withLock { time += seconds } }

        func fetch(_ keys: [TermKey], language: String, progress: @escaping @Sendable (FetchProgress) -> Void) async -> [TermKey: FetchOutcome] {
            let at = now
            var outcomes: [TermKey: FetchOutcome] = [:]
            for key in keys {
                let url = "http://127.0.0.1:9/\(key.rawValue)"
                if Self.defined.contains(key.rawValue) {
                    let day = Int(at.timeIntervalSince1970 / 86_400)
                    let body = Data(
                        #"[{"word":"\#(key.rawValue)","meanings":[{"partOfSpeech":"noun","definitions":[{"definition":"Fetched on day \#(day)."}]}]}]"#.utf8)
                    outcomes[key] = .fetched(
                        CacheEntry(
                            key: key, language: language, url: url, status: 200, fetchedAt: at, entries: try! CacheEntry.decodeBody(body, status: 200),
                            body: body))
                } else if Self.unknown.contains(key.rawValue) {
                    outcomes[key] = .fetched(CacheEntry(key: key, language: language, url: url, status: 404, fetchedAt: at, entries: [], body: Data("{}".utf8)))
                } else {
                    outcomes[key] = .failed(Diagnostic(.apiCannotConnect(key: key.rawValue, attempts: 1), subject: url), unreachable: true)
                }
            }
            return outcomes
        }
    }

    /// Every file below `folder` by relative path (top-level dotfiles left out), with its bytes.
    static func tree(_ folder: URL) -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let path = String(url.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count + 1))
            if !path.hasPrefix(".") { files[path] = FileManager.default.contents(atPath: url.path) }
        }
        return files
    }

    /// What a build from nothing gives: its problems and every file's bytes.
    static func clean(_ options: BuildOptions, dictionary: ScriptedAPI? = nil) async -> (diagnostics: [Diagnostic], files: [String: Data]?) {
        let result = await SiteBuilder(options: options, fetcher: dictionary).build(into: MemorySink())
        guard let output = result.output else { return (result.diagnostics, nil) }
        var files = output.files
        for (path, url) in output.copies { files[path] = FileManager.default.contents(atPath: url.path) }
        return (result.diagnostics, files)
    }

    /// The two ways a build reuses earlier work.
    enum Mode: CaseIterable, Sendable {
        /// `glossary build`: the state read from its file each run; writes `site/` in a transaction.
        case build
        /// `glossary serve`: the state kept in memory for the session; writes a folder of its own in place.
        case serve
    }

    /// Runs builds of one folder in one mode, and checks each against a build from nothing.
    final class Builds: @unchecked Sendable {
        let folder: Folder
        let mode: Mode
        var drafts = false
        /// The API and clock of online builds; nil for offline ones.
        let dictionary: ScriptedAPI?
        /// The preview's builds, for `.serve`.
        let preview: PreviewBuilds?
        let dictionaries: Dictionaries
        /// How many builds took the text-edit shortcut.
        var patched = 0
        /// The files of the last build that succeeded (what the state says).
        var lastFiles: Set<String>?

        init(_ folder: Folder, mode: Mode, dictionary: ScriptedAPI? = nil) throws {
            self.folder = folder
            self.mode = mode
            self.dictionary = dictionary
            preview = mode == .serve ? try PreviewBuilds(folder: folder.root.appendingPathComponent(".glossary/build/serve-test/site")) : nil
            // What the preview server watches.
            preview?.watching(["content", "themes", "glossary.yml", ".glossary/cache"])
            dictionaries = Dictionaries(options: IncrementalBuildTests.options(folder))
        }

        /// The most URLs a sitemap file lists, when lowered.
        var sitemapLimit: Int?
        /// Where the term indexes are cut into shards, when lowered.
        var termShards: TermShards.Limits?
        /// The sizes the search index's shards are cut to, when lowered.
        var searchShards: SearchIndex.ShardSizes?

        var options: BuildOptions {
            var options = IncrementalBuildTests.options(folder, drafts: drafts, dictionary: dictionary, mode: mode)
            if let sitemapLimit { options.sitemapLimit = sitemapLimit }
            if let termShards { options.termShards = termShards }
            if let searchShards { options.searchShards = searchShards }
            return options
        }

        /// Builds incrementally (`hook` changing the contexts); returns the result and the output folder's files (nil
        /// when it failed).
        func build(hook: (@Sendable (String, inout MustacheValue) -> Void)? = nil) async -> (BuildResult, [String: Data]?) {
            var options = self.options
            options.contextHook = hook
            let makeFetcher = SiteBuilder.constant(dictionary)
            switch mode {
            case .build:
                let result = await SiteBuilder(options: options, makeFetcher: makeFetcher).buildAndWrite()
                return (result, result.succeeded ? IncrementalBuildTests.tree(options.outputDirectory) : nil)
            case .serve:
                // What a watcher would have seen: the build looks at those pages alone when they are all it says.
                preview!.noteChanges(folder.takeTouched())
                let result = await preview!.build(with: SiteBuilder(options: options, makeFetcher: makeFetcher, dictionaries: dictionaries))
                return (result, result.succeeded ? IncrementalBuildTests.tree(preview!.folder) : nil)
            }
        }

        /// A copy of the site's sources (not its output or the build's state), in a folder of the same name.
        func twinFolder() throws -> URL {
            let twin = try InlineSite.temporaryFolder("glossary-twin").appendingPathComponent(folder.root.lastPathComponent)
            try FileManager.default.copyItem(at: folder.root, to: twin)
            for generated in ["site", ".glossary/build"] { try? FileManager.default.removeItem(at: twin.appendingPathComponent(generated)) }
            return twin
        }

        /// Builds and compares with a build from nothing; `step` names the edit in failures.
        @discardableResult
        /// `clean` is the build from nothing when the caller has already made it (with the same hook), saving a build.
        func check(
            _ step: String, hook: (@Sendable (String, inout MustacheValue) -> Void)? = nil,
            clean known: (diagnostics: [Diagnostic], files: [String: Data]?)? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation
        ) async -> BuildResult {
            // An online build writes what it fetched into the cache, an input: the clean build starts from a copy of
            // the sources as the incremental one found them.
            let twin = dictionary == nil ? nil : try? twinFolder()
            defer { if let twin { try? FileManager.default.removeItem(at: twin.deletingLastPathComponent()) } }
            let (result, files) = await build(hook: hook)
            if result.stats.textEdit { patched += 1 }
            if let files, mode == .build {
                // The folders' signatures the state keeps are the folders' now (the next build trusts a folder by them).
                let state = StateFile.read(IncrementalBuildTests.stateFile(folder), context: SiteBuilder.context(options))
                #expect(state != nil, "\(mode) \(step): the state is read", sourceLocation: sourceLocation)
                let kept = state?.folders ?? [:]
                let now = SiteTransaction.folderSignatures(of: folder.root.appendingPathComponent("site"), folders: Set(kept.keys), jobs: 2)
                #expect(kept == now, "\(mode) \(step): folders \(kept.filter { now[$0.key] != $0.value }.keys.sorted())", sourceLocation: sourceLocation)
                #expect(Set(kept.keys) == SiteTransaction.folders(holding: files.keys), "\(mode) \(step)", sourceLocation: sourceLocation)
            }
            if let files {
                // (What the preview server then serves without listing them again.)
                if result.outputs?.sameFiles == true {
                    #expect(Set(files.keys) == lastFiles, "\(mode) \(step): said to have the last build's files", sourceLocation: sourceLocation)
                }
                lastFiles = Set(files.keys)
            }
            var cleanOptions = options
            cleanOptions.contextHook = hook
            if let twin { cleanOptions.source = twin }
            let (cleanDiagnostics, cleanFiles) = if let known { known } else { await IncrementalBuildTests.clean(cleanOptions, dictionary: dictionary) }
            #expect(result.diagnostics == cleanDiagnostics, "\(mode) \(step): problems differ", sourceLocation: sourceLocation)
            guard let cleanFiles else {
                #expect(files == nil, "\(mode) \(step): the clean build failed, the incremental one did not", sourceLocation: sourceLocation)
                return result
            }
            guard let files else {
                Issue.record("\(mode) \(step): the incremental build failed: \(result.errors)", sourceLocation: sourceLocation)
                return result
            }
            #expect(files.keys.sorted() == cleanFiles.keys.sorted(), "\(mode) \(step): the files differ", sourceLocation: sourceLocation)
            for (path, data) in cleanFiles where files[path] != data {
                Issue.record("\(mode) \(step): \(path) differs from a clean build", sourceLocation: sourceLocation)
            }
            return result
        }
    }

    /// Edits applied one after another; after each, the incremental output must equal a clean build's.
    static let edits: [(String, @Sendable (Folder) throws -> Void)] = [
        (
            "add a page",
            { try $0.write("content/guide/new.md", "---\ntitle: New\n---\nA new page about [[kerning]] and [[ligature]]. See [intro](intro.md).\n") }
        ),
        (
            "edit a term reference",
            { try $0.write("content/guide/intro.md", "---\ntitle: Intro\n---\n# Intro\n\nNow about [[tracking]] and [[the leading|leading]], not kerning.\n") }
        ),
        ("append a sentence to a page", { try $0.append("content/guide/intro.md", "\nMore about spacing, and kerning in plain text.\n") }),
        ("reword a page without moving its references", { try $0.write("content/index.md", "---\ntitle: Home\n---\nWelcome to [[kerning]]. Stay.\n") }),
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
        ("reference words only WordNet defines", { try $0.write("content/guide/words.md", "---\ntitle: Words\n---\nIn [[ink]], with a [[quill]].\n") }),
        (
            "reference inflected forms",
            {
                // ligature is cached, kerning a team entry, goose only in WordNet.
                try $0.write("content/guide/forms.md", "---\ntitle: Forms\n---\nSome [[ligatures]], [[Kernings]] and [[geese]].\n")
            }
        ),
        ("give a form's base a team entry", { try $0.write("content/glossary/goose.md", "---\nterm: Goose\n---\nA bird.\n") }),
        (
            "add a glossary entry for a cached word",
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
        ("edit an asset", { try $0.write("themes/default/assets/site.css", "body { color: red; }\n") }),
        ("break the front matter", { try $0.write("content/index.md", "---\ntitle: [oops\n---\nx\n") }),
        ("fix it again", { try $0.write("content/index.md", "---\ntitle: Home again\n---\nWelcome back to [[kerning]].\n") }),
        (
            "re-add the deleted page",
            { try $0.write("content/guide/intro.md", "---\ntitle: Intro\n---\n# Intro\n\nBack, with [[kerning]] and a [link](../index.md).\n") }
        ),
        ("give the guide an index page", { try $0.write("content/guide/index.md", "---\ntitle: The Guide\nweight: 2\n---\nStart here.\n") }),
        ("add a page to the guide", { try $0.write("content/guide/zeta.md", "---\ntitle: Zeta\n---\nLast by title.\n") }),
        ("weigh it first", { try $0.write("content/guide/zeta.md", "---\ntitle: Zeta\nweight: 1\n---\nFirst by weight.\n") }),
        ("rename a sibling", { try $0.write("content/guide/zeta.md", "---\ntitle: Alpha\nweight: 1\n---\nFirst by weight.\n") }),
        (
            "give a page headings",
            {
                try $0.write(
                    "content/guide/zeta.md",
                    "---\ntitle: Alpha\nweight: 1\n---\n## One\n\n### Two\n\n## Three\n\nSee [two](#two) and [intro](intro.md#intro).\n")
            }
        ),
        (
            "rename a heading a link points to",
            {
                try $0.write(
                    "content/guide/zeta.md",
                    "---\ntitle: Alpha\nweight: 1\n---\n## One\n\n### Deux\n\n## Three\n\nSee [two](#two) and [intro](intro.md#intro).\n")
            }
        ),
        (
            "turn the table of contents off",
            {
                try $0.write("content/guide/zeta.md", "---\ntitle: Alpha\nweight: 1\ntoc: false\n---\n## One\n\n### Deux\n\n## Three\n")
            }
        ),
        ("turn it on again", { try $0.write("content/guide/zeta.md", "---\ntitle: Alpha\nweight: 1\ntoc: true\n---\n## One\n\n### Deux\n\n## Three\n") }),
        (
            "order the site with nav:",
            {
                try $0.write("glossary.yml", "title: Site\nnav:\n  - guide/zeta.md\n  - Everything else:\n      - index.md\n      - guide/\n  - missing.md\n")
            }
        ),
        ("change the nav's order", { try $0.write("glossary.yml", "title: Site\nnav:\n  - Top: index.md\n  - guide/\n") }),
        ("drop nav:", { try $0.write("glossary.yml", "title: Site\n") }),
        ("remove a page from the guide", { try $0.remove("content/guide/zeta.md") }),
        ("remove the guide's index page", { try $0.remove("content/guide/index.md") }),
        ("add a static file", { try $0.write("content/images/a.svg", "<svg/>\n") }),
        ("change a static file", { try $0.write("content/images/a.svg", "<svg width=\"2\"/>\n") }),
        ("rename a page", { try $0.move("content/guide/new.md", "content/guide/newer.md") }),
        ("change the config", { try $0.write("glossary.yml", "title: Renamed Site\nbase_url: /docs/\n") }),
        ("edit a page after the config change", { try $0.write("content/guide/newer.md", "---\ntitle: Renamed\n---\nSee [intro](intro.md) and [home](/).\n") }),
        (
            "use a dictionary word",
            {
                try $0.write(".glossary/cache/en/quill.json", cacheEntry("quill", "A pen."))
                try $0.write("content/guide/newer.md", "---\ntitle: Renamed\n---\nA [[quill]] here.\n")
            }
        ),
        ("edit a cache file by hand", { try $0.write(".glossary/cache/en/quill.json", cacheEntry("quill", "A feather pen.", synonyms: ["kerning"])) }),
        ("corrupt a cache file", { try $0.write(".glossary/cache/en/quill.json", "{\"body\": [") }),
        ("delete a cache file", { try $0.remove(".glossary/cache/en/quill.json") }),
        ("drop an inflected form", { try $0.write("content/guide/forms.md", "---\ntitle: Forms\n---\nSome [[ligatures]] and [[geese]].\n") }),
        // A cache file that changes while no page uses its word is read again once one does.
        (
            "use a cached word",
            {
                try $0.write(".glossary/cache/en/tusk.json", cacheEntry("tusk", "A long tooth."))
                try $0.write("content/guide/tusk.md", "---\ntitle: Tusk\n---\nA [[tusk]].\n")
            }
        ),
        ("stop using it", { try $0.write("content/guide/tusk.md", "---\ntitle: Tusk\n---\nNo tusk.\n") }),
        ("change its cache file while unused", { try $0.write(".glossary/cache/en/tusk.json", cacheEntry("tusk", "A changed tooth.")) }),
        ("use it again", { try $0.write("content/guide/tusk.md", "---\ntitle: Tusk\n---\nA [[tusk]] again.\n") }),
        ("make a page a draft", { try $0.write("content/guide/intro.md", "---\ntitle: Intro\ndraft: true\n---\nDraft about [[kerning]].\n") }),
        ("change the language", { try $0.write("glossary.yml", "title: Renamed Site\nbase_url: /docs/\nlanguage: fr\n") }),
        ("change it back", { try $0.write("glossary.yml", "title: Renamed Site\nbase_url: /docs/\n") }),
        // What the exports, the sitemap and robots.txt read.
        ("give the site an address", { try $0.write("glossary.yml", "title: Renamed Site\nbase_url: /docs/\nsite: https://example.org\n") }),
        (
            "reference a term by a new spelling and date a page",
            {
                try $0.write("content/index.md", "---\ntitle: Home again\ndate: 2024-02-03\n---\nWelcome back to [[Kerning]] and [[letter spacing pairs]].\n")
            }
        ),
        (
            "show see-also links on term pages",
            {
                try $0.write(
                    "themes/default/templates/term.mustache",
                    "{{<base}}{{$content}}<h1>{{term.word}}</h1>{{#term.see_also}}<a href=\"{{url}}\">{{word}}</a>{{/term.see_also}}{{/content}}{{/base}}\n")
            }
        ),
        (
            "link a page from see_also",
            {
                try $0.write(
                    "content/glossary/kerning.md", "---\nterm: Kerning\nsee_also: [leading, ../guide/newer.md, /nowhere/]\n---\nThe space between letters.\n")
            }
        ),
        ("retitle the page a see_also link names", { try $0.write("content/guide/newer.md", "---\ntitle: Newer\n---\nA page.\n") }),
        ("add the site's own robots.txt", { try $0.write("content/robots.txt", "User-agent: *\nDisallow: /\n") }),
        ("remove it again", { try $0.remove("content/robots.txt") }),
        ("edit a cached definition the exports show", { try $0.write(".glossary/cache/en/ligature.json", cacheEntry("ligature", "Two joined glyphs.")) }),
        ("drop the address", { try $0.write("glossary.yml", "title: Renamed Site\nbase_url: /docs/\n") }),
        // Auto-linking: the matcher's terms are an input of every page that auto-links, though its file is unchanged.
        ("turn auto-linking on", { try $0.write("glossary.yml", "title: Renamed Site\nbase_url: /docs/\nautolink: all\n") }),
        ("add an entry a page mentions in plain text", { try $0.write("content/glossary/page.md", "---\nterm: page\naliases: [pages]\n---\nA leaf.\n") }),
        (
            "give an entry an alias pages mention",
            { try $0.write("content/glossary/leading.md", "---\nterm: Leading\naliases: [space]\n---\nThe space between lines.\n") }
        ),
        ("link only first uses on one page", { try $0.write("content/guide/tusk.md", "---\ntitle: Tusk\nautolink: first\n---\nA page, a page, a space.\n") }),
        ("delete an auto-linked entry", { try $0.remove("content/glossary/page.md") }),
        // With autolink_dictionary every page that auto-links depends on what all the others reference.
        ("mention a cached word in plain text", { try $0.write("content/guide/plain.md", "---\ntitle: Plain\n---\nA tusk, two tusks, kernings.\n") }),
        (
            "link the dictionary words pages reference",
            { try $0.write("glossary.yml", "title: Renamed Site\nbase_url: /docs/\nautolink: all\nautolink_dictionary: true\n") }
        ),
        ("reference the word on another page", { try $0.write("content/guide/tusk.md", "---\ntitle: Tusk\n---\nA [[tusk]].\n") }),
        (
            "give an entry a status, a concept and a note",
            {
                try $0.write(
                    "content/glossary/leading.md",
                    "---\nterm: Leading\naliases: [space]\nstatus: deprecated\nuse: kerning\nconcept: spacing\n---\nThe space between lines.\n\nNote: Old.\n")
            }
        ),
        (
            "mention another term in an entry's body",
            { try $0.write("content/glossary/leading.md", "---\nterm: Leading\naliases: [space]\n---\nThe space between lines, unlike kerning.\n") }
        ),
        ("stop referencing the word", { try $0.write("content/guide/tusk.md", "---\ntitle: Tusk\n---\nNo reference.\n") }),
        ("turn auto-linking off", { try $0.write("glossary.yml", "title: Renamed Site\nbase_url: /docs/\n") }),
    ]

    @Test(arguments: Mode.allCases, SiteTheme.allCases)
    func incrementalOutputEqualsACleanBuildAfterEveryEdit(mode: Mode, theme: SiteTheme) async throws {
        let folder = try Folder(Self.startingSite, theme: theme)
        let builds = try Builds(folder, mode: mode)
        await builds.check("first build")
        for (name, edit) in Self.edits {
            try edit(folder)
            await builds.check("\(theme): \(name)")
        }
        builds.drafts = true
        await builds.check("switch --drafts on")
        builds.drafts = false
        await builds.check("switch --drafts off")
    }

    /// A paged A–Z index: a new or removed term moves entries between a letter's pages, a letter's last page comes and
    /// goes, and the limit changes.
    @Test(arguments: Mode.allCases, [SiteTheme.builtIn, .test])
    func thePagedIndexFollowsNewAndRemovedTerms(mode: Mode, theme: SiteTheme) async throws {
        var files = ["glossary.yml": "title: Site\nsite: https://example.org\nterms_per_page: 2\n", "content/index.md": "Home.\n"]
        for word in ["a", "abbey", "abbot", "abc", "bee"] { files["content/glossary/\(word).md"] = "---\nterm: \(word)\n---\nSaid of \(word).\n" }
        let folder = try Folder(files, theme: theme)
        let builds = try Builds(folder, mode: mode)
        await builds.check("first build")
        #expect(Self.output(builds, "terms/_/a/2/index.html").contains("abc"))
        try folder.write("content/glossary/abacus.md", "---\nterm: abacus\n---\nBeads.\n")
        await builds.check("a term that moves the next ones on")
        #expect(Self.output(builds, "terms/_/a/3/index.html").contains("abc"))
        try folder.remove("content/glossary/abbey.md")
        await builds.check("a term removed")
        #expect(Self.output(builds, "terms/_/a/3/index.html") == "")
        try folder.write("content/glossary/bee.md", "---\nterm: Bee\n---\nSaid of a bee.\n")
        await builds.check("a summary changed")
        try folder.write("glossary.yml", "title: Site\nsite: https://example.org\nterms_per_page: 500\n")
        await builds.check("one page again")
        #expect(Self.output(builds, "terms/_/a/index.html") == "")
        try folder.write("glossary.yml", "title: Site\nsite: https://example.org\nterms_per_page: 1\n")
        await builds.check("a page per term")
    }

    /// A sitemap index's parts come and go as pages and terms do.
    @Test(arguments: Mode.allCases)
    func theSitemapIndexFollowsTheNumberOfURLs(mode: Mode) async throws {
        let folder = try Folder(["glossary.yml": "title: Site\nsite: https://example.org\n", "content/index.md": "Home.\n"], theme: .builtIn)
        let builds = try Builds(folder, mode: mode)
        builds.sitemapLimit = 3
        await builds.check("two URLs")
        #expect(Self.output(builds, "sitemap.xml").contains("<urlset"))
        for word in ["a", "b", "c"] { try folder.write("content/glossary/\(word).md", "---\nterm: \(word)\n---\nSaid of \(word).\n") }
        await builds.check("five URLs")
        #expect(Self.output(builds, "sitemap.xml").contains("<sitemapindex"))
        #expect(Self.output(builds, "sitemap-2.xml").contains("https://example.org/terms/c/"))
        for word in ["d", "e"] { try folder.write("content/glossary/\(word).md", "---\nterm: \(word)\n---\nSaid of \(word).\n") }
        await builds.check("seven URLs")
        #expect(Self.output(builds, "sitemap-3.xml").contains("https://example.org/terms/e/"))
        for word in ["b", "c", "d", "e"] { try folder.remove("content/glossary/\(word).md") }
        await builds.check("three URLs again")
        #expect(Self.output(builds, "sitemap-1.xml") == "")
    }

    /// The term indexes' shards move as terms come and go, and the indexes become one file again below the limit.
    @Test(arguments: Mode.allCases)
    func termIndexShardsFollowTheTerms(mode: Mode) async throws {
        let folder = try Folder(["glossary.yml": "title: Site\n", "content/index.md": "See [[b]].\n"], theme: .builtIn)
        let builds = try Builds(folder, mode: mode)
        // A term's record in terms/index.json takes over 100 bytes, so each of its shards holds one term; terms/api.json's
        // records are shorter, two or three a shard.
        builds.termShards = TermShards.Limits(file: 600, shard: 200)
        func term(_ word: String, aliases: String = "") throws {
            try folder.write("content/glossary/\(word).md", "---\nterm: \(word)\n\(aliases)---\nSaid of \(word).\n")
        }
        for word in ["b", "d", "f"] { try term(word) }
        await builds.check("three terms: one file")
        #expect(Self.output(builds, "terms/index.json").hasPrefix(#"{"terms":["#))
        for word in ["h", "j"] { try term(word) }
        await builds.check("five terms: shards")
        #expect(Self.output(builds, "terms/index.json").hasPrefix(#"{"shards":[{"file":"index.0.json","first":"b"},{"file":"index.1.json","first":"d"}"#))
        #expect(Self.output(builds, "terms/index.4.json").contains(#""key":"j""#))
        try term("a")
        await builds.check("a term before the first moves every boundary")
        #expect(Self.output(builds, "terms/index.json").hasPrefix(#"{"shards":[{"file":"index.0.json","first":"a"},{"file":"index.1.json","first":"b"}"#))
        try term("c", aliases: "aliases: [zz]\n")
        await builds.check("an alias puts its term in the last shard too")
        #expect(Self.output(builds, "terms/index.7.json").contains(#""key":"c""#))
        try folder.remove("content/glossary/d.md")
        await builds.check("a term removed")
        for word in ["a", "c", "h", "j"] { try folder.remove("content/glossary/\(word).md") }
        await builds.check("one file again")
        #expect(Self.output(builds, "terms/index.json").hasPrefix(#"{"terms":["#))
        #expect(Self.output(builds, "terms/index.0.json") == "" && Self.output(builds, "terms/api.0.json") == "")
    }

    /// A page's built HTML as the incremental build left it.
    static func output(_ builds: Builds, _ path: String) -> String {
        let folder = builds.preview?.folder ?? options(builds.folder).outputDirectory
        return (try? String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)) ?? ""
    }

    @Test(arguments: Mode.allCases)
    func aReferenceOnOnePageLinksTheWordInPlainTextOnAnother(mode: Mode) async throws {
        let folder = try Folder([
            "glossary.yml": "title: Site\nautolink: all\nautolink_dictionary: true\n",
            "content/a.md": "---\ntitle: A\n---\nNothing yet.\n",
            "content/b.md": "---\ntitle: B\n---\nTwo tusks.\n",
            ".glossary/cache/en/tusk.json": Self.cacheEntry("tusk", "A long tooth."),
        ])
        let builds = try Builds(folder, mode: mode)
        await builds.check("first build")
        let plain = "<p>Two tusks.</p>"
        #expect(Self.output(builds, "b/index.html").contains(plain))
        try folder.write("content/a.md", "---\ntitle: A\n---\nA [[tusk]].\n")
        await builds.check("reference the word")
        #expect(Self.output(builds, "b/index.html").contains("<p>Two <a class=\"term\" href=\"/terms/tusk/\" data-term=\"tusk\" data-autolink>tusks</a>.</p>"))
        #expect(Self.output(builds, "terms/tusk/index.html").contains("<a href=\"/b/\">B</a>"))
        try folder.write("content/a.md", "---\ntitle: A\n---\nNothing again.\n")
        await builds.check("stop referencing it")
        #expect(Self.output(builds, "b/index.html").contains(plain))
        #expect(Self.output(builds, "terms/tusk/index.html") == "")
    }

    /// Seeded random sequences of edits of every kind, including unchanged rebuilds, checked after each. A failing
    /// sequence is replayed by its seed: `GLOSSARY_SEED=n` runs that one alone, `GLOSSARY_STEPS=n` makes each longer.
    @Test(arguments: [
        (Mode.build, SiteTheme.test, UInt64(1)), (.serve, .test, 2), (.build, .builtIn, 3), (.serve, .builtIn, 4), (.build, .overriding, 5),
        (.serve, .overriding, 6),
    ])
    func randomEditSequencesMatchCleanBuilds(mode: Mode, theme: SiteTheme, seed: UInt64) async throws {
        try await Self.randomEdits(mode: mode, theme: theme, seed: seed, dictionary: nil)
    }

    /// The same online, the dictionary's clock moving on between builds and now and then by more than `max_age_days`,
    /// so cached definitions go stale: fetched again and rewritten by the build, or kept (and marked stale) when the
    /// API can't be reached.
    @Test(arguments: [(Mode.build, UInt64(7)), (Mode.serve, UInt64(8))])
    func randomEditSequencesWithTimePassingMatchCleanBuilds(mode: Mode, seed: UInt64) async throws {
        // Nine days after the starting site's cache entry was fetched.
        try await Self.randomEdits(mode: mode, theme: .test, seed: seed, dictionary: ScriptedAPI(start: Date(timeIntervalSince1970: 1_767_960_000)))
    }

    static func randomEdits(mode: Mode, theme: SiteTheme, seed: UInt64, dictionary: ScriptedAPI?) async throws {
        let environment = ProcessInfo.processInfo.environment
        if let only = environment["GLOSSARY_SEED"].flatMap(UInt64.init), only != seed { return }
        let steps = environment["GLOSSARY_STEPS"].flatMap(Int.init) ?? 30
        print("random edits: mode \(mode), theme \(theme), seed \(seed), \(steps) steps (replay with GLOSSARY_SEED=\(seed))")
        var random = SeededRandom(seed: seed)
        let folder = try Folder(Self.startingSite, theme: theme)
        // Online, a cached word the API can't be reached for is used from the start: once stale, it is kept as it is.
        if dictionary != nil { try folder.write("content/cached.md", "---\ntitle: Cached\n---\nA [[ligature]].\n") }
        let builds = try Builds(folder, mode: mode, dictionary: dictionary)
        // The search index in many shards, so that edits move terms between them.
        builds.searchShards = SearchIndex.ShardSizes(target: 150, limit: 400)
        await builds.check("seed \(seed): first build")
        var (staleSteps, refetched, keptStale) = (0, 0, 0)
        let words = ["kerning", "leading", "tracking", "ligature", "quill", "serif", "nosuchword", "ligatures", "geese", "ink"]
        var pages = ["content/index.md", "content/guide/intro.md"]
        var entries = ["content/glossary/kerning.md", "content/glossary/leading.md", "content/glossary/tracking.md"]
        /// Pages moved out of `content/`, to be moved back in later.
        var outside: [String] = []
        for step in 0..<steps {
            let word = { words[Int(random.next() % UInt64(words.count))] }
            var name = ""
            if let dictionary {
                // Long enough for a failed fetch to be tried again (the preview server rests it for a minute).
                dictionary.advance(seconds: 120)
                if random.next() % 4 == 0 {
                    dictionary.advance(seconds: 12 * 86_400)
                    staleSteps += 1
                    name = "12 days pass, then "
                }
            }
            switch random.next() % 19 {
            case 0:
                let path = step % 2 == 0 ? "content/p\(step).md" : "content/guide/p\(step).md"
                pages.append(path)
                // Plain words too, which auto-linking (when glossary.yml turns it on) may link.
                try folder.write(
                    path, "---\ntitle: Page \(step)\n---\nOn [[\(word())]] and [[\(word())]]; see [home](index.md). Plain \(word())s, \(word()).\n")
                name += "add \(path)"
            case 1 where !pages.isEmpty:
                let path = pages[Int(random.next() % UInt64(pages.count))]
                // Titles, weights, headings and the table of contents vary, so siblings' navigation does too.
                let weight = random.next() % 3 == 0 ? "weight: \(random.next() % 5)\n" : ""
                let toc = random.next() % 4 == 0 ? "toc: false\n" : ""
                let headings = (0..<Int(random.next() % 5)).map { "## Part \($0)\n\n" }.joined()
                try folder.write(
                    path, "---\ntitle: Edited \(step % 4)\n\(weight)\(toc)---\n# Heading \(step)\n\n\(headings)Now [[\(word())]] only, [back](#part-1).\n")
                name += "edit \(path)"
            case 2 where pages.count > 1:
                let path = pages.remove(at: Int(random.next() % UInt64(pages.count)))
                if folder.exists(path) { try folder.remove(path) }
                name += "delete \(path)"
            case 3 where !pages.isEmpty:
                let index = Int(random.next() % UInt64(pages.count))
                let target = "content/moved/m\(step).md"
                if folder.exists(pages[index]) { try folder.move(pages[index], target) }
                pages[index] = target
                name += "rename to \(target)"
            case 4:
                let path = "content/glossary/e\(step).md"
                entries.append(path)
                try folder.write(
                    path, "---\nterm: \(word())\(step % 2 == 0 ? "" : "s")\naliases: [alias\(step)]\n---\nDefined at step \(step), see [[\(word())]].\n")
                name += "add entry \(path)"
            case 5 where !entries.isEmpty:
                let path = entries[Int(random.next() % UInt64(entries.count))]
                if folder.exists(path) { try folder.write(path, "---\nterm: \(word())\nsee_also: [\(word())]\n---\nRedefined at \(step).\n") }
                name += "edit entry \(path)"
            case 6 where entries.count > 1:
                let path = entries.remove(at: Int(random.next() % UInt64(entries.count)))
                if folder.exists(path) { try folder.remove(path) }
                name += "delete entry \(path)"
            case 7:
                let cached = word()
                try folder.write(".glossary/cache/en/\(cached).json", Self.cacheEntry(cached, "Cached at \(step).", synonyms: [word()]))
                name += "cache \(cached)"
            case 8:
                let cached = word()
                let path = ".glossary/cache/en/\(cached).json"
                if random.next() % 2 == 0 {
                    try folder.write(path, "{ not json \(step)")
                    name += "corrupt \(path)"
                } else if folder.exists(path) {
                    try folder.remove(path)
                    name += "delete \(path)"
                }
            case 9:
                try folder.write("themes/default/templates/404.mustache", "{{<base}}{{$content}}Gone \(step){{/content}}{{/base}}\n")
                name += "edit a template"
            case 10:
                try folder.write("themes/default/assets/site.css", "body { margin: \(step)px; }\n")
                name += "edit an asset"
            case 11:
                let address = step % 3 == 0 ? "site: https://example.org\n" : ""
                let autolink = ["", "autolink: all\n", "autolink: first\nautolink_dictionary: true\n", "autolink: all\nautolink_dictionary: true\n"]
                try folder.write(
                    "glossary.yml",
                    "title: Site \(step % 3)\n" + (step % 2 == 0 ? "" : "base_url: /sub/\n") + address + autolink[Int(random.next() % 4)])
                name += "edit glossary.yml"
            case 12 where !pages.isEmpty:
                // Text only: the build after it may be the last one patched.
                let path = pages[Int(random.next() % UInt64(pages.count))]
                if folder.exists(path) { try folder.append(path, "\nMore text at step \(step), on \(word()).\n") }
                name += "append to \(path)"
            case 13 where !pages.isEmpty:
                // Into a folder made a moment before (what `mkdir`, then `mv`, gives).
                let index = Int(random.next() % UInt64(pages.count))
                let target = "content/new\(step)/" + (pages[index] as NSString).lastPathComponent
                try FileManager.default.createDirectory(at: folder.root.appendingPathComponent("content/new\(step)"), withIntermediateDirectories: true)
                if folder.exists(pages[index]) { try folder.move(pages[index], target) }
                pages[index] = target
                name += "move into the new folder \(target)"
            case 14:
                // A folder with its pages: every page below it moves.
                let folders = Set(
                    pages.compactMap { path -> String? in
                        let parent = (path as NSString).deletingLastPathComponent
                        return parent == "content" ? nil : parent
                    })
                guard let moved = folders.sorted().first(where: { _ in random.next() % 2 == 0 }) ?? folders.sorted().first, folder.exists(moved) else {
                    name += "no folder to move"
                    break
                }
                let target = "content/renamed\(step)"
                try folder.move(moved, target)
                pages = pages.map { $0.hasPrefix(moved + "/") ? target + $0.dropFirst(moved.count) : $0 }
                name += "move the folder \(moved) to \(target)"
            case 15 where !pages.isEmpty:
                let index = Int(random.next() % UInt64(pages.count))
                let target = "content/deep\(step)/a/b/" + (pages[index] as NSString).lastPathComponent
                if folder.exists(pages[index]) { try folder.move(pages[index], target) }
                pages[index] = target
                name += "move into nested new folders \(target)"
            case 16 where pages.count > 1:
                let path = pages.remove(at: Int(random.next() % UInt64(pages.count)))
                let away = "away\(step).md"
                if folder.exists(path) {
                    try folder.move(path, away)
                    outside.append(away)
                }
                name += "move \(path) out of content/"
            case 17 where !outside.isEmpty:
                let away = outside.removeFirst()
                let target = "content/back\(step)/" + away
                try folder.move(away, target)
                pages.append(target)
                name += "move \(away) back in as \(target)"
            case 18 where !pages.isEmpty:
                // Text only, in the middle of the page: the build after it may take the text-edit shortcut.
                let path = pages[Int(random.next() % UInt64(pages.count))]
                if folder.exists(path) {
                    var lines = try String(contentsOf: folder.root.appendingPathComponent(path), encoding: .utf8).components(separatedBy: "\n")
                    let end = lines.indices.filter { lines[$0] == "---" }.dropFirst().first ?? 0
                    let at = min(lines.count, end + 1 + Int(random.next() % UInt64(max(1, lines.count - end - 1))))
                    lines.insert(contentsOf: ["", "Words at step \(step): \(word()) and \(word()).", ""], at: at)
                    try folder.write(path, lines.joined(separator: "\n"))
                }
                name += "insert text in \(path)"
            default:
                builds.drafts.toggle()
                name += "drafts \(builds.drafts)"
            }
            let result = await builds.check("seed \(seed) step \(step): \(name.isEmpty ? "nothing" : name)")
            refetched += result.stats.fetched
            if result.diagnostics.contains(where: { $0.code == .staleDefinition }) { keptStale += 1 }
        }
        if dictionary != nil {
            // The sequence did what it is for: time passed, entries went stale and were fetched again or kept.
            #expect(staleSteps > 0 && refetched > 0 && keptStale > 0, "\(staleSteps) stale steps, \(refetched) fetched, \(keptStale) kept stale")
        }
    }

    /// A preview's build that fails leaves its changes to the next: that build, told only of its own, still sees a
    /// page changed before the failure.
    /// An unchanged entry is the state's record and body, not read again: a preview whose watcher saw only a page
    /// change keeps an entry's body as the last build read it, though the entry's file was rewritten behind the
    /// watcher's back; once the watcher reports the entry, its page shows the new body.
    @Test func anUnchangedEntrysBodyIsTheStatesNotItsFileReadAgain() async throws {
        let folder = try Folder(Self.startingSite)
        let builds = try Builds(folder, mode: .serve)
        _ = await builds.build()
        try InlineSite.write(["content/glossary/leading.md": "---\nterm: Leading\n---\nRewritten unseen.\n"], into: folder.root)
        // A new title: more than a text edit, so every record is loaded.
        try folder.write("content/index.md", "---\ntitle: Home again\n---\nWelcome to [[kerning]].\n")
        let (unseen, files) = await builds.build()
        #expect(unseen.succeeded && unseen.stats.textEdit == false)
        let page = String(decoding: try #require(files?["terms/leading/index.html"]), as: UTF8.self)
        #expect(page.contains("The space between lines.") && !page.contains("Rewritten unseen."))
        #expect(String(decoding: try #require(files?["index.html"]), as: UTF8.self).contains("Home again"))
        try folder.write("content/glossary/leading.md", "---\nterm: Leading\n---\nRewritten, seen.\n")
        let (seen, after) = await builds.build()
        #expect(seen.succeeded)
        #expect(String(decoding: try #require(after?["terms/leading/index.html"]), as: UTF8.self).contains("Rewritten, seen."))
    }

    @Test func aPreviewBuildAfterAFailedOneSeesTheChangesBeforeIt() async throws {
        let folder = try Folder(Self.startingSite)
        let builds = try Builds(folder, mode: .serve)
        await builds.check("first build")
        try folder.append("content/guide/intro.md", "\nA sentence before the failure.\n")
        try folder.write("content/index.md", "---\ntitle: [oops\n---\nx\n")
        let failed = await builds.check("edit a page and break another")
        #expect(!failed.succeeded)
        try folder.write("content/index.md", "---\ntitle: Home\n---\nFixed.\n")
        let fixed = await builds.check("fix the broken page")
        #expect(fixed.succeeded)
        let page = try String(contentsOf: builds.preview!.folder.appendingPathComponent("guide/intro/index.html"), encoding: .utf8)
        #expect(page.contains("A sentence before the failure."))
    }

    /// A site whose every word the dictionary knows wants nothing of the network once built: the next builds reuse
    /// the last one whole. Once `max_age_days` has passed they must
    /// not: the definitions are fetched again, with nothing else changed.
    @Test(arguments: Mode.allCases)
    func definitionsOlderThanMaxAgeAreFetchedAgainWithNothingElseChanged(mode: Mode) async throws {
        let dictionary = ScriptedAPI(start: Date(timeIntervalSince1970: 1_767_960_000))
        let folder = try Folder([
            "glossary.yml": "title: Site\ndictionary:\n  max_age_days: 10\n",
            "content/index.md": "---\ntitle: Home\n---\nA [[quill]] and a [[tusk]].\n",
        ])
        let builds = try Builds(folder, mode: mode, dictionary: dictionary)
        let first = await builds.check("first build")
        #expect(first.stats.fetched == 2 && first.diagnostics.isEmpty)
        dictionary.advance(seconds: 9 * 86_400)
        let again = await builds.check("nine days later")
        #expect(again.stats.fetched == 0 && again.outputs?.changed == [])
        dictionary.advance(seconds: 2 * 86_400)
        let stale = await builds.check("eleven days later")
        #expect(stale.stats.fetched == 2)
        #expect(stale.outputs?.changed.contains("terms/quill/index.html") == true, "the definition names the day it was fetched")
        #expect(Self.output(builds, "terms/tusk/index.html").contains("Fetched on day \(Int(dictionary.now.timeIntervalSince1970 / 86_400))."))
    }

    /// The state file of a folder's builds.
    static func stateFile(_ folder: Folder) -> URL {
        StateFile.url(folder: folder.root.appendingPathComponent(".glossary/build"), output: folder.root.appendingPathComponent("site"))
    }

    /// A page whose file goes or changes while the site is built, after its record was taken from the state and before
    /// its body is read again to render it — an editor's save or a checkout in the middle of a build: the build fails
    /// naming the file, never writes the page without its body, and the next build makes it whole. (Once written empty,
    /// the page was kept by every later build, its record being unchanged.)
    @Test(arguments: Mode.allCases)
    func aFileChangedWhileItsPageIsRenderedFailsTheBuildInsteadOfEmptyingThePage(mode: Mode) async throws {
        let folder = try Folder(Self.startingSite)
        let builds = try Builds(folder, mode: mode)
        await builds.check("first build")
        let path = "content/guide/intro.md"
        let intro = try String(contentsOf: folder.root.appendingPathComponent(path), encoding: .utf8)
        let meanwhile: [(String, @Sendable () -> Void, String)] = [
            ("removed", { try? folder.remove(path) }, "no such file or directory"),
            ("rewritten", { try? folder.write(path, "---\ntitle: Intro\n---\nRewritten.\n") }, "it changed while the site was built"),
        ]
        for (step, (name, change, reason)) in meanwhile.enumerated() {
            // Every page is rendered again, each from the record the state holds.
            try folder.write("glossary.yml", "title: Renamed \(step)\n")
            let (result, files) = await builds.build { output, _ in
                if output == "guide/intro/index.html" { change() }
            }
            #expect(files == nil, "\(name): the build succeeded")
            #expect(result.errors.map(\.description) == ["\(path):1:1: error: can't read file: \(reason) [read-failed]"])
            #expect(Self.output(builds, "guide/intro/index.html").contains("About <a"), "\(name): the last good page is left as it was")
            // Back as it was, the same bytes in a new file: its record holds, and the page is whole.
            try folder.write(path, intro)
            await builds.check("\(name), then back")
            #expect(Self.output(builds, "guide/intro/index.html").contains("About <a"))
        }
    }

    @Test func aLostOrDamagedStateMeansAFullBuildNeverAWrongOne() async throws {
        let folder = try Folder(Self.startingSite)
        let builds = try Builds(folder, mode: .build)
        await builds.check("first build")
        let state = Self.stateFile(folder)
        let bytes = try Data(contentsOf: state)
        try folder.write("content/index.md", "---\ntitle: Home\n---\nChanged with a damaged state: [[leading]].\n")
        // Damaged in the index (near its end) and in a record (near its start): neither is trusted.
        for at in [bytes.count - 100, bytes.count / 3] {
            var damaged = bytes
            damaged[at] ^= 0xFF
            try damaged.write(to: state)
            let afterDamage = await builds.check("state damaged at \(at)")
            if at > bytes.count / 2 { #expect(afterDamage.stats.written == afterDamage.stats.files, "a damaged index: everything was rendered again") }
            try folder.append("content/index.md", "\nAnd more.\n")
        }
        try bytes.prefix(bytes.count / 3).write(to: state)
        await builds.check("truncated state")
        try FileManager.default.removeItem(at: state)
        try folder.write("content/index.md", "---\ntitle: Home\n---\nAnd again: [[tracking]].\n")
        await builds.check("deleted state")
        // The output folder replaced behind the state's back is noticed too.
        try FileManager.default.removeItem(at: folder.root.appendingPathComponent("site"))
        await builds.check("deleted output")
    }

    @Test(arguments: Mode.allCases)
    func anEditRewritesOnlyThePageAndWhatShowsIt(mode: Mode) async throws {
        var files: [String: String] = ["glossary.yml": "title: Site\n", "content/glossary/kerning.md": "---\nterm: Kerning\n---\nSpace.\n"]
        for index in 0..<20 {
            files["content/page-\(index).md"] = "---\ntitle: Page \(index)\n---\nAbout [[kerning]] and [[term\(index)]].\n"
            files["content/glossary/term\(index).md"] = "---\nterm: term\(index)\n---\nDefinition \(index).\n"
        }
        let folder = try Folder(files)
        let builds = try Builds(folder, mode: mode)
        let first = await builds.check("first build")
        #expect(first.outputs?.changed.count == first.outputs?.paths.count)

        try folder.write("content/page-3.md", "---\ntitle: Page 3\n---\nNow about [[term4]] only.\n")
        let edit = await builds.check("edit a page")
        // The page; term3 and kerning lose a user; term4 gains one; the exports that list pages; the search index's
        // vocabulary and postings (its page list, titles unchanged, stays); llms-full.txt, which holds the page's text.
        // Nothing else: the TBX, the sitemap and llms.txt read no page's terms.
        // (Which of the search index's shards, `SearchIndexPatchTests` tells; the build equals a clean one.)
        let shards = { (changed: Set<String>?) in changed?.filter { !$0.hasPrefix("search/shards/") } }
        #expect(edit.outputs?.changed.contains { $0.hasPrefix("search/shards/") } == true)
        #expect(
            shards(edit.outputs?.changed) == [
                "page-3/index.html", "terms/term3/index.html", "terms/term4/index.html", "terms/kerning/index.html", "search/index.json",
                "glossary.json", "glossary.csv", "llms-full.txt",
            ])

        try folder.write("content/glossary/term7.md", "---\nterm: term7\n---\nA new definition.\n")
        let entry = await builds.check("edit an entry")
        // The term page, the pages listing its summary, the index, the JSON the browser and other sites read and the
        // exports; the search index, the results' summary of the term, and the llms files (its summary, its definition).
        #expect(entry.outputs?.changed.contains { $0.hasPrefix("search/shards/") } == true)
        #expect(
            shards(entry.outputs?.changed) == [
                "terms/term7/index.html", "page-7/index.html", "terms/index.html", "terms/index.json", "terms/api.json", "search/index.json",
                "search/docs/0.json", "glossary.json", "glossary.csv", "glossary.tbx", "llms.txt", "llms-full.txt",
            ])

        try folder.write("content/page-5.md", "---\ntitle: Page 5\ndate: 2024-01-01\n---\nAbout [[kerning]] and [[term5]].\n")
        let dated = await builds.check("date a page")
        // The page is rendered again (its file changed) to the same bytes: this theme shows no date. The date is the
        // sitemap's lastmod; no other output reads it.
        #expect(dated.outputs?.changed == ["sitemap.xml"])

        let nothing = await builds.check("nothing changed")
        #expect(nothing.outputs?.changed == [])
        #expect(nothing.stats.written == 0)
    }

    /// A build after an edit of pages' text or entries' bodies alone takes the text-edit shortcut (`TextEdit`), in
    /// `glossary build` and the preview server alike; any other edit goes the long way. Either way the output is a clean build's (`check`).
    @Test(arguments: Mode.allCases)
    func aTextEditTakesTheShortcutAndNothingElseDoes(mode: Mode) async throws {
        // With the llms files (the default): `llms-full.txt` holds the pages' text, and is patched too.
        var files: [String: String] = [
            "glossary.yml": "title: Site\n", "content/glossary/kerning.md": "---\nterm: Kerning\n---\nSpace.\n",
            ".glossary/cache/en/ligature.json": Self.cacheEntry("ligature", "A joined glyph."),
            "content/unknown.md": "---\ntitle: Unknown\n---\nOn [[nosuchterm]].\n",
        ]
        for index in 0..<4 { files["content/page-\(index).md"] = "---\ntitle: Page \(index)\n---\n## Part\n\nAbout [[kerning]] & <things>.\n" }
        let folder = try Folder(files, theme: .builtIn)
        let builds = try Builds(folder, mode: mode)
        await builds.check("first build")

        try folder.append("content/page-1.md", "\nA zygote, newly searched for.\n")
        let appended = await builds.check("append text")
        #expect(appended.stats.textEdit)
        #expect(appended.outputs?.changed.contains("page-1/index.html") == true)
        #expect(appended.outputs?.changed.contains(where: { $0.hasPrefix("search/") }) == true)
        #expect(appended.outputs?.changed.contains("llms-full.txt") == true)
        #expect(appended.outputs?.changed.allSatisfy { $0 == "page-1/index.html" || $0 == "llms-full.txt" || $0.hasPrefix("search/") } == true)
        #expect(Self.output(builds, "page-1/index.html").contains("zygote"))

        try folder.append("content/page-1.md", "\nAnd again.\n")
        try folder.append("content/page-2.md", "\nTwo pages at once.\n")
        #expect(await builds.check("append to two pages").stats.textEdit)
        try folder.write(
            "content/page-3.md", "---\ntitle: Page 3\n---\n## Part\n\nA paragraph first, moving what comes after it.\n\nAbout [[kerning]] & <things>.\n")
        #expect(await builds.check("move a reference down the page").stats.textEdit)

        try folder.append("content/glossary/kerning.md", "\nMore space.\n")
        #expect(await builds.check("edit an entry's text").stats.textEdit)

        let notPatched: [(String, () throws -> Void)] = [
            ("reference another term", { try folder.append("content/page-0.md", "\nSee [[ligature]].\n") }),
            ("add a heading", { try folder.append("content/page-0.md", "\n## More\n") }),
            ("retitle a page", { try folder.write("content/page-3.md", "---\ntitle: Page Three\n---\n## Part\n\nAbout [[kerning]].\n") }),
            ("add a link", { try folder.append("content/page-3.md", "\nSee [one](page-1.md).\n") }),
            ("edit an entry's summary", { try folder.write("content/glossary/kerning.md", "---\nterm: Kerning\n---\nMore space.\n") }),
            ("edit a page a problem points into", { try folder.append("content/unknown.md", "\nStill unknown.\n") }),
            (
                "edit a page and the configuration",
                {
                    try folder.append("content/page-3.md", "\nText.\n")
                    try folder.write("glossary.yml", "title: Site again\n")
                }
            ),
            ("add a page", { try folder.write("content/page-9.md", "---\ntitle: Page 9\n---\nNew.\n") }),
            ("break a page", { try folder.write("content/page-2.md", "---\ntitle: [oops\n---\nx\n") }),
        ]
        for (step, edit) in notPatched {
            try edit()
            #expect(await builds.check(step).stats.textEdit == false, "\(step)")
        }
        try folder.write("content/page-2.md", "---\ntitle: Page 2\n---\n## Part\n\nAbout [[kerning]] & <things>, fixed.\n")
        await builds.check("fix it")
        try folder.append("content/page-2.md", "\nPatched again.\n")
        #expect(await builds.check("append text after all that").stats.textEdit)
        let same = try String(contentsOf: folder.root.appendingPathComponent("content/page-2.md"), encoding: .utf8)
        try folder.write("content/page-2.md", same)
        let rewritten = await builds.check("rewrite a page with the same bytes")
        #expect(rewritten.outputs?.changed == [] && rewritten.stats.written == 0)
    }

    /// `llms-full.txt` and the pages' markdown hold the pages' text: a text edit remakes the page's markdown and
    /// patches `llms-full.txt` (`TextEdit`), and they follow every other edit as a clean build would have them.
    @Test(arguments: Mode.allCases)
    func aSiteWithLLMsFilesTakesTheShortcutOnATextEdit(mode: Mode) async throws {
        var files = Self.startingSite
        files["glossary.yml"] = "title: Site\nllms: pages\n"
        let folder = try Folder(files, theme: .builtIn)
        let builds = try Builds(folder, mode: mode)
        await builds.check("first build")
        try folder.append("content/guide/intro.md", "\nA zygote, newly written.\n")
        let appended = await builds.check("append text")
        #expect(appended.stats.textEdit)
        #expect(appended.outputs?.changed.isSuperset(of: ["guide/intro/index.html", "guide/intro/index.md", "llms-full.txt"]) == true)
        #expect(Self.output(builds, "llms-full.txt").contains("A zygote, newly written."))
        #expect(Self.output(builds, "guide/intro/index.md").contains("A zygote, newly written."))
        let edits: [(String, () throws -> Void)] = [
            ("retitle a page", { try folder.write("content/index.md", "---\ntitle: Start\ndescription: Begin.\n---\nWelcome to [[leading]].\n") }),
            ("edit an entry", { try folder.write("content/glossary/leading.md", "---\nterm: Leading\n---\nSpace between lines of type.\n") }),
            ("add a page", { try folder.write("content/guide/more.md", "---\ntitle: More\n---\nOn [[tracking]].\n") }),
            ("delete a glossary entry", { try folder.remove("content/glossary/tracking.md") }),
            ("no page markdown", { try folder.write("glossary.yml", "title: Site\nllms: true\n") }),
            ("cut the full text", { try folder.write("glossary.yml", "title: Site\nllms_full_max_bytes: 150\n") }),
            ("no llms files", { try folder.write("glossary.yml", "title: Site\nllms: false\n") }),
            ("all of them again", { try folder.write("glossary.yml", "title: Site\nllms: pages\nsite: https://example.org\n") }),
        ]
        for (step, edit) in edits {
            try edit()
            await builds.check(step)
        }
        #expect(Self.output(builds, "llms.txt").contains("- [Start](https://example.org/index.md): Begin.\n"))
        try folder.append("content/guide/more.md", "\nMore text.\n")
        #expect(await builds.check("append text again").stats.textEdit)
        let again = await builds.check("nothing changed")
        #expect(again.outputs?.changed == [] && again.stats.written == 0)
    }

    /// What a page's text for language models is made of beside its text — its links into the site (relative, with a
    /// fragment, site-absolute), its references (shown otherwise, escaped) and the site's address or root
    /// path — comes from the state on a text edit: the files are a clean build's.
    @Test(
        arguments: Mode.allCases,
        ["llms: pages\nsite: https://example.org/\n", "llms: pages\nbase_url: /docs/\n", ""])
    func aTextEditRemakesThePagesTextForLanguageModels(mode: Mode, config: String) async throws {
        var files = Self.startingSite
        files["glossary.yml"] = "title: Site\n" + config
        files["content/guide/links.md"] =
            "---\ntitle: Links\n---\nSee [the intro](intro.md), [its part](intro.md#intro), [home](/), [up](../intro/#intro)"
            + " and [out](https://example.com/).\n\nOn [[the leading|leading]], [[Tracking]] and \\[[kerning]].\n\n[ref]: intro.md\n"
        let folder = try Folder(files, theme: .builtIn)
        let builds = try Builds(folder, mode: mode)
        await builds.check("first build")
        for step in 0..<3 {
            try folder.append("content/guide/links.md", "\nText \(step): the leading, \\[[not a reference]].\n")
            try folder.append("content/guide/intro.md", "\nMore \(step).\n")
            #expect(await builds.check("edit two pages' text, \(step)").stats.textEdit)
        }
        #expect(Self.output(builds, "llms-full.txt").contains("Text 2: the leading"))
    }

    /// A cut `llms-full.txt` holds what fits of the pages' text in order: a text edit patches it only while that stays
    /// as it was (a page in it grows within the limit, a page left out stays too long), and goes the long way when the
    /// edit makes the file exceed its limit, or when the file holds no page's text to tell where the pages end. Either
    /// way the file is a clean build's (shrinking pages: `aShrinkingPageKeepsTheShortcutWhileTheCutStays`).
    @Test(arguments: Mode.allCases)
    func aCutLLMsFullTextGoesTheLongWayWhenWhatFitsMayChange(mode: Mode) async throws {
        var files = Self.startingSite
        files["content/index.md"] = "---\ntitle: Home\n---\nWelcome to [[kerning]].\n\nA second paragraph, long enough to shrink.\n"
        let folder = try Folder(files, theme: .builtIn)
        let builds = try Builds(folder, mode: mode)
        await builds.check("first build")
        let whole = Self.output(builds, "llms-full.txt")
        let intro = try #require(whole.range(of: "---\n\nURL: /guide/intro/"))
        // The home page fits, the intro doesn't.
        let limit = whole[..<intro.lowerBound].utf8.count + 20
        try folder.write("glossary.yml", "title: Site\nllms_full_max_bytes: \(limit)\n")
        await builds.check("cut after the home page")
        #expect(Self.output(builds, "llms-full.txt").contains("This file is cut at \(limit) bytes"))
        try folder.append("content/guide/intro.md", "\nA zygote, and more words than fit.\n")
        #expect(await builds.check("append text to a page left out").stats.textEdit)
        try folder.append("content/index.md", "\nMore.\n")
        #expect(await builds.check("grow a page in the file within the limit").stats.textEdit)
        try folder.append("content/index.md", "\nAnd a paragraph longer than what is left of the limit.\n")
        #expect(await builds.check("grow a page in the file past the limit").stats.textEdit == false)
        try folder.write("content/index.md", "---\ntitle: Home\n---\nWelcome to [[kerning]].\n\nShort.\n")
        #expect(await builds.check("shrink the home page, left out since the last step").stats.textEdit == false)

        try folder.write("glossary.yml", "title: Site\nllms: true\n")
        await builds.check("uncut")
        let size = Self.output(builds, "llms-full.txt").utf8.count
        try folder.write("glossary.yml", "title: Site\nllms_full_max_bytes: \(size + 5)\n")
        await builds.check("a limit just above its size")
        try folder.append("content/guide/intro.md", "\nA few more words.\n")
        #expect(await builds.check("append more than fits").stats.textEdit == false)
        #expect(Self.output(builds, "llms-full.txt").contains("This file is cut at"))
    }

    /// A page in a cut `llms-full.txt` that shrinks, or the first page left out when it is edited, takes the shortcut
    /// while that page still doesn't fit after the pages in the file, and goes the long way once it would: a clean
    /// build would then hold it. The file is a clean build's at every step.
    @Test(arguments: Mode.allCases)
    func aShrinkingPageKeepsTheShortcutWhileTheCutStays(mode: Mode) async throws {
        var files = Self.startingSite
        let long = String(repeating: "A paragraph long enough to let the next page in. ", count: 8).trimmingCharacters(in: .whitespaces)
        files["content/index.md"] = "---\ntitle: Home\n---\nWelcome to [[kerning]].\n\nShort.\n\n\(long)\n"
        let folder = try Folder(files, theme: .builtIn)
        let builds = try Builds(folder, mode: mode)
        await builds.check("first build")
        let whole = Self.output(builds, "llms-full.txt")
        let intro = try #require(whole.range(of: "---\n\nURL: /guide/intro/"))
        let introEnd = try #require(whole.range(of: "---\n\n", range: intro.upperBound..<whole.endIndex))
        let introPart = whole[intro.lowerBound..<introEnd.lowerBound].utf8.count
        // The home page fits, the intro doesn't: it would after the long paragraph goes, not after "Short." goes.
        let room = 20
        let limit = whole[..<intro.lowerBound].utf8.count + room
        try #require(introPart - room > "Short.\n\n".utf8.count && introPart - room <= long.utf8.count)
        try folder.write("glossary.yml", "title: Site\nllms_full_max_bytes: \(limit)\n")
        await builds.check("cut after the home page")
        #expect(Self.output(builds, "llms-full.txt").contains("This file is cut at \(limit) bytes"))

        try folder.write("content/index.md", "---\ntitle: Home\n---\nWelcome to [[kerning]].\n\n\(long)\n")
        #expect(await builds.check("shrink the home page: the intro still doesn't fit").stats.textEdit)
        try folder.write("content/guide/intro.md", "---\ntitle: Intro\n---\n# Intro\n\nOn [[kerning]], [[tracking]] and [[leading]].\n")
        #expect(await builds.check("shrink the first page left out: it still doesn't fit").stats.textEdit)
        try folder.append("content/guide/intro.md", "\nMore about them.\n")
        #expect(await builds.check("grow the first page left out").stats.textEdit)
        try folder.write("content/index.md", "---\ntitle: Home\n---\nWelcome to [[kerning]].\n")
        #expect(await builds.check("shrink the home page: the intro fits").stats.textEdit == false)
        #expect(Self.output(builds, "llms-full.txt").contains("URL: /guide/intro/"))
    }

    @Test func aBuildWithNothingToDoLeavesTheSiteAsItIs() async throws {
        let folder = try Folder(Self.startingSite)
        let options = Self.options(folder)
        let site = folder.root.appendingPathComponent("site")
        let previous = folder.root.appendingPathComponent(".site.previous")
        _ = await SiteBuilder(options: options).buildAndWrite()
        _ = await SiteBuilder(options: options).buildAndWrite()
        func identity(_ url: URL) -> FileSignature.Identity? { FileSignature(path: url.path)?.identity }
        let before = (identity(site), identity(previous), Self.tree(site))
        let again = await SiteBuilder(options: options).buildAndWrite()
        #expect(again.succeeded && again.stats.written == 0 && again.outputs?.changed == [])
        #expect(identity(site) == before.0 && identity(previous) == before.1, "no swap: both folders are the ones there were")
        #expect(Self.tree(site) == before.2)

        // A folder removed by hand is made again, whole, by the next build (and one renamed: the new name goes).
        try FileManager.default.removeItem(at: site.appendingPathComponent("terms"))
        _ = await SiteBuilder(options: options).buildAndWrite()
        #expect(Self.tree(site) == before.2, "the removed folder is back")
        try FileManager.default.moveItem(at: site.appendingPathComponent("guide"), to: site.appendingPathComponent("guide-old"))
        _ = await SiteBuilder(options: options).buildAndWrite()
        #expect(Self.tree(site) == before.2, "the renamed folder is back under its name, and only there")
        // A file changed or added by hand in the live site means it is not the build: the next one replaces it.
        try Data("tampered".utf8).write(to: site.appendingPathComponent("index.html"))
        _ = await SiteBuilder(options: options).buildAndWrite()
        #expect(Self.tree(site) == before.2, "the tampered page is written again")
        try Data("stray".utf8).write(to: site.appendingPathComponent("terms/stray.html"))
        try Data("kept".utf8).write(to: site.appendingPathComponent(".nojekyll"))
        _ = await SiteBuilder(options: options).buildAndWrite()
        #expect(Self.tree(site) == before.2, "the stray file is gone")
        #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent(".nojekyll").path), "a top-level dotfile is the owner's")
    }

    /// The state kept for an output folder that is gone is removed by the next build, of any output folder; the state
    /// of folders still there, and files that are not states, stay.
    @Test func theStateOfAnOutputFolderThatIsGoneIsRemoved() async throws {
        let folder = try Folder(Self.startingSite)
        let stateFolder = folder.root.appendingPathComponent(".glossary/build")
        func names() -> Set<String> { Set(((try? FileManager.default.contentsOfDirectory(atPath: stateFolder.path)) ?? []).filter { $0 != "lock" }) }
        _ = await SiteBuilder(options: Self.options(folder)).buildAndWrite()
        let main = Self.stateFile(folder).lastPathComponent
        #expect(names() == [main])
        var elsewhere = Self.options(folder)
        elsewhere.output = folder.root.appendingPathComponent("preview")
        _ = await SiteBuilder(options: elsewhere).buildAndWrite()
        let preview = StateFile.url(folder: stateFolder, output: elsewhere.outputDirectory).lastPathComponent
        #expect(names() == [main, preview])
        try Data("not a state".utf8).write(to: stateFolder.appendingPathComponent("state-0123456789abcdef"))

        let unchanged = await SiteBuilder(options: Self.options(folder)).buildAndWrite()
        #expect(unchanged.stats.written == 0)
        #expect(names() == [main, preview, "state-0123456789abcdef"], "both folders are there")
        try FileManager.default.removeItem(at: elsewhere.outputDirectory)
        _ = await SiteBuilder(options: Self.options(folder)).buildAndWrite()
        #expect(names() == [main, "state-0123456789abcdef"], "the preview folder's state is gone, after a build with nothing to do")
        // The folder built again is built in full.
        let again = await SiteBuilder(options: elsewhere).buildAndWrite()
        #expect(again.succeeded && again.stats.written == again.stats.files)
        #expect(names() == [main, preview, "state-0123456789abcdef"])
    }

    /// A file written just before a build (its signature younger than a second when the build looked) is read again
    /// by the next build and compared by its bytes, not trusted by its signature — and costs that build one read, not
    /// its shortcuts: the build after a write and a build is one with nothing to do, however soon it follows.
    @Test(arguments: Mode.allCases)
    func aFileWrittenJustBeforeABuildCostsTheNextOneARead(mode: Mode) async throws {
        let folder = try Folder(Self.startingSite)
        let builds = try Builds(folder, mode: mode)
        await builds.check("first build")
        for step in 0..<3 {
            try folder.append("content/guide/intro.md", "\nWritten at once, \(step).\n")
            await builds.check("build just after a write \(step)")
            let again = await builds.check("build again at once \(step)")
            #expect(again.outputs?.changed == [] && again.stats.written == 0)
            #expect(!again.stats.stageTimes.contains { $0.name == "parse" || $0.name == "render" }, "\(again.stats.stageTimes.map(\.name))")
        }
    }

    /// A racy file whose bytes changed under an unchanged signature is noticed by its bytes.
    @Test func aRacyFileIsComparedByItsBytes() throws {
        let folder = try Folder(["glossary.yml": "title: Site\n", "content/a.md": "One.\n", "content/b.png": "png"])
        let (source, _) = SiteSource.scan(root: folder.root)
        let now = Date().timeIntervalSince1970
        var state = BuildState(context: .zero)
        state.verifiedAt = now
        let page = try #require(source.markdownFiles.first)
        let image = try #require(source.staticFiles.first)
        state.digest = InputCheck.digest(source: source, theme: nil)
        // What the state says the files held: the page's and the image's bytes as they are, and as they were not.
        for (bytes, expected) in [("One.\n", true), ("Two.\n", false)] {
            state.pages["a.md"] = .init(signature: try #require(page.signature), hash: .of(bytes: Array(bytes.utf8)))
            state.files[image.path] = .init(signature: image.signature, hash: .of(bytes: Array((expected ? "png" : "gif").utf8)))
            let check = InputCheck(source: source, theme: nil, state: state, verifiedAt: now, jobs: 2)
            #expect(check.nothingChanged == expected, "signatures written a moment before the look are not trusted")
            #expect((check.unchanged["a.md"] != nil) == expected)
        }
        // The same file, settled when it was looked at: trusted by its signature alone.
        state.verifiedAt = now + 5
        let settled = InputCheck(source: source, theme: nil, state: state, verifiedAt: now + 5, jobs: 2)
        #expect(settled.nothingChanged)
    }

    @Test func cleanForgetsTheState() async throws {
        let folder = try Folder(Self.startingSite)
        var options = Self.options(folder)
        _ = await SiteBuilder(options: options).buildAndWrite()
        let again = await SiteBuilder(options: options).buildAndWrite()
        #expect(again.stats.written == 0)
        options.clean = true
        let clean = await SiteBuilder(options: options).buildAndWrite()
        #expect(clean.stats.written == clean.stats.files, "everything rendered again")
        #expect(clean.outputs?.changed == clean.outputs?.paths, "and, knowing nothing of the site before, counted as changed")
    }
}
