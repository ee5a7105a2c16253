import Foundation
import TestSupport
import Testing

@testable import GlossaryKit

/// Reading a site's folder: which files are pages, which are copied, and everything left out said out loud.
@Suite final class SiteSourceTests {
    /// A fresh site for each test, removed after it.
    let root: URL

    init() throws {
        root = try InlineSite.temporaryFolder("glossary-source")
        try InlineSite.write(
            [
                "glossary.yml": "title: T\n", "content/index.md": "Home\n", "content/guide/b.md": "B\n", "content/guide/a.md": "A\n",
                "content/pic.png": "png", "content/.hidden.md": "as written\n", "content/notes.md~": "backup\n", "content/.git/config": "x\n",
                "content/.nojekyll": "", "content/.well-known/security.txt": "Contact: x\n", "content/.page.md.swp": "swap\n",
            ], into: root)
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    func scan() -> (SiteSource, [String]) {
        let (source, diagnostics) = SiteSource.scan(root: root)
        return (source, diagnostics.map(\.description))
    }

    @Test func pagesAndFilesAreListedSortedDotfilesCopiedBackupsAndVersionControlLeftOut() throws {
        let (source, diagnostics) = scan()
        #expect(diagnostics == [])
        #expect(source.configText == "title: T\n")
        #expect(source.markdownFiles.map(\.contentPath) == ["guide/a.md", "guide/b.md", "index.md"])
        #expect(source.markdownFiles.map(\.displayPath) == ["content/guide/a.md", "content/guide/b.md", "content/index.md"])
        #expect(source.staticFiles.map(\.contentPath) == [".hidden.md", ".nojekyll", ".well-known/security.txt", "pic.png"])
    }

    /// A path is hidden when a folder or file in it is named with a dot, wherever in the path.
    @Test(arguments: [
        (".hidden.md", true), (".well-known/notes.md", true), ("guide/.draft/a.md", true), ("guide/.a.md", true),
        ("guide/a.md", false), ("guide/v1.2/a.b.md", false), ("guide./a.md", false), ("a..md", false), ("", false),
    ])
    func hiddenPathsAreThoseWithANameStartingWithADot(path: String, hidden: Bool) {
        #expect(IgnoredNames.isHidden(path) == hidden)
    }

    /// A preview's watcher names what changed; the scan is brought up to date from that only for markdown files it
    /// listed, still regular files, in a folder with nothing left out and no links.
    @Test func aScanIsRefreshedOnlyForTheMarkdownFilesItListed() throws {
        let (source, _) = scan()
        try InlineSite.write(["content/guide/a.md": "A, longer now\n"], into: root)
        let refreshed = try #require(source.refreshed(["content/guide/a.md"]))
        let signature = FileSignature(path: root.path + "/content/guide/a.md")
        #expect(refreshed.markdownFiles.map(\.signature) == [signature] + source.markdownFiles.dropFirst().map(\.signature))
        #expect(refreshed.markdownFiles.first?.signature != source.markdownFiles.first?.signature)
        #expect(source.refreshed([]) != nil)
        // A file the scan didn't list, a static file, a folder, glossary.yml: only a new scan tells.
        for paths: Set<String> in [["content/new.md"], ["content/pic.png"], ["content/guide"], ["glossary.yml"], ["*"], ["content/guide/a.md", "themes/x"]] {
            #expect(source.refreshed(paths) == nil, "\(paths)")
        }
        // Gone, or no longer a regular file.
        try FileManager.default.removeItem(at: root.appendingPathComponent("content/guide/b.md"))
        #expect(source.refreshed(["content/guide/b.md"]) == nil)
        try FileManager.default.createSymbolicLink(atPath: root.path + "/content/guide/b.md", withDestinationPath: "a.md")
        #expect(source.refreshed(["content/guide/b.md"]) == nil)
        // A scan that found a link (its target's changes come under another name), or left something out.
        let (linked, _) = scan()
        #expect(linked.hasLinks && linked.refreshed(["content/index.md"]) == nil)
        try FileManager.default.removeItem(at: root.appendingPathComponent("content/guide/b.md"))
        try FileManager.default.createSymbolicLink(atPath: root.path + "/content/guide/b.md", withDestinationPath: "missing.md")
        let (dangling, _) = scan()
        #expect(!dangling.hasLinks && dangling.refreshed(["content/index.md"]) == nil)
    }

    /// What a preview's watcher sees: below its paths, by whole components.
    @Test func aWatchedPathCoversWhatIsBelowItAndNothingBeside() throws {
        let (source, _) = scan()
        let known = try #require(SiteInputs(source: source, problems: []).refreshed([], watched: ["content", "glossary.yml", ".glossary/cache"]))
        let base = root.standardizedFileURL.path
        for path in ["content", "content/a.md", "content/guide/b.md", "glossary.yml", ".glossary/cache/en/x.json"] {
            #expect(known.sees(base + "/" + path), "\(path)")
        }
        for path in ["contents/a.md", "content.md", "glossary.yml~", ".glossary/cached/x.json", "themes/default/x.css", ""] {
            #expect(!known.sees(base + "/" + path), "\(path)")
        }
        #expect(!known.sees("/usr/share/wordnet/data.noun"))
    }

    @Test func whatCantBePublishedIsAWarningNamingIt() throws {
        let content = root.appendingPathComponent("content")
        #expect(mkfifo(content.appendingPathComponent("pipe.md").path, 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: content.appendingPathComponent("dangling.md").path, withDestinationPath: "missing.md")
        try FileManager.default.createSymbolicLink(atPath: content.appendingPathComponent("loop-a.md").path, withDestinationPath: "loop-b.md")
        try FileManager.default.createSymbolicLink(atPath: content.appendingPathComponent("loop-b.md").path, withDestinationPath: "loop-a.md")
        let badName = content.path + "/bad-\u{FFFD}.md"
        var bytes = Array(content.path.utf8) + Array("/bad-".utf8) + [0xFF] + Array(".md".utf8) + [0]
        let descriptor = bytes.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) }
        }
        #expect(descriptor >= 0)
        close(descriptor)

        let (source, diagnostics) = scan()
        #expect(
            diagnostics == [
                "content/bad-\u{FFFD}.md:1:1: warning: not published: its name is not valid UTF-8 [file-skipped]",
                "content/dangling.md:1:1: warning: not published: it is a symbolic link to nothing [file-skipped]",
                "content/loop-a.md:1:1: warning: not published: it is a symbolic link that loops [file-skipped]",
                "content/loop-b.md:1:1: warning: not published: it is a symbolic link that loops [file-skipped]",
                "content/pipe.md:1:1: warning: not published: it is a FIFO, not a regular file [file-skipped]",
            ])
        #expect(source.markdownFiles.map(\.contentPath) == ["guide/a.md", "guide/b.md", "index.md"])
        #expect(!FileManager.default.fileExists(atPath: badName))
    }

    @Test func aFileThatCantBeReadIsAnErrorSayingWhy() throws {
        let (source, _) = scan()
        let file = try #require(source.markdownFiles.first)
        try FileManager.default.removeItem(at: file.url)
        guard case .failure(let diagnostic) = source.read(file) else {
            Issue.record("a deleted file was read")
            return
        }
        #expect(diagnostic.description == "content/guide/a.md:1:1: error: can't read file: no such file or directory [read-failed]")
    }

    @Test func invalidUTF8IsAnErrorAtTheFirstBadByte() {
        let bytes = Data("line one\nsecond café ".utf8) + Data([0xC3, 0x28]) + Data(" rest\n".utf8)
        guard case .failure(let diagnostic) = SiteSource.decodeUTF8(bytes, file: "content/x.md") else {
            Issue.record("invalid UTF-8 accepted")
            return
        }
        #expect(diagnostic.description == "content/x.md:2:13: error: file is not valid UTF-8 [encoding]")
        guard case .success(let text) = SiteSource.decodeUTF8(Data("ok é\n".utf8), file: "x") else {
            Issue.record("valid UTF-8 refused")
            return
        }
        #expect(text == "ok é\n")
    }

    @Test(.enabled(if: geteuid() != 0 || OtherUser.isAvailable, "as root, an unreadable folder needs another user to read it: no `nobody` or no runuser"))
    func anUnreadableFolderIsAWarningNotASilentGap() throws {
        try FileManager.default.createDirectory(at: root.appendingPathComponent("content/private"), withIntermediateDirectories: true)
        try Data("secret\n".utf8).write(to: root.appendingPathComponent("content/private/s.md"))
        let warning = "content/private:1:1: warning: not published: the folder can't be read: permission denied [file-skipped]"
        guard geteuid() == 0 else {
            #expect(chmod(root.appendingPathComponent("content/private").path, 0) == 0)
            defer { chmod(root.appendingPathComponent("content/private").path, 0o755) }
            let (_, diagnostics) = scan()
            #expect(diagnostics == [warning])
            return
        }
        // Root reads any folder: the unreadable case is only real for another user.
        let user = try OtherUser()
        defer { user.remove() }
        let site = try user.copy(root)
        #expect(chmod(site.appendingPathComponent("content/private").path, 0) == 0)
        let result = try user.run(GlossaryBinary.url, ["build", "--offline", "--no-source-lines"], in: site)
        #expect(result.contains(warning), "\(result)")
    }
}

