import Foundation
import GlossaryKit
import TestSupport
import Testing

/// End-to-end: the real `glossary` binary on small inline sites.
@Suite struct BuildCommandTests {
    static let smallSite = """
        -- glossary.yml --
        title: Small
        -- content/index.md --
        ---
        title: Home
        ---
        Welcome to [[Kerning]] and [[the leading|leading]].

        See [the guide](/guide/intro/).
        -- content/guide/intro.md --
        ---
        title: Intro
        date: 2024-03-01
        ---
        # Intro

        Use [[kerning]] with care; `[[code]]` is not a term.

        ```
        [[fenced]]
        ```
        -- content/glossary/kerning.md --
        ---
        term: Kerning
        part_of_speech: noun
        phonetic: /ˈkɜːnɪŋ/
        see_also: [leading]
        ---
        Adjusting the space between two letters.
        -- content/glossary/leading.md --
        ---
        term: Leading
        aliases: [line spacing]
        ---
        The vertical space between lines of text.
        -- content/images/logo.svg --
        <svg xmlns="http://www.w3.org/2000/svg"/>
        """

    @Test func buildsPagesTermPagesIndexAndCopiesFiles() async throws {
        let site = try TestSite(Self.smallSite)
        defer { site.remove() }
        let result = try await site.run(["build", "--offline"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.diagnostics.isEmpty)
        // guide/ has no page of its own, so it gets a generated one listing what it holds; the search index is three files.
        // The search index's one shard is named after its first term.
        #expect(
            site.files(under: "site").filter { !$0.hasPrefix("assets/") }.map { $0.hasPrefix("search/shards/") ? "search/shards/*" : $0 } == [
                "404.html", "embed.css", "embed.js", "glossary.csv", "glossary.json", "glossary.tbx", "guide/index.html", "guide/intro/index.html",
                "images/logo.svg",
                "index.html", "llms-full.txt", "llms.txt", "robots.txt", "search/docs/0.json", "search/index.html", "search/index.json",
                "search/shards/*", "sitemap.xml", "terms/api.json", "terms/index.html", "terms/index.json", "terms/kerning/index.html",
                "terms/leading/index.html",
            ])
        let assetsFolder = TestSite.repositoryRoot.appendingPathComponent("themes/default/assets").path
        let themeAssets = try FileManager.default.subpathsOfDirectory(atPath: assetsFolder).filter { path in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: assetsFolder + "/" + path, isDirectory: &isFolder) && !isFolder.boolValue
        }
        let vendor = BuiltInTheme.vendorFiles.keys.map { String($0.dropFirst("assets/".count)) }
        #expect(Set(site.files(under: "site/assets")) == Set(themeAssets.filter { !$0.hasPrefix(".") } + vendor))
        let home = try #require(site.read("site/index.html"))
        #expect(home.contains(#"<a class="term" href="/terms/kerning/" data-term="kerning">Kerning</a>"#))
        #expect(home.contains(#"<a class="term" href="/terms/leading/" data-term="leading">the leading</a>"#))
        let intro = try #require(site.read("site/guide/intro/index.html"))
        #expect(intro.contains("<code>[[code]]</code>"))
        #expect(intro.contains("[[fenced]]"))
        let term = try #require(site.read("site/terms/kerning/index.html"))
        #expect(term.contains("Adjusting the space between two letters."))
        #expect(term.contains(#"<a href="/guide/intro/">Intro</a>"#), "backlink to the page using the term")
        #expect(term.contains(#"<a href="/">Home</a>"#))
        #expect(result.stderr.contains("Built 2 pages, 2 terms (2 local, 0 cached, 0 fetched, 0 from WordNet), 0 unresolved"))
    }

    @Test func unknownTermIsAWarningAtItsLocationAndRendersUnlinked() async throws {
        let site = try TestSite(
            """
            -- content/index.md --
            ---
            title: Home
            ---

            Type on the [[keybord]].
            """)
        defer { site.remove() }
        let result = try await site.run(["build", "--offline"])
        #expect(result.status == 0)
        #expect(result.diagnostics == ["content/index.md:5:13: warning: no definition found for 'keybord' (offline, and not in the cache) [unknown-term]"])
        let home = try #require(site.read("site/index.html"))
        #expect(home.contains(#"<span class="term term-unknown" data-term-unknown="keybord" title="No definition found">keybord</span>"#))
        let strict = try await site.run(["build", "--offline", "--strict"])
        #expect(strict.status == 1)
        #expect(strict.diagnostics == ["content/index.md:5:13: error: no definition found for 'keybord' (offline, and not in the cache) [unknown-term]"])
    }

    /// A failed build's summary names the output folder as given: below the site's folder, or whole when elsewhere.
    @Test func aFailedBuildNamesItsOutputFolder() async throws {
        let site = try TestSite(Self.smallSite)
        defer { site.remove() }
        let elsewhere = try InlineSite.temporaryFolder("glossary-output")
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        try site.write("content/broken.md", "---\ntitle: [unclosed\n---\nBody\n")
        let nested = try await site.run(["build", "--offline", "--output", "public/site"])
        #expect(nested.status == 1)
        #expect(nested.stderr.hasSuffix("; public/site/ left unchanged\n"), "\(nested.stderr)")
        let outside = elsewhere.appendingPathComponent("site").standardizedFileURL.path
        let other = try await site.run(["build", "--offline", "--output", outside])
        #expect(other.status == 1)
        #expect(other.stderr.hasSuffix("; \(outside)/ left unchanged\n"), "\(other.stderr)")
    }

    @Test func everyProblemOfARunIsReportedAndTheOldSiteSurvives() async throws {
        let site = try TestSite(Self.smallSite)
        defer { site.remove() }
        #expect(try await site.run(["build", "--offline"]).status == 0)
        let before = try #require(site.read("site/index.html"))
        try site.write("content/broken.md", "---\ntitle: [unclosed\n---\nBody\n")
        try site.write("content/other.md", "---\ntitle: Fine\ndraft: maybe\n---\nBody\n")
        try site.write("content/unclosed.md", "---\ntitle: x\n\nno closing line\n")
        let result = try await site.run(["build", "--offline"])
        #expect(result.status == 1)
        #expect(result.diagnostics.count == 3, "\(result.stderr)")
        #expect(result.diagnostics.contains("content/broken.md:3:1: error: did not find expected ',' or ']' [yaml-syntax]"))
        #expect(result.diagnostics.contains { $0.hasPrefix("content/other.md:3:8: error:") })
        #expect(result.diagnostics.contains { $0.hasPrefix("content/unclosed.md:1:1: error:") && $0.hasSuffix("[front-matter-unclosed]") })
        #expect(result.stderr.contains("site/ left unchanged"))
        #expect(site.read("site/index.html") == before)
        // The previous folder the first build left (of links to its files) is the next build's to start from.
        #expect(site.files(under: ".").filter { $0.hasPrefix(".site.") && !$0.hasPrefix(".site.previous/") }.isEmpty, "no staging folder left behind")
    }

    @Test func removedPagesDisappearAndDotfilesInTheOutputStay() async throws {
        let site = try TestSite(Self.smallSite)
        defer { site.remove() }
        try site.write("site/.gitkeep", "")
        #expect(try await site.run(["build", "--offline"]).status == 0)
        #expect(site.exists("site/guide/intro/index.html"))
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("content/guide/intro.md"))
        let result = try await site.run(["build", "--offline"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!site.exists("site/guide/intro/index.html"))
        #expect(site.exists("site/.gitkeep"))
    }

    /// What a build killed with SIGKILL leaves beside `site/` goes with the next build, even one with nothing to do.
    @Test func leftoversOfAKilledBuildGoWithABuildThatHasNothingToDo() async throws {
        let site = try TestSite(Self.smallSite)
        defer { site.remove() }
        #expect(try await site.run(["build", "--offline"]).status == 0)
        // Process ids above the kernel's pid_max: no live process has them.
        for name in [".site.building-99999991/guide/intro", ".site.linking-99999992/guide", ".site.removed-99999993", ".site.old-99999994"] {
            try FileManager.default.createDirectory(at: site.root.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        try Data("partial".utf8).write(to: site.root.appendingPathComponent(".site.building-99999991/guide/intro/index.html"))
        let result = try await site.run(["build", "--offline"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Built "))
        let left = try FileManager.default.contentsOfDirectory(atPath: site.root.path).filter { $0.hasPrefix(".site.") }
        #expect(left == [".site.previous"] || left == [], "\(left)")
    }

    @Test func draftsAreSkippedUnlessAskedFor() async throws {
        let site = try TestSite(
            """
            -- content/index.md --
            Home
            -- content/wip.md --
            ---
            draft: true
            ---
            Work in progress with [[nothing]].
            """)
        defer { site.remove() }
        let result = try await site.run(["build", "--offline"])
        #expect(result.status == 0)
        #expect(result.diagnostics.isEmpty)
        #expect(!site.exists("site/wip/index.html"))
        #expect(try await site.run(["build", "--offline", "--drafts"]).status == 0)
        #expect(site.exists("site/wip/index.html"))
    }

    @Test func linksFollowBaseURLUnderASubpath() async throws {
        let site = try TestSite(Self.smallSite.replacingOccurrences(of: "title: Small", with: "title: Small\nbase_url: /docs/"))
        defer { site.remove() }
        let result = try await site.run(["build", "--offline"])
        #expect(result.status == 0, "\(result.stderr)")
        let home = try #require(site.read("site/index.html"))
        #expect(home.contains(#"href="/docs/terms/kerning/""#))
        #expect(home.contains(#"<a href="/docs/guide/intro/">the guide</a>"#))
        #expect(home.contains(#"href="/docs/assets/glossary.css""#))
        #expect(!home.contains(#"href="/terms/"#))
        let override = try await site.run(["build", "--offline", "--base-url", "/other"])
        #expect(override.status == 0)
        #expect(try #require(site.read("site/index.html")).contains(#"href="/other/terms/kerning/""#))
        // What base_url refuses, --base-url refuses too: a usage error, the site as it was.
        for refused in ["ftp://example.org/", "docs"] {
            let result = try await site.run(["build", "--offline", "--base-url", refused])
            #expect(result.status == 64)
            #expect(result.stderr.hasPrefix("error: --base-url must start with '/', 'http://' or 'https://', not '\(refused)'\n"), "\(result.stderr)")
            #expect(try #require(site.read("site/index.html")).contains(#"href="/other/terms/kerning/""#))
        }
    }

    @Test func brokenInternalLinksWarnAndCheckFails() async throws {
        let site = try TestSite(
            """
            -- content/index.md --
            See [missing](/nowhere/) and [fine](/about/) and [external](https://example.com/x).
            -- content/about.md --
            About.
            """)
        defer { site.remove() }
        let build = try await site.run(["build", "--offline"])
        #expect(build.status == 0)
        #expect(build.diagnostics == ["content/index.md:1:15: warning: link to '/nowhere/' leads to no page or file of the site [broken-link]"])
        let check = try await site.run(["check", "--offline"])
        #expect(check.status == 1)
        #expect(check.stderr.contains("Check failed: 1 broken link"))
        try site.write("content/index.md", "See [fine](/about/).\n")
        let clean = try await site.run(["check", "--offline"])
        #expect(clean.status == 0, "\(clean.stderr)")
    }

    @Test func usageErrorsExit64() async throws {
        let site = try TestSite("-- content/index.md --\nx\n")
        defer { site.remove() }
        let result = try await site.run(["build", "--bogus"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("error: unknown option '--bogus'"))
        #expect(try await site.run(["frobnicate"]).status == 64)
        #expect(try await site.run(["build", "--jobs", "zero"]).status == 64)
        let help = try await site.run(["build", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: glossary build"))
    }

    @Test func missingConfigIsAClearError() async throws {
        let site = try TestSite("-- content/index.md --\nx\n", includeConfig: false)
        defer { site.remove() }
        let result = try await site.run(["build", "--offline"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("error: no glossary.yml in"))
    }

    @Test func configProblemsNameTheFileLineAndColumn() async throws {
        let site = try TestSite(
            """
            -- glossary.yml --
            title: T
            titel: typo
            dictionary:
              concurrency: eight
            -- content/index.md --
            x
            """)
        defer { site.remove() }
        let result = try await site.run(["build", "--offline"])
        #expect(result.status == 1)
        #expect(result.diagnostics.count == 2, "\(result.stderr)")
        #expect(result.diagnostics[0].hasPrefix("glossary.yml:2:1: warning: unknown key 'titel'"))
        #expect(result.diagnostics[1].hasPrefix("glossary.yml:4:16: error:"))
    }

    @Test func symlinkLoopsAndLinksOutOfContentAreSkippedWithAWarning() async throws {
        let site = try TestSite(
            """
            -- content/index.md --
            Home
            -- content/notes/inside.txt --
            mine
            -- secret.txt --
            not for publishing
            """)
        defer { site.remove() }
        let fileManager = FileManager.default
        try fileManager.createSymbolicLink(
            atPath: site.root.appendingPathComponent("content/loop").path, withDestinationPath: site.root.appendingPathComponent("content").path)
        try fileManager.createSymbolicLink(
            atPath: site.root.appendingPathComponent("content/leak.txt").path, withDestinationPath: site.root.appendingPathComponent("secret.txt").path)
        try fileManager.createSymbolicLink(
            atPath: site.root.appendingPathComponent("content/alias.txt").path,
            withDestinationPath: site.root.appendingPathComponent("content/notes/inside.txt").path)
        let result = try await site.run(["build", "--offline"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.diagnostics == [
                "content/leak.txt:1:1: warning: symbolic link to a folder or to a file outside content/ is not published [symlink-skipped]",
                "content/loop:1:1: warning: symbolic link to a folder or to a file outside content/ is not published [symlink-skipped]",
            ])
        #expect(!site.exists("site/leak.txt"))
        #expect(site.read("site/alias.txt") == "mine\n")
    }

    @Test func pagesCannotTakeGeneratedPaths() async throws {
        let site = try TestSite(
            """
            -- content/terms/mine.md --
            Mine
            -- content/_glossary/events.md --
            Events
            """)
        defer { site.remove() }
        let result = try await site.run(["build", "--offline"])
        #expect(result.status == 1)
        #expect(
            result.diagnostics == [
                "content/_glossary/events.md:1:1: error: /_glossary/ is generated by glossary; move this page elsewhere [reserved-path]",
                "content/terms/mine.md:1:1: error: /terms/ is generated by glossary; move this page elsewhere [reserved-path]",
            ])
    }

    @Test func staticFilesCannotTakeGeneratedPathsEither() async throws {
        let site = try TestSite(
            """
            -- content/index.md --
            Home
            -- content/_glossary/live-reload.js --
            alert(1);
            -- content/_glossary/notes/a.txt --
            a
            -- content/terms/kerning/index.html --
            <p>mine</p>
            -- content/search/index.html --
            <p>mine</p>
            -- content/glossary.json --
            {}
            -- content/terms/logo.png --
            png
            """)
        defer { site.remove() }
        let result = try await site.run(["build", "--offline"])
        #expect(result.status == 1)
        let generated = "is generated by glossary; move this file elsewhere [reserved-path]"
        #expect(
            result.diagnostics == [
                "content/_glossary/live-reload.js:1:1: error: /_glossary/live-reload.js \(generated)",
                "content/_glossary/notes/a.txt:1:1: error: /_glossary/notes/a.txt \(generated)",
                "content/glossary.json:1:1: error: /glossary.json \(generated)",
                "content/search/index.html:1:1: error: /search/index.html \(generated)",
                "content/terms/kerning/index.html:1:1: error: /terms/kerning/index.html \(generated)",
            ])
        #expect(!site.exists("site/_glossary"))
    }

    /// The clash of a static file is found while loading: a page's error doesn't hide it.
    @Test func aStaticFileClashIsReportedBesidePageErrors() async throws {
        let site = try TestSite(
            """
            -- content/index.md --
            ---
            title: [unclosed
            ---
            Home
            -- content/terms/index.json --
            {}
            """)
        defer { site.remove() }
        let result = try await site.run(["build", "--offline", "--no-source-lines"])
        #expect(result.status == 1)
        let clash = "content/terms/index.json:1:1: error: /terms/index.json is generated by glossary; move this file elsewhere [reserved-path]"
        #expect(result.diagnostics.contains(clash), "\(result.stderr)")
        #expect(result.diagnostics.contains { $0.hasPrefix("content/index.md:") && $0.hasSuffix("[yaml-syntax]") }, "\(result.stderr)")
    }

    @Test(arguments: [".", "content", "content/guide", "..", "themes"])
    func anOutputFolderHoldingOrInsideTheSourcesIsRefused(_ output: String) async throws {
        let site = try TestSite(Self.smallSite)
        defer { site.remove() }
        try site.write("themes/keep.txt", "mine")
        let before = site.files(under: ".")
        let result = try await site.run(["build", "--offline", "--output", output])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("error: the output folder would replace the site's own files; choose a folder such as site/ [output-path]"),
            "\(result.stderr)")
        #expect(site.files(under: ".") == before, "nothing of the site was touched")
    }

    @Test func renderUnderABasePathRewritesLinksOnce() async throws {
        let site = try TestSite(
            """
            -- glossary.yml --
            title: T
            base_url: /docs/
            -- content/index.md --
            See [intro](guide/intro.md), [abs](/guide/intro/) and [[term]].
            -- content/guide/intro.md --
            Intro.
            -- content/glossary/term.md --
            ---
            term: term
            ---
            A word.
            """)
        defer { site.remove() }
        let result = try await site.run(["render", "content/index.md", "--offline"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout
                == #"<p>See <a href="/docs/guide/intro/">intro</a>, <a href="/docs/guide/intro/">abs</a> and <a class="term" href="/docs/terms/term/" data-term="term">term</a>.</p>"#
                + "\n")
    }

    @Test func contentFilesMayOverrideThemeAssetsButNotGeneratedFiles() async throws {
        let site = try TestSite(
            """
            -- content/index.md --
            Home
            -- content/assets/glossary.css --
            body { color: red; }
            """)
        defer { site.remove() }
        let built = try await site.run(["build", "--offline"])
        #expect(built.status == 0, "\(built.stderr)")
        #expect(site.read("site/assets/glossary.css") == "body { color: red; }\n")
        try site.write("content/terms/index.json", "{}\n")
        let clash = try await site.run(["build", "--offline"])
        #expect(clash.status == 1)
        #expect(
            clash.diagnostics == ["content/terms/index.json:1:1: error: /terms/index.json is generated by glossary; move this file elsewhere [reserved-path]"])
    }

    @Test func cleanRendersEveryFileAgain() async throws {
        let site = try TestSite(Self.smallSite)
        defer { site.remove() }
        func inode() -> UInt64? {
            (try? FileManager.default.attributesOfItem(atPath: site.root.appendingPathComponent("site/index.html").path))?[.systemFileNumber] as? UInt64
        }
        #expect(try await site.run(["build", "--offline"]).status == 0)
        let first = inode()
        #expect(try await site.run(["build", "--offline"]).status == 0)
        #expect(inode() == first, "nothing changed: the file the first build wrote is still there")
        let clean = try await site.run(["build", "--offline", "--clean"])
        #expect(clean.status == 0, "\(clean.stderr)")
        #expect(inode() != first, "--clean wrote it again")
    }

    @Test func aSecondBuildWaitsForTheFirstOrFailsWithNoWait() async throws {
        let site = try TestSite(Self.smallSite)
        defer { site.remove() }
        // This test holds the build lock, as a running build would.
        let folder = site.root.appendingPathComponent(".glossary/build")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let descriptor = open(folder.appendingPathComponent("lock").path, O_RDWR | O_CREAT, 0o644)
        #expect(descriptor >= 0)
        #expect(flock(descriptor, LOCK_EX) == 0)
        let pid = Array("\(getpid())\n".utf8)
        _ = pwrite(descriptor, pid, pid.count, 0)

        let refused = try await site.run(["build", "--offline", "--no-wait"])
        #expect(refused.status == 1)
        #expect(
            refused.stderr
                == "error: another build of this site is running (process \(getpid())); not waiting for it (--no-wait) [build-locked]\nBuild failed: 1 error; site/ left unchanged\n"
        )
        #expect(!site.exists("site/index.html"))

        let waiting = try BackgroundBuild(site: site, arguments: ["build", "--offline"], environment: [:], captureErrors: true)
        let announced = await waiting.waitForError(containing: "Waiting for another build of this site to finish (process \(getpid()))…", seconds: 20)
        #expect(announced, "\(waiting.errors)")
        #expect(!site.exists("site/index.html"), "the waiting build must not write while the lock is held")
        close(descriptor)
        #expect(await waiting.wait() == 0)
        #expect(site.exists("site/index.html"))
    }
}
