import Foundation
import TestSupport
import Testing

@testable import GlossaryKit

/// The navigation made from the folders of `content/` or from `nav:`, and what each page shows of it.
@Suite struct SiteNavigationTests {
    /// Records of content pages given as path → markdown, as the build makes them.
    static func records(_ files: [String: String]) -> [PageRecord] {
        files.keys.sorted().compactMap { path in
            let file = SiteSource.File(displayPath: "content/" + path, contentPath: path, url: URL(fileURLWithPath: "/nowhere/" + path))
            return PageParser.parse(text: files[path]!, hash: .zero, file: file, drafts: false).0?.record
        }
    }

    static func page(_ title: String, weight: Int? = nil) -> String {
        "---\ntitle: \(title)\n" + (weight.map { "weight: \($0)\n" } ?? "") + "---\nText.\n"
    }

    /// The tree as indented lines: `title url`, a generated section's page marked `(generated)`.
    static func outline(_ navigation: SiteNavigation, _ node: Int = 0, depth: Int = 0) -> [String] {
        navigation.nodes[node].children.flatMap { child -> [String] in
            let entry = navigation.nodes[child]
            let target = entry.urlPath.map { "/" + $0 } ?? entry.externalURL ?? "-"
            let line = String(repeating: "  ", count: depth) + "\(entry.title) \(target)" + (entry.isGeneratedPage ? " (generated)" : "")
            return [line] + outline(navigation, child, depth: depth + 1)
        }
    }

    static func navigation(_ files: [String: String], nav yaml: String? = nil, unpublished: Set<String> = []) -> SiteNavigation {
        var nav: [NavEntry]?
        if let yaml { nav = SiteConfig.load(yaml: yaml, file: "glossary.yml").0.nav }
        return SiteNavigation(pages: records(files), nav: nav, unpublished: unpublished)
    }

