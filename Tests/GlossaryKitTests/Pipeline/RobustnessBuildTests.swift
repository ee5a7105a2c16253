import Foundation
import TestSupport
import Testing

@testable import GlossaryKit

/// What a whole build does with input that used to slip through: heading ids a page chooses, dotfiles in `content/`,
/// characters HTML must not show, templates that would never end, links out of a theme's folder.
@Suite struct RobustnessBuildTests {
    @Test func aHeadingsChosenIdIsWhatLinksTheTableOfContentsAndSearchUse() async throws {
        let site = try ExportTestSite(
            """
            -- content/a.md --
            ---
            title: A
            toc: true
            ---
            ## Owners and dependents {#owners-dependents}

            ## Garbage collection {#gc}

            ### Finalizers
            -- content/b.md --
            [kept](a.md#owners-dependents) [gone](a.md#owners-and-dependents) [short](a.md#gc)
            """)
        defer { site.remove() }
        let (result, files) = await site.build()
        #expect(
            result.diagnostics.map(\.description) == [
                "content/b.md:1:39: warning: link to 'a.md#owners-and-dependents' leads to no heading 'owners-and-dependents' on /a/ [broken-anchor]"
            ])
        let page = try #require(files["a/index.html"])
        #expect(page.contains("<h2 id=\"owners-dependents\">Owners and dependents<a class=\"anchor\" href=\"#owners-dependents\""))
        #expect(page.contains("<a href=\"#owners-dependents\">Owners and dependents</a>"), "the table of contents")
        #expect(page.contains("<a href=\"#gc\">Garbage collection</a>"))
        #expect(!page.contains("{#"))
        let documents = try #require(files["search/docs/0.json"])
        #expect(documents.contains("Owners and dependents") && !documents.contains("{#"))
    }

    @Test func dotfilesInContentArePublishedAsWrittenVersionControlIsNot() async throws {
        let site = try ExportTestSite("-- content/index.md --\nHi.\n")
        defer { site.remove() }
        try InlineSite.write(
            [
                "content/.well-known/security.txt": "Contact: mailto:a@example.org\n", "content/.nojekyll": "", "content/.htaccess": "Deny\n",
                "content/.well-known/notes.md": "# Not a page\n", "content/.git/config": "[core]\n", "content/.gitignore": "x\n",
                "content/.DS_Store": "x", "content/index.md~": "backup\n", "content/.index.md.swp": "swap\n",
            ], into: site.root)
        let (result, files) = await site.build()
        #expect(result.diagnostics == [])
        #expect(files[".well-known/security.txt"] == "Contact: mailto:a@example.org\n")
        #expect(files[".well-known/notes.md"] == "# Not a page\n")
        #expect(files[".nojekyll"] == "" && files[".htaccess"] == "Deny\n")
        #expect(files.keys.filter { $0.contains(".git") || $0.contains("DS_Store") || $0.contains("~") || $0.contains(".swp") }.isEmpty)
    }

    @Test func controlCharactersAndBidiOverridesNeverReachAPage() async throws {
        let site = try ExportTestSite(
            """
            -- content/index.md --
            ---
            title: "Bell\\u0007 and \\u202Eevil\\u202C and \\u0085next"
            description: "tab\\tok"
            ---
            Text about [[kerning]].
            -- content/glossary/kerning.md --
            ---
            term: "Kern\\u202Eing"
            ---
            Space.
            """)
        defer { site.remove() }
        let (_, files) = await site.build()
        let page = try #require(files["index.html"])
        #expect(page.contains("Bell\u{FFFD} and \u{FFFD}evil\u{202C} and \u{FFFD}next"), "\(page)")
        for (path, text) in files where path.hasSuffix(".html") || path.hasSuffix(".csv") || path.hasSuffix(".json") {
            #expect(!text.unicodeScalars.contains { HTML.isHidden($0) && $0 != "\u{0009}" && $0 != "\u{000A}" && $0 != "\u{000D}" }, "\(path)")
        }
        #expect(files["glossary.csv"]?.contains("Kerning") == true, "the override is dropped from the CSV cell")
    }

    @Test func aTemplateThatIncludesItselfOutsideASectionIsAnErrorAtItsTag() async throws {
        let site = try ExportTestSite(
            """
            -- content/index.md --
            Hi.
            -- themes/default/templates/footer-loop.mustache --
            <footer>
              {{> footer-loop}}{{> footer-loop}}
            </footer>
            -- themes/default/templates/a.mustache --
            {{#items}}{{>b}}{{/items}}
            -- themes/default/templates/b.mustache --
            {{>a}}
            -- themes/default/templates/c.mustache --
            {{>d}}
            -- themes/default/templates/d.mustache --
            x {{$block}}{{>c}}{{/block}}
            """)
        defer { site.remove() }
        let (result, _) = await site.build()
        #expect(
            result.diagnostics.map(\.description) == [
                "themes/default/templates/c.mustache:1:1: error: template 'c' includes itself outside any section ('c' → 'd' → 'c'): rendering it would never end [template-recursion]",
                "themes/default/templates/footer-loop.mustache:2:3: error: template 'footer-loop' includes itself outside any section ('footer-loop' → 'footer-loop'): rendering it would never end [template-recursion]",
            ])
    }

    @Test func aLinkOutOfATheme() async throws {
        let site = try ExportTestSite(
            "-- content/index.md --\nHi.\n-- themes/default/assets/own.css --\nx\n-- themes/default/templates/unused.mustache --\nx\n")
        defer { site.remove() }
        let outside = site.root.appendingPathComponent("shared.css")
        try Data("y\n".utf8).write(to: outside)
        try FileManager.default.createSymbolicLink(
            at: site.root.appendingPathComponent("themes/default/assets/linked.css"), withDestinationURL: outside)
        try FileManager.default.createSymbolicLink(
            at: site.root.appendingPathComponent("themes/default/templates/gone.mustache"),
            withDestinationURL: site.root.appendingPathComponent("nothing"))
        let (result, files) = await site.build()
        #expect(
            result.diagnostics.map(\.description) == [
                "themes/default/assets/linked.css:1:1: warning: symbolic link to a folder or to a file outside themes/default/assets/ is not published [symlink-skipped]",
                "themes/default/templates/gone.mustache:1:1: warning: not published: it is a symbolic link to nothing [file-skipped]",
            ])
        #expect(files["assets/own.css"] == "x\n" && files["assets/linked.css"] == nil)
    }
}