/// The scan's order of paths, folder by folder: the byte comparison agrees with comparing components.
@Suite struct SiteSourceOrderTests {
    static func reference(_ lhs: String, _ rhs: String) -> Bool {
        lhs.split(separator: "/").lexicographicallyPrecedes(rhs.split(separator: "/"))
    }

    @Test func foldersComeBeforeNamesTheyPrefix() {
        #expect(SiteSource.precedes("a/b.md", "a.md"))
        #expect(SiteSource.precedes("a/b.md", "a-b.md"))
        #expect(SiteSource.precedes("a", "a/b"))
        #expect(!SiteSource.precedes("a.md", "a/b.md"))
        #expect(!SiteSource.precedes("a.md", "a.md"))
        #expect(SiteSource.precedes("café/a.md", "cafés.md"))
    }

    @Test func randomPathsSortAsTheirComponentsDo() {
        var random = SeededRandom(seed: 0x359c)
        let pieces = ["a", "b", "a-b", "a.b", "ab", "_x", "Z", "é", "e\u{301}", "1", "a b"]
        func path() -> String { (0..<Int.random(in: 1...3, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined(separator: "/") }
        for _ in 0..<5000 {
            let (lhs, rhs) = (path(), path())
            #expect(SiteSource.precedes(lhs, rhs) == Self.reference(lhs, rhs), "\(lhs) vs \(rhs)")
        }
    }
}

/// The scan walks the content folder's subfolders on every core: what it lists, and in what order, is what one walk
/// of the tree finds.
@Suite struct SiteSourceParallelScanTests {
    /// One walk: each folder's names sorted, depth first, dotfiles and backups left out.
    static func reference(_ folder: String, prefix: String = "") -> [String] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        return names.filter { !$0.hasPrefix(".") && !$0.hasSuffix("~") }.flatMap { name -> [String] in
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isDirectory)
            return isDirectory.boolValue ? reference(folder + "/" + name, prefix: prefix + name + "/") : [prefix + name]
        }
    }