    @Test func foldersAreSectionsOrderedByWeightThenTitle() {
        let navigation = Self.navigation([
            "index.md": Self.page("Welcome"),
            "guide/index.md": Self.page("The Guide", weight: 1),
            "guide/zebra.md": Self.page("Zebra", weight: 1),
            "guide/apple.md": Self.page("apple"),
            "guide/Banana.md": Self.page("Banana"),
            "guide/advanced/_index.md": Self.page("Advanced topics", weight: 5),
            "guide/advanced/deep.md": Self.page("Deep"),
            "reference/tables.md": Self.page("Tables"),
            "about.md": Self.page("About", weight: 3),
        ])
        #expect(
            Self.outline(navigation) == [
                "The Guide /guide/",
                "  Zebra /guide/zebra/",
                "  Advanced topics /guide/advanced/",
                "    Deep /guide/advanced/deep/",
                "  apple /guide/apple/",
                "  Banana /guide/Banana/",
                "About /about/",
                "Reference /reference/ (generated)",
                "  Tables /reference/tables/",
            ])
        #expect(navigation.generatedSections.map { navigation.nodes[$0].urlPath } == ["reference/"])
    }

    @Test func aPagePublishingAFoldersURLIsItsPage() {
        let navigation = Self.navigation(["guide.md": Self.page("Guide page"), "guide/intro.md": Self.page("Intro")])
        #expect(Self.outline(navigation) == ["Guide page /guide/", "  Intro /guide/intro/"])
        #expect(navigation.generatedSections.isEmpty)
    }

    @Test func aPageShowsItsBranchItsBreadcrumbsAndItsNeighbours() throws {
        let navigation = Self.navigation([
            "index.md": Self.page("Welcome"),
            "a/one.md": Self.page("One", weight: 1),
            "a/two.md": Self.page("Two", weight: 2),
            "a/deeper/three.md": Self.page("Three"),
            "b/four.md": Self.page("Four"),
        ])
        let view = navigation.view(forURL: "a/deeper/three/")
        // The top level, the open section `a`, and inside it the open section `deeper`; `b` stays closed.
        #expect(view.sidebar.items.map(\.link.title) == ["A", "B"])
        let a = try #require(view.sidebar.items.first)
        #expect(a.isOpen && !a.isCurrent && a.isSection)
        #expect(view.sidebar.items[1].children == nil, "a closed section shows no entries")
        let deeper = try #require(a.children?.items.last)
        #expect(a.children?.items.map(\.link.title) == ["One", "Two", "Deeper"])
        #expect(deeper.children?.items.map { "\($0.link.title) \($0.isCurrent)" } == ["Three true"])
        #expect(view.breadcrumbs.map { "\($0.title) \($0.urlPath ?? "-")" } == ["Home ", "A a/", "Deeper a/deeper/"])
        #expect(view.previous?.title == "Deeper")
        #expect(view.next?.title == "B")
        let home = navigation.view(forURL: "")
        #expect(home.breadcrumbs.isEmpty && home.previous == nil && home.next?.title == "A")
        #expect(navigation.view(forURL: "a/").sectionEntries.map(\.title) == ["One", "Two", "Deeper"])
    }

    /// A page carries its own branch only: however long a level, a few entries around the open one, and counts.
    @Test func longLevelsShowAWindowAroundTheOpenEntry() throws {
        var files: [String: String] = [:]
        for index in 0..<500 { files["notes/n\(String(format: "%03d", index)).md"] = Self.page("Note \(String(format: "%03d", index))") }
        let navigation = Self.navigation(files)
        let view = navigation.view(forURL: "notes/n250/")
        let notes = try #require(view.sidebar.items.first?.children)
        #expect(notes.items.map(\.link.title) == (247...253).map { "Note \($0)" })
        #expect(notes.items.filter(\.isCurrent).map(\.link.title) == ["Note 250"])
        #expect((notes.hiddenBefore, notes.hiddenAfter, notes.listedAt) == (247, 246, "notes/"))
        let first = try #require(navigation.view(forURL: "notes/n000/").sidebar.items.first?.children)
        #expect(first.items.first?.link.title == "Note 000" && first.hiddenBefore == 0 && first.hiddenAfter == 493)
        let last = try #require(navigation.view(forURL: "notes/n499/").sidebar.items.first?.children)
        #expect(last.items.last?.link.title == "Note 499" && last.hiddenBefore == 493 && last.hiddenAfter == 0)
        #expect(last.items.filter(\.isCurrent).map(\.link.title) == ["Note 499"])
        // Every page's navigation is the same small size, so the site grows with its pages, not their square.
        let sizes = Set((0..<500).map { navigation.view(forURL: "notes/n\(String(format: "%03d", $0))/").sidebar.items.first?.children?.items.count })
        #expect(sizes == [SiteNavigation.window])
        #expect(navigation.view(forURL: "notes/").sectionEntries.count == 500, "the section's page lists all of them")
    }

    @Test func navOverridesTheOrderWithTitlesSectionsFoldersAndLinks() {
        let files = [
            "index.md": Self.page("Welcome"),
            "guide/intro.md": Self.page("Intro"),
            "guide/setup.md": Self.page("Setup"),
            "reference/api.md": Self.page("API", weight: 2),
            "reference/cli.md": Self.page("CLI", weight: 1),
            "about.md": Self.page("About"),
        ]
        let navigation = Self.navigation(
            files,
            nav: """
                nav:
                  - about.md
                  - Guide:
                      - Start here: guide/setup.md
                      - guide/intro.md
                  - Reference: reference/
                  - Source: https://example.com/repo
                """)
        #expect(navigation.diagnostics.isEmpty)
        #expect(
            Self.outline(navigation) == [
                "About /about/",
                "Guide -",
                "  Start here /guide/setup/",
                "  Intro /guide/intro/",
                "Reference /reference/ (generated)",
                "  CLI /reference/cli/",
                "  API /reference/api/",
                "Source https://example.com/repo",
            ])
        // Previous and next follow the nav; a section without a page leads to its first page.
        #expect(navigation.view(forURL: "about/").next?.title == "Start here")
        #expect(navigation.view(forURL: "guide/intro/").next?.title == "Reference")
        #expect(navigation.view(forURL: "guide/intro/").sidebar.items[1].link.urlPath == "guide/setup/")
        // The home page, left out of nav:, is still the root: first in reading order, nothing open.
        let home = navigation.view(forURL: "")
        #expect(home.sidebar.items.allSatisfy { !$0.isOpen } && home.previous == nil && home.next?.title == "About")
    }

    @Test func navProblemsAreWarningsAtTheirEntry() {
        let navigation = Self.navigation(
            ["index.md": Self.page("Home"), "guide/a.md": Self.page("A")],
            nav: """
                nav:
                  - index.md
                  - Guide:
                      - guide/a.md
                      - guide/missing.md
                      - Again: guide/a.md
                  - nowhere/
                  - drafts/plan.md
                """,
            unpublished: ["drafts/plan.md"])
        #expect(
            navigation.diagnostics.map(\.description) == [
                "glossary.yml:5:9: warning: nav lists 'guide/missing.md', which is not a page or folder of content/ [nav-unknown-page]",
                "glossary.yml:6:16: warning: nav lists 'guide/a.md' again; only its first place is used [nav-duplicate-page]",
                "glossary.yml:7:5: warning: nav lists 'nowhere/', which is not a page or folder of content/ [nav-unknown-page]",
            ])
        #expect(
            navigation.diagnostics[1].notes.map { "\($0.location?.line ?? 0):\($0.location?.column ?? 0) \($0.message)" } == [
                "4:9 'guide/a.md' is first listed here"
            ])
        #expect(Self.outline(navigation) == ["Home /", "Guide -", "  A /guide/a/"])
    }

    @Test func navEntriesOfTheWrongShapeAreTypeErrors() {
        let (config, diagnostics) = SiteConfig.load(
            yaml: "nav:\n  - [a.md]\n  - Two: keys\n    Three: here\n  - Fine: [b.md, [c.md]]\nnav2: 1\n", file: "glossary.yml")
        let requirement = "must be a list of page paths (guide/intro.md), folders (guide/) and 'Title: path' or 'Section: [entries]' mappings"
        #expect(
            diagnostics.map(\.description) == [
                "glossary.yml:2:5: error: 'nav' \(requirement), found a list [config-type]",
                "glossary.yml:3:5: error: 'nav' \(requirement), found a mapping [config-type]",
                "glossary.yml:5:18: error: 'nav' \(requirement), found a list [config-type]",
                "glossary.yml:6:1: warning: unknown key 'nav2' in glossary.yml; did you mean 'nav'? [unknown-key]",
            ])
        #expect(config.nav?.count == 1, "the good entry is kept")
        let (_, notAList) = SiteConfig.load(yaml: "nav: guide/\n", file: "glossary.yml")
        #expect(notAList.map(\.description) == ["glossary.yml:1:6: error: 'nav' \(requirement), found 'guide/' [config-type]"])
    }

    @Test func viewsAreEqualWhenTheyShowTheSame() {
        let files = ["a/one.md": Self.page("One"), "a/two.md": Self.page("Two"), "b/three.md": Self.page("Three")]
        let before = Self.navigation(files)
        var renamed = files
        renamed["b/three.md"] = Self.page("Third")
        let after = Self.navigation(renamed)
        // `b` stays closed on a's pages, and the page after a/two/ is the section b: the new title changes nothing there.
        #expect(before.view(forURL: "a/one/") == after.view(forURL: "a/one/"))
        #expect(before.view(forURL: "a/two/") == after.view(forURL: "a/two/"))
        #expect(before.view(forURL: "b/") != after.view(forURL: "b/"))
        #expect(before.view(forURL: "b/three/") != after.view(forURL: "b/three/"))
    }

    /// A URL's parent, found from its last slashes, is the one its parts give (also with empty parts and non-ASCII names).
    @Test func aParentURLIsItsPartsButTheLast() {
        func byParts(_ url: String) -> String {
            let parts = url.split(separator: "/").dropLast()
            return parts.isEmpty ? "" : parts.joined(separator: "/") + "/"
        }
        #expect(SiteNavigation.parentURL(of: "guide/intro/") == "guide/")
        #expect(SiteNavigation.parentURL(of: "guide/") == "")
        #expect(SiteNavigation.parentURL(of: "") == "")
        var generator = SeededRandom(seed: 0x3f)
        let pieces = ["a", "bc", "é", "/", "/", "-"]
        for _ in 0..<2_000 {
            let url = (0..<Int.random(in: 0...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            #expect(SiteNavigation.parentURL(of: url) == byParts(url), "\(url)")
        }
    }
}
