import Foundation
import GlossaryKit
import Testing

/// `glossary theme eject`: copies the built-in theme into the site, refuses to overwrite, and changes no output.
@Suite struct ThemeCommandTests {
    static let site = """
        -- content/index.md --
        ---
        title: Home
        ---
        A [[term]] here.
        -- content/glossary/term.md --
        ---
        term: term
        ---
        A word.
        """

    @Test func ejectingTheWholeThemeCopiesEveryFileAndTheBuildStaysByteForByteTheSame() async throws {
        let site = try TestSite(Self.site)
        defer { site.remove() }
        let before = try await site.run(["build", "--offline", "--strict"])
        #expect(before.status == 0, "\(before.stderr)")
        let builtBefore = site.files(under: "site").map { ($0, site.read("site/" + $0)) }

        let eject = try await site.run(["theme", "eject"])
        #expect(eject.status == 0, "\(eject.stderr)")
        let names = BuiltInTheme.files.keys.sorted()
        #expect(eject.stdout == "Copied \(names.count) files of the built-in theme into themes/default/:\n" + names.map { "  themes/default/\($0)\n" }.joined())
        #expect(site.files(under: "themes/default") == names)
        for name in names {
            #expect(FileManager.default.contents(atPath: site.root.appendingPathComponent("themes/default/" + name).path) == BuiltInTheme.files[name])
        }

        let after = try await site.run(["build", "--offline", "--strict"])
        #expect(after.status == 0, "\(after.stderr)")
        let builtAfter = site.files(under: "site").map { ($0, site.read("site/" + $0)) }
        #expect(builtAfter.map(\.0) == builtBefore.map(\.0))
        #expect(builtAfter.map(\.1) == builtBefore.map(\.1))
    }

    @Test func ejectingOneFileCopiesOnlyItAndTheSiteUsesTheEditedCopy() async throws {
        let site = try TestSite(Self.site)
        defer { site.remove() }
        let eject = try await site.run(["theme", "eject", "templates/header.mustache"])
        #expect(eject.status == 0, "\(eject.stderr)")
        #expect(eject.stdout == "Copied 1 file of the built-in theme into themes/default/:\n  themes/default/templates/header.mustache\n")
        #expect(site.files(under: "themes") == ["default/templates/header.mustache"])

        try site.write("themes/default/templates/header.mustache", "<header data-ours>{{site.title}}</header>\n")
        let build = try await site.run(["build", "--offline", "--strict"])
        #expect(build.status == 0, "\(build.stderr)")
        let home = try #require(site.read("site/index.html"))
        #expect(home.contains("<header data-ours>Test Site</header>"))
        #expect(!home.contains("data-theme-toggle"), "the built-in header is gone")
        #expect(home.contains("<footer"), "the rest is the built-in theme")
        #expect(site.read("site/assets/glossary.css").map { Data($0.utf8) } == BuiltInTheme.files["assets/glossary.css"])
    }

    @Test func aFolderNameEjectsEveryFileBelowIt() async throws {
        let site = try TestSite(Self.site)
        defer { site.remove() }
        let eject = try await site.run(["theme", "eject", "assets/"])
        #expect(eject.status == 0, "\(eject.stderr)")
        #expect(site.files(under: "themes/default") == BuiltInTheme.files.keys.filter { $0.hasPrefix("assets/") }.sorted())
    }

    @Test func anExistingFileThatDiffersIsKeptUnlessForced() async throws {
        let site = try TestSite(Self.site + "\n-- themes/default/templates/footer.mustache --\n<footer>mine</footer>\n")
        defer { site.remove() }
        let refused = try await site.run(["theme", "eject", "templates/footer.mustache", "templates/header.mustache"])
        #expect(refused.status == 1)
        #expect(
            refused.stderr
                == "error: these files exist and differ from the built-in theme; nothing was copied (--force overwrites them):\n  themes/default/templates/footer.mustache\n"
        )
        #expect(site.read("themes/default/templates/footer.mustache") == "<footer>mine</footer>\n")
        #expect(!site.exists("themes/default/templates/header.mustache"), "nothing is copied when one file is refused")

        let forced = try await site.run(["theme", "eject", "templates/footer.mustache", "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(site.read("themes/default/templates/footer.mustache").map { Data($0.utf8) } == BuiltInTheme.files["templates/footer.mustache"])

        let again = try await site.run(["theme", "eject", "templates/footer.mustache"])
        #expect(again.status == 0, "an identical copy is no conflict")
        #expect(again.stdout == "Nothing to copy (1 already there, the same).\n")
    }

    @Test func anUnknownFileIsAUsageErrorListingTheValidNames() async throws {
        let site = try TestSite(Self.site)
        defer { site.remove() }
        let result = try await site.run(["theme", "eject", "templates/headr.mustache"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("error: the built-in theme has no file 'templates/headr.mustache' (its files are listed below)\n"))
        for name in BuiltInTheme.files.keys { #expect(result.stderr.contains("\n  \(name)\n")) }
        #expect(!site.exists("themes"))
        let newline = try await site.run(["theme", "eject", "x\n  templates/page.mustache"])
        #expect(newline.stderr.hasPrefix("error: the built-in theme has no file 'x\\n  templates/page.mustache' (its files"), "\(newline.stderr)")
    }

    @Test func ejectNeedsASite() async throws {
        let folder = try TestSite("", includeConfig: false)
        defer { folder.remove() }
        let result = try await folder.run(["theme", "eject"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: no glossary.yml in "))
        #expect(!folder.exists("themes"))
        let unknown = try await folder.run(["theme", "list"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.hasPrefix("error: unknown theme action 'list'; use eject\n"))
    }

    @Test(arguments: [
        ("extends: default\n", ""),
        (
            "",
            "note: glossary.yml uses theme 'brand', which does not extend default; themes/default/ is used once it does (extends: default in its theme.yml)\n"
        ),
    ])
    func ejectingForASiteWhoseThemeIgnoresItSaysSo(themeYml: String, note: String) async throws {
        let site = try TestSite("-- glossary.yml --\ntheme: brand\n-- themes/brand/theme.yml --\n\(themeYml)" + Self.site)
        defer { site.remove() }
        let result = try await TestSite.run(
            ["theme", "eject", "--source", site.root.path, "templates/footer.mustache"], in: site.root.deletingLastPathComponent())
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == note)
        #expect(site.exists("themes/default/templates/footer.mustache"))
    }
}