    @Test func randomTreesAreListedInTheOrderOfOneWalk() throws {
        var random = SeededRandom(seed: 0x5ca7)
        for round in 0..<8 {
            let root = try InlineSite.temporaryFolder("glossary-scan-\(round)")
            defer { try? FileManager.default.removeItem(at: root) }
            let names = ["a", "b", "a-b", "z", "index", "é", "_x", "Guide", "2023"]
            var files: [String: String] = [:]
            for _ in 0..<(20 + Int(random.next() % 60)) {
                let depth = 1 + Int(random.next() % 4)
                let parts = (0..<depth).map { _ in names[Int(random.next() % UInt64(names.count))] }
                files["content/" + parts.joined(separator: "/") + (random.next() % 4 == 0 ? ".png" : ".md")] = "x\n"
            }
            // A file and a folder can't share a path: the first one written wins.
            var written: [String: String] = [:]
            for (path, text) in files.sorted(by: { $0.key < $1.key }) {
                let folders = path.split(separator: "/").dropLast().indices.map { path.split(separator: "/")[...$0].joined(separator: "/") }
                if folders.contains(where: { written[$0 + ".md"] != nil || written[$0 + ".png"] != nil || written[$0] != nil }) { continue }
                if written.keys.contains(where: { $0.hasPrefix(path + "/") }) { continue }
                written[path] = text
            }
            try InlineSite.write(written.merging(["glossary.yml": "title: T\n"]) { $1 }, into: root)
            // Something skipped deep down, and at the top.
            try FileManager.default.createSymbolicLink(atPath: root.path + "/content/dangling.md", withDestinationPath: "missing.md")
            let deepPath = written.keys.first { $0.split(separator: "/").count > 2 }
            let deepFolder = root.path + "/content/" + (deepPath.map { $0.split(separator: "/").dropFirst().dropLast().joined(separator: "/") } ?? "a")
            try FileManager.default.createDirectory(atPath: deepFolder, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: deepFolder + "/gone.md", withDestinationPath: "nowhere.md")

            var skipped: [String] = []
            let listed = SiteSource.listFiles(in: root.appendingPathComponent("content")) { path, _ in skipped.append(path) }
            let expected = Self.reference(root.path + "/content").filter { !$0.hasSuffix("dangling.md") && !$0.hasSuffix("gone.md") }
            #expect(listed == expected)
            #expect(Set(skipped) == ["dangling.md", String(deepFolder.dropFirst(root.path.count + "/content/".count)) + "/gone.md"])
        }
    }
}
