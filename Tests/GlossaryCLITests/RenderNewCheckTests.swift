import Foundation
import TestSupport
import Testing

@Suite struct RenderNewCheckTests {
    static let cmark = ["/usr/bin/cmark", "/usr/local/bin/cmark"].first { FileManager.default.isExecutableFile(atPath: $0) }

    static func runCmark(_ markdown: String) async throws -> String {
        let process = Subprocess()
        process.executableURL = URL(fileURLWithPath: try #require(cmark, "the cmark CLI is needed (apt-get install cmark; make test installs it)"))
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(markdown.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test func renderWithoutTermsIsByteIdenticalToTheCmarkCLI() async throws {
        let body = """
            # Title with *emphasis*

            A paragraph with `code`, a [link](https://example.com "t"), an ![image](a.png), <b>raw</b> HTML,
            a hard  
            break, entities &amp; &copy; and "quotes" -- dashes... and a footnote-like [^1].

            > quote
            > - list in quote

            1. one
            2. two

               nested paragraph

            ```swift
            let x = [[1]]
            ```

                indented code

            <div>block html</div>

            ***
            """
        let site = try TestSite("-- content/page.md --\n---\ntitle: T\n---\n" + body + "\n")
        defer { site.remove() }
        let result = try await site.run(["render", "content/page.md", "--offline"])
        #expect(result.status == 0, "\(result.stderr)")
        // Headings differ only by their id and the link to it.
        let anchor = ##"<a class="anchor" href="#title-with-emphasis" aria-labelledby="title-with-emphasis"></a>"##
        #expect(result.stdout.hasPrefix(#"<h1 id="title-with-emphasis">Title with <em>emphasis</em>"# + anchor + "</h1>\n"))
        let plain = result.stdout.replacingOccurrences(of: #"<h1 id="title-with-emphasis">"#, with: "<h1>").replacingOccurrences(of: anchor, with: "")
        #expect(plain == (try await Self.runCmark(body + "\n")))
    }

    @Test func renderLinksTerms() async throws {
        let site = try TestSite(
            """
            -- content/page.md --
            A [[Term]] here.
            -- content/glossary/term.md --
            ---
            term: term
            ---
            A word.
            """)
        defer { site.remove() }
        let result = try await site.run(["render", "content/page.md", "--offline"])
        #expect(result.status == 0)
        #expect(result.stdout == "<p>A <a class=\"term\" href=\"/terms/term/\" data-term=\"term\">Term</a> here.</p>\n")
    }

    @Test func newScaffoldsASiteThatBuildsWithNoWarnings() async throws {
        let parent = try TestSite("", includeConfig: false)
        defer { parent.remove() }
        let created = try await parent.run(["new", "mysite"])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stdout.contains("Created a glossary site in mysite."))
        let folder = parent.root.appendingPathComponent("mysite")
        let build = try await TestSite.run(["build", "--offline", "--strict"], in: folder)
        #expect(build.status == 0, "\(build.stderr)")
        #expect(build.diagnostics.isEmpty)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("site/terms/glossary/index.html").path))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("themes").path), "the built-in theme is used, not a copy")
        #expect(parent.read("mysite/.gitignore") == "site/\n.site.*/\n.glossary/build/\n")
        // What a build leaves — the site, the previous site kept beside it for the next build, the build state —
        // is all ignored: a fresh repository of the site sees only its sources.
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(".site.previous").path))
        let untracked = try gitUntracked(in: folder)
        #expect(untracked.contains("glossary.yml") && untracked.contains("content/index.md"), "\(untracked)")
        let generated = untracked.filter { $0.hasPrefix("site/") || $0.hasPrefix(".site.") || $0.hasPrefix(".glossary/build/") }
        #expect(generated.isEmpty, "not ignored: \(generated)")
        let readme = try #require(parent.read("mysite/README.md"))
        for command in ["glossary serve", "glossary build", "[[word]]", "content/glossary/", "glossary theme eject"] {
            #expect(readme.contains(command), "README.md explains \(command)")
        }
        let again = try await parent.run(["new", "mysite"])
        #expect(again.status == 1)
        #expect(
            again.stderr
                == "error: mysite exists and is not empty; choose a new folder, or pass --force to add the site's files to it (existing files are kept)\n")
    }

    @Test func checkReportsUnresolvedTermsAndExitsOne() async throws {
        let site = try TestSite("-- content/index.md --\nA [[mising]] word.\n")
        defer { site.remove() }
        let result = try await site.run(["check", "--offline"])
        #expect(result.status == 1)
        #expect(result.diagnostics == ["content/index.md:1:3: warning: no definition found for 'mising' (offline, and not in the cache) [unknown-term]"])
        #expect(result.stderr.contains("Check failed: 1 unresolved term reference"))
        #expect(!site.exists("site"), "check writes nothing")
    }
}

/// The files `git status` lists as untracked in `folder` once it is made a repository, one path each.
private func gitUntracked(in folder: URL) throws -> [String] {
    let environment = ["PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": folder.path]
    let made = try InstalledBinaryTests.run("/usr/bin/env", ["git", "init", "--quiet"], in: folder, environment: environment)
    try #require(made.status == 0, "git init: \(made.stderr)")
    let status = try InstalledBinaryTests.run("/usr/bin/env", ["git", "status", "--porcelain", "--untracked-files=all"], in: folder, environment: environment)
    try #require(status.status == 0, "git status: \(status.stderr)")
    return status.stdout.split(separator: "\n").map { String($0.dropFirst(3)) }
}
