import Foundation
import Testing

@testable import GlossaryKit

/// Theme lookup: the built-in default, a site's partial overrides, `extends` chains, cycles and broken templates.
@Suite struct ThemeTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// A site folder with the given files, removed when the test ends.
    final class Site: Sendable {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("glossary-theme-\(UUID().uuidString)", isDirectory: true)

        init(_ files: [String: String] = [:]) throws {
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            for (path, text) in files {
                let url = root.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url)
            }
        }

        deinit {
            try? FileManager.default.removeItem(at: root)
        }

        func load(_ name: String) -> (Theme?, [String]) {
            let (theme, diagnostics) = Theme.load(name: name, siteRoot: root) { SiteBuilder.relativePath($0, root: self.root) }
            return (theme, diagnostics.map(\.description))
        }
    }

    /// Enough context for the default theme's page template to render.
    static let pageContext: MustacheValue = .object([
        "site": .object(["title": .string("Site Title")]), "root": .string("/"), "page_title": .string("A page"),
        "page": .object(["title": .string("A page"), "content": .string("<p>Body</p>")]),
    ])

    static let templatesOnDisk: Set<String> = Set(
        SiteSource.listFiles(in: repositoryRoot.appendingPathComponent("themes/default/templates")).map { String($0.dropLast(".mustache".count)) })

    /// Each script of the built-in theme stays small enough to read whole (issue 37: under 300 lines).
    @Test func eachThemeScriptIsUnder300Lines() throws {
        let folder = Self.repositoryRoot.appendingPathComponent("themes/default/assets/js", isDirectory: true)
        let scripts = SiteSource.listFiles(in: folder).filter { $0.hasSuffix(".js") }
        #expect(scripts.contains("search-engine.js"), "the scripts were found")
        for script in scripts {
            let text = try String(contentsOf: folder.appendingPathComponent(script), encoding: .utf8)
            #expect(text.split(separator: "\n", omittingEmptySubsequences: false).count - 1 < 300, "\(script)")
        }
    }

    @Test func theBuiltInThemeIsThemesDefaultByteForByte() throws {
        let folder = Self.repositoryRoot.appendingPathComponent("themes/default", isDirectory: true)
        let onDisk = SiteSource.listFiles(in: folder)
        #expect(onDisk.contains("templates/page.mustache") && onDisk.contains("assets/glossary.css"), "the theme folder was found")
        #expect(BuiltInTheme.files.keys.sorted() == (onDisk + BuiltInTheme.vendorFiles.keys).sorted(), "the same files, none missing, none extra")
        for path in onDisk {
            let bytes = try #require(FileManager.default.contents(atPath: folder.appendingPathComponent(path).path))
            #expect(BuiltInTheme.files[path] == bytes, "\(path) differs from the embedded copy (rebuild, or re-plan with `touch Package.swift`)")
        }
    }

    /// highlight.js and lunr are Debian's files as installed when the binary was built, byte for byte.
    @Test func theVendorScriptsAreDebiansFiles() throws {
        let installed = [
            "assets/vendor/highlight.min.js": "/usr/share/javascript/highlight.js/highlight.min.js",
            "assets/vendor/lunr.min.js": "/usr/share/javascript/lunr/lunr.min.js",
        ]
        #expect(Set(BuiltInTheme.vendorFiles.keys) == Set(installed.keys))
        for (asset, path) in installed {
            let bytes = try #require(FileManager.default.contents(atPath: path), "\(path) is installed (libjs-highlight.js, libjs-lunr)")
            #expect(BuiltInTheme.files[asset] == bytes, "\(asset) is \(path)")
        }
        let lunr = String(decoding: try #require(BuiltInTheme.files["assets/vendor/lunr.min.js"]), as: UTF8.self)
        #expect(lunr.contains("lunr - http://lunrjs.com - A bit like Solr"))
    }

    @Test func defaultWithoutASiteFolderIsTheBuiltInTheme() throws {
        let site = try Site()
        let (theme, diagnostics) = site.load("default")
        #expect(diagnostics.isEmpty)
        let loaded = try #require(theme)
        #expect(loaded.layers == [ThemeLayer(name: "default", source: .builtIn)])
        #expect(Set(loaded.templateSources.keys) == Self.templatesOnDisk)
        #expect(loaded.assets["glossary.css"] == .data(BuiltInTheme.files["assets/glossary.css"]!))
        #expect(loaded.render("page", Self.pageContext).contains(#"<span>Site Title</span>"#))
    }

    @Test func aSiteDefaultFolderOverridesOnlyTheFilesItHas() throws {
        let site = try Site([
            "themes/default/templates/header.mustache": "<header data-mine>{{site.title}} (mine)</header>\n",
            "themes/default/assets/glossary.css": "body { color: red }\n",
        ])
        let (theme, diagnostics) = site.load("default")
        #expect(diagnostics.isEmpty)
        let loaded = try #require(theme)
        #expect(loaded.layers.map(\.name) == ["default", "default"])
        #expect(loaded.layers.last?.source == .builtIn)
        let html = loaded.render("page", Self.pageContext)
        #expect(html.contains("<header data-mine>Site Title (mine)</header>"), "the site's header")
        #expect(!html.contains("site-header-inner"), "not the built-in header")
        #expect(html.contains("data-theme-toggle") == false, "the toggle lives in the header it replaced")
        #expect(html.contains("</footer>"), "the built-in footer and base still render")
        #expect(loaded.assets["glossary.css"] == .file(site.root.appendingPathComponent("themes/default/assets/glossary.css")))
        #expect(loaded.assets["js/core.js"] == .data(try #require(BuiltInTheme.files["assets/js/core.js"])))
        #expect(Theme.assetFolders(name: "default", siteRoot: site.root) == [site.root.appendingPathComponent("themes/default/assets", isDirectory: true)])
    }

    static let scripts = [
        "audio.js", "cards.js", "code.js", "core.js", "dictionary-views.js", "dictionary.js", "embed.js", "fonts.js", "nav.js", "search-engine.js", "search.js",
        "terms.js", "theme.js",
    ]
    static let vendor = ["highlight.min.js", "lunr.min.js", "LICENSES.txt"]

    @Test func aThemeThatExtendsDefaultGetsEveryFileItLacks() throws {
        let site = try Site([
            "themes/brand/theme.yml": "extends: default\n",
            "themes/brand/templates/header.mustache": "<header data-brand></header>\n",
        ])
        let (theme, diagnostics) = site.load("brand")
        #expect(diagnostics.isEmpty)
        let loaded = try #require(theme)
        #expect(
            loaded.layers == [
                ThemeLayer(name: "brand", source: .folder(site.root.appendingPathComponent("themes/brand", isDirectory: true))),
                ThemeLayer(name: "default", source: .builtIn),
            ])
        #expect(Set(loaded.templateSources.keys) == Self.templatesOnDisk)
        #expect(loaded.render("page", Self.pageContext).contains("<header data-brand></header>"))
        let expected = ["glossary.css", "docs.css", "embed.css"] + Self.scripts.map { "js/" + $0 } + Self.vendor.map { "vendor/" + $0 }
        #expect(Set(loaded.assets.keys) == Set(expected))
    }

    @Test func extendingDefaultGoesThroughTheSitesOwnDefaultFirst() throws {
        let site = try Site([
            "themes/brand/theme.yml": "extends: default\n",
            "themes/default/templates/footer.mustache": "<footer data-site-default></footer>\n",
            "themes/brand/templates/header.mustache": "<header data-brand></header>\n",
        ])
        let (theme, diagnostics) = site.load("brand")
        #expect(diagnostics.isEmpty)
        let loaded = try #require(theme)
        #expect(loaded.layers.map(\.name) == ["brand", "default", "default"])
        let html = loaded.render("page", Self.pageContext)
        #expect(html.contains("<header data-brand></header>") && html.contains("<footer data-site-default></footer>"))
    }

    @Test func aSiteDefaultMayExtendAnotherThemeThatExtendsTheBuiltInOne() throws {
        let site = try Site([
            "themes/default/theme.yml": "extends: brand\n",
            "themes/brand/theme.yml": "extends: default\n",
        ])
        let (theme, diagnostics) = site.load("default")
        #expect(diagnostics.isEmpty, "the second 'default' is the built-in theme, not a cycle")
        #expect(theme?.layers.map(\.name) == ["default", "brand", "default"])
        #expect(theme?.layers.last?.source == .builtIn)
    }

    @Test func aThemeWithoutThemeYmlIsWholeAndReportsEveryMissingTemplate() throws {
        let site = try Site(["themes/bare/templates/page.mustache": "{{page.title}}\n"])
        let (_, diagnostics) = site.load("bare")
        #expect(
            diagnostics == ["term", "terms", "search", "404"].map { "themes/bare/templates:1:1: error: theme 'bare' has no \($0).mustache [template-missing]" })
    }

    @Test func aMissingTemplateNamesTheThemesItExtends() throws {
        let site = try Site([
            "themes/a/theme.yml": "extends: b\n", "themes/b/templates/page.mustache": "x\n", "themes/b/templates/term.mustache": "x\n",
            "themes/b/templates/terms.mustache": "x\n", "themes/b/templates/search.mustache": "x\n",
        ])
        let (_, diagnostics) = site.load("a")
        #expect(diagnostics == ["themes/a/templates:1:1: error: theme 'a' has no 404.mustache, nor does the theme it extends ('b') [template-missing]"])
    }

    @Test func aCycleOfExtendsIsAnErrorNamingEveryThemeYml() throws {
        let site = try Site([
            "themes/a/theme.yml": "extends: b\n",
            "themes/b/theme.yml": "# b builds on c\nextends: c\n",
            "themes/c/theme.yml": "extends:   a\n",
        ])
        let (theme, diagnostics) = site.load("a")
        #expect(theme == nil)
        #expect(
            diagnostics == [
                "themes/c/theme.yml:1:12: error: theme 'c' extends 'a', which extends it again: a → b → c → a (themes/a/theme.yml, themes/b/theme.yml, themes/c/theme.yml) [theme-cycle]"
            ])
    }

    @Test func aThemeExtendingItselfIsACycle() throws {
        let site = try Site(["themes/a/theme.yml": "extends: a\n"])
        #expect(site.load("a").1 == ["themes/a/theme.yml:1:10: error: theme 'a' extends 'a', which extends it again: a → a (themes/a/theme.yml) [theme-cycle]"])
    }

    @Test func extendingAThemeThatIsNotThereIsAnErrorAtTheExtendsValue() throws {
        let site = try Site(["themes/a/theme.yml": "\nextends: fancy\n"])
        let (theme, diagnostics) = site.load("a")
        #expect(theme == nil)
        #expect(diagnostics == ["themes/a/theme.yml:2:10: error: theme 'a' extends 'fancy', which is not in themes/fancy/ [theme-missing]"])
    }

    @Test func aThemeThatIsNotThereIsAnErrorAtGlossaryYml() throws {
        let site = try Site()
        let (theme, diagnostics) = site.load("paper")
        #expect(theme == nil)
        #expect(diagnostics == ["glossary.yml:1:1: error: theme 'paper' not found in themes/paper/ (the built-in theme is 'default') [theme-missing]"])
    }

    @Test(arguments: [
        ("extends: default\ncolour: red\n", "themes/default/theme.yml:2:1: warning: unknown key 'colour' in themes/default/theme.yml [unknown-key]"),
        ("extnds: default\n", "themes/default/theme.yml:1:1: warning: unknown key 'extnds' in themes/default/theme.yml; did you mean 'extends'? [unknown-key]"),
        ("extends: [a, b]\n", "themes/default/theme.yml:1:10: error: 'extends' must be a string, found a list [config-type]"),
        ("extends: ../../etc\n", "themes/default/theme.yml:1:10: error: 'extends' must be the name of a folder in themes/, found '../../etc' [config-value]"),
        ("- extends\n", "themes/default/theme.yml:1:1: error: themes/default/theme.yml must be a mapping of keys to values, found a list [config-type]"),
        ("extends: [\n", "themes/default/theme.yml:2:1: error: did not find expected node content [yaml-syntax]"),
    ])
    func problemsInThemeYmlAreReportedAtTheirPlace(yaml: String, expected: String) throws {
        let site = try Site(["themes/default/theme.yml": yaml])
        let (theme, diagnostics) = site.load("default")
        #expect(diagnostics == [expected])
        #expect(theme?.layers.last?.source == .builtIn, "a broken theme.yml still falls back to the built-in theme")
    }

    @Test func aBrokenOverrideIsAnErrorAtItsLineAndColumn() throws {
        let site = try Site(["themes/default/templates/header.mustache": "<header>\n  {{#site}}{{title}}\n</header>\n"])
        let (_, diagnostics) = site.load("default")
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.hasPrefix("themes/default/templates/header.mustache:2:") == true)
        #expect(diagnostics.first?.hasSuffix("[template-syntax]") == true)
    }
}
