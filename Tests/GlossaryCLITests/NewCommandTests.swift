import Foundation
import Testing

/// `glossary new --force`: adds a site to a folder that has files, and never replaces or deletes one.
@Suite struct NewCommandTests {
    @Test func forceWritesIntoAFolderWithFilesAndKeepsEveryOneOfThem() async throws {
        let folder = try TestSite(
            """
            -- README.md --
            # Our docs
            -- notes/todo.txt --
            keep me
            """, includeConfig: false)
        defer { folder.remove() }
        let refused = try await folder.run(["new", "."])
        #expect(refused.status == 1)
        #expect(!folder.exists("glossary.yml"))

        let forced = try await folder.run(["new", ".", "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(
            forced.stdout == """
                Created a glossary site in this folder.
                Kept the files that were there (not overwritten): README.md.

                Next:
                  glossary serve        # preview at http://127.0.0.1:8080/
                  glossary build        # write the site into site/

                """)
        #expect(folder.read("README.md") == "# Our docs\n")
        #expect(folder.read("notes/todo.txt") == "keep me\n")
        #expect(folder.exists("glossary.yml") && folder.exists("content/index.md") && folder.exists(".gitignore"))

        let build = try await folder.run(["build", "--offline", "--strict"])
        #expect(build.status == 0, "\(build.stderr)")
        #expect(build.diagnostics.isEmpty)
    }

    @Test func aSymbolicLinkWhereAFileWouldGoIsKeptToo() async throws {
        let folder = try TestSite("-- elsewhere.txt --\noutside\n", includeConfig: false)
        defer { folder.remove() }
        try FileManager.default.createDirectory(at: folder.root.appendingPathComponent("site"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: folder.root.appendingPathComponent("site/glossary.yml").path, withDestinationPath: "../elsewhere.txt")
        let forced = try await TestSite.run(["new", "site", "--force"], in: folder.root)
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(forced.stdout.contains("Kept the files that were there (not overwritten): glossary.yml."))
        #expect(folder.read("elsewhere.txt") == "outside\n", "the link's target is not written through")
    }

    @Test func aFileIsNoFolder() async throws {
        let folder = try TestSite("-- taken --\nx\n", includeConfig: false)
        defer { folder.remove() }
        let result = try await folder.run(["new", "taken"])
        #expect(result.status == 1)
        #expect(result.stderr == "error: taken exists and is not a folder\n")
    }

    @Test func anEmptyNameIsAUsageErrorAndAControlCharacterInANameIsShownEscaped() async throws {
        let folder = try TestSite("-- other --\nx\n", includeConfig: false)
        defer { folder.remove() }
        try Data("x\n".utf8).write(to: folder.root.appendingPathComponent("a\nb"))
        let empty = try await folder.run(["new", ""])
        #expect(empty.status == 64)
        #expect(empty.stderr.hasPrefix("error: DIR is empty; name the folder to create the site in\n"), "\(empty.stderr)")
        let newline = try await folder.run(["new", "a\nb"])
        #expect(newline.status == 1)
        #expect(newline.stderr == "error: a\\nb exists and is not a folder\n")
    }
}
