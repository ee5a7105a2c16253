import Foundation
import TestSupport
import Testing

@testable import GlossaryKit

/// `glossary build` after edits of pages' text alone remakes those pages and the search index from the snapshot, the
/// outputs file and the previous folder, and swaps the result in — byte for byte a clean build — and goes the long way
/// whenever anything else changed or anything it relies on is not as the last build left it.
@Suite struct TextPatchBuildTests {
    typealias Folder = IncrementalBuildTests.Folder

    static func build(_ folder: Folder) async -> BuildResult { await BuildSnapshotTests.build(folder) }

    /// Whether the build was a patch (its stages say so, and its stats).
    static func patched(_ result: BuildResult) -> Bool { result.stats.stageTimes.map(\.name) == ["check", "patch"] && result.stats.patched }

    /// Expects the build to have been a patch, or not.
    static func expect(_ result: BuildResult, patched: Bool = true, _ step: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let was = Self.patched(result)
        #expect(was == patched, "\(step): \(was ? "patched" : "not patched") (\(result.stats.stageTimes.map(\.name)))", sourceLocation: sourceLocation)
    }

    /// Builds, and checks the site against a clean build's; returns the result.
    @discardableResult
    static func check(_ folder: Folder, _ step: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) async -> BuildResult {
        let result = await build(folder)
        let clean = await IncrementalBuildTests.clean(IncrementalBuildTests.options(folder))
        #expect(result.diagnostics == clean.diagnostics, "\(step): problems differ", sourceLocation: sourceLocation)
        guard clean.files != nil else {
            #expect(!result.succeeded, "\(step): the clean build failed, this one did not", sourceLocation: sourceLocation)
            return result
        }
        #expect(result.succeeded, "\(step): \(result.errors)", sourceLocation: sourceLocation)
        let tree = IncrementalBuildTests.tree(folder.root.appendingPathComponent("site"))
        #expect(tree.keys.sorted() == clean.files?.keys.sorted(), "\(step): the files differ", sourceLocation: sourceLocation)
        for (path, data) in clean.files ?? [:] where tree[path] != data {
            Issue.record("\(step): \(path) differs from a clean build", sourceLocation: sourceLocation)
        }
        return result
    }

    static var site: [String: String] {
        var files: [String: String] = [
            "glossary.yml": "title: Site\n", "content/glossary/kerning.md": "---\nterm: Kerning\n---\nSpace.\n",
            ".glossary/cache/en/ligature.json": IncrementalBuildTests.cacheEntry("ligature", "A joined glyph."),
            "content/index.md": "---\ntitle: Home\n---\nWelcome, see [page 1](guide/page-1.md).\n",
        ]
        for index in 0..<4 {
            files["content/guide/page-\(index).md"] =
                "---\ntitle: Page \(index)\n---\n## Part\n\nAbout [[kerning]] & <things>, with a [link](page-0.md).\n\n## Other\n\nMore on [[ligature]].\n"
        }
        return files
    }

    @Test func aTextEditIsPatchedAndIsACleanBuild() async throws {
        let folder = try Folder(Self.site)
        let site = folder.root.appendingPathComponent("site")
        let previous = folder.root.appendingPathComponent(".site.previous")
        await Self.check(folder, "first build")
        #expect(FileManager.default.fileExists(atPath: previous.path), "a first build leaves a previous folder of links")

        try folder.append("content/guide/page-1.md", "\nA zygote, newly searched for.\n")
        let before = FileSignature(path: site.path)?.identity
        let appended = await Self.check(folder, "append text")
        Self.expect(appended, "append text")
        #expect(appended.stats.pages == 5)
        let changed = appended.outputs?.changed ?? []
        #expect(changed.contains("guide/page-1/index.html") && changed.contains("search/index.json"))
        #expect(changed.allSatisfy { $0 == "guide/page-1/index.html" || $0.hasPrefix("search/") }, "\(changed)")
        #expect(FileSignature(path: site.path)?.identity != before, "the previous folder, brought up to date, was swapped in")
        #expect(FileSignature(path: previous.path)?.identity == before, "and the old site waits as the previous one")
        #expect(BuildSnapshotTests.replayed(await Self.build(folder)), "the build after it has nothing to do")

        // Again, from the folder the last patch left: it brings the other edit's page up to date as well.
        try folder.append("content/guide/page-2.md", "\nA second edit.\n")
        Self.expect(await Self.check(folder, "append to another page"), "append to another page")
        let moved =
            "---\ntitle: Page 3\n---\n## Part\n\nA paragraph first.\n\nAbout [[kerning]] & <things>, with a [link](page-0.md).\n\n## Other\n\nMore on [[ligature]].\n"
        try folder.write("content/guide/page-3.md", moved)
        Self.expect(await Self.check(folder, "move references and links down the page"), "move references and links down the page")
        try folder.append("content/guide/page-0.md", "\nOne.\n")
        try folder.append("content/index.md", "\nTwo.\n")
        Self.expect(await Self.check(folder, "two pages at once"), "two pages at once")
        try folder.append("content/guide/page-1.md", "\nThe same page again.\n")
        Self.expect(await Self.check(folder, "a page patched before"), "a page patched before")
    }

    @Test func anythingElseGoesTheLongWay() async throws {
        let folder = try Folder(Self.site.merging(["content/unknown.md": "---\ntitle: Unknown\n---\nOn [[nosuchterm]].\n"]) { $1 })
        let site = folder.root.appendingPathComponent("site")
        let previous = folder.root.appendingPathComponent(".site.previous")
        let outputs = BuildOutputs(folder: folder.root.appendingPathComponent(".glossary/build"), output: site).url
        await Self.check(folder, "first build")
        let edits: [(String, () throws -> Void)] = [
            ("retitle a page", { try folder.write("content/guide/page-3.md", "---\ntitle: Page Three\n---\n## Part\n\nAbout [[kerning]].\n") }),
            ("reference another term", { try folder.append("content/guide/page-0.md", "\nSee [[leading]].\n") }),
            ("add a heading", { try folder.append("content/guide/page-0.md", "\n## More\n") }),
            ("add a link", { try folder.append("content/guide/page-0.md", "\nSee [one](page-1.md).\n") }),
            ("edit an entry's text", { try folder.append("content/glossary/kerning.md", "\nMore space.\n") }),
            (
                "edit a page and the configuration",
                {
                    try folder.append("content/guide/page-1.md", "\nText.\n")
                    try folder.write("glossary.yml", "title: Site again\n")
                }
            ),
            (
                "edit a page and add one",
                {
                    try folder.append("content/guide/page-1.md", "\nMore.\n")
                    try folder.write("content/guide/page-9.md", "---\ntitle: Page 9\n---\nNew.\n")
                }
            ),
            ("edit a page a problem points into", { try folder.append("content/unknown.md", "\nStill unknown.\n") }),
            (
                "edit a page whose output was edited by hand",
                {
                    try folder.append("content/guide/page-1.md", "\nAnd more.\n")
                    try Data("hand-made".utf8).write(to: site.appendingPathComponent("guide/page-1/index.html"))
                }
            ),
            (
                "edit a page when the previous folder is gone",
                {
                    try folder.append("content/guide/page-1.md", "\nOnce more.\n")
                    try FileManager.default.removeItem(at: previous)
                }
            ),
            (
                "edit a page when the previous folder holds a stray file",
                {
                    try folder.append("content/guide/page-1.md", "\nYet more.\n")
                    try Data("stray".utf8).write(to: previous.appendingPathComponent("guide/stray.html"))
                }
            ),
            (
                "edit a page when the outputs file is damaged",
                {
                    try folder.append("content/guide/page-1.md", "\nEven more.\n")
                    var bytes = try Data(contentsOf: outputs)
                    bytes[bytes.count / 2] ^= 0xFF
                    try bytes.write(to: outputs)
                }
            ),
            ("break a page", { try folder.write("content/guide/page-2.md", "---\ntitle: [oops\n---\nx\n") }),
            ("fix it", { try folder.write("content/guide/page-2.md", "---\ntitle: Page 2\n---\nAbout [[kerning]].\n") }),
        ]
        for (step, edit) in edits {
            try edit()
            let result = await Self.check(folder, step)
            Self.expect(result, patched: false, step)
            if result.succeeded {
                #expect(BuildSnapshotTests.replayed(await Self.build(folder)), "\(step): the build after it has nothing to do")
            }
        }
        try folder.append("content/guide/page-2.md", "\nPatched again.\n")
        Self.expect(await Self.check(folder, "append text after all that"), "append text after all that")
    }

    /// The default theme shows a page's own title heading apart from the rest (`title_html`, `body`); a theme may write
    /// the body escaped. Both are patched as a clean build makes them.
    @Test(arguments: [nil, "{{<base}}{{$content}}<pre>{{page.content}}</pre>{{#page.title_html}}T{{/page.title_html}}{{/content}}{{/base}}\n"])
    func theBodyIsPatchedWhereverTheThemeShowsIt(template: String?) async throws {
        var files = [
            "glossary.yml": "title: Site\n", "content/a.md": "# The title of A\n\nSome *text* & more.\n", "content/b.md": "No heading, only text.\n",
        ]
        if let template {
            files["themes/default/templates/page.mustache"] = template
            files["themes/default/templates/base.mustache"] = "<html><body>{{$content}}{{/content}}</body></html>\n"
        }
        let folder = try Folder(files, testTheme: false)
        await Self.check(folder, "first build")
        try folder.append("content/a.md", "\nAn <added> line & \"more\".\n")
        Self.expect(await Self.check(folder, "append to a page with a title heading"), "append to a page with a title heading")
        try folder.append("content/b.md", "\nAnd a line.\n")
        Self.expect(await Self.check(folder, "append to a page without one"), "append to a page without one")
    }

    /// Seeded random sequences of edits, most of them of pages' text anywhere in the page (which moves the references
    /// and links after it), some of one or two pages at once, some of anything else: after each, the site is a clean
    /// build's, and the text edits were patches.
    @Test(arguments: [UInt64(7), 8, 9])
    func randomTextEditsArePatchesAndCleanBuilds(seed: UInt64) async throws {
        var random = SeededRandom(seed: seed)
        let folder = try Folder(Self.site)
        let pages = (0..<4).map { "content/guide/page-\($0).md" } + ["content/index.md"]
        let words = ["zygote", "kerning", "<b>bold</b>", "&amp;", "text", "café", "東京", "\"quoted\"", "`code`", "*em*"]
        await Self.check(folder, "seed \(seed): first build")
        var textEdits = 0
        var patched = 0
        var added: [String] = []
        for step in 0..<40 {
            let word = { words[Int(random.next() % UInt64(words.count))] }
            func editText(_ path: String) throws {
                var lines = try String(contentsOf: folder.root.appendingPathComponent(path), encoding: .utf8).components(separatedBy: "\n")
                // After the front matter: a paragraph of its own, so the page's structure stays as it is.
                let end = lines.indices.filter { lines[$0] == "---" }.dropFirst().first ?? 0
                let at = end + 1 + Int(random.next() % UInt64(max(1, lines.count - end - 1)))
                lines.insert(contentsOf: ["", "Words \(step): \(word()) \(word()) \(word()).", ""], at: min(at, lines.count))
                try folder.write(path, lines.joined(separator: "\n"))
            }
            var name: String
            switch random.next() % 10 {
            case 0:
                let path = pages[Int(random.next() % UInt64(pages.count))]
                try folder.append(path, "\nSee [[ligature]] at \(step).\n")
                name = "reference a term on \(path)"
            case 1 where added.isEmpty || random.next() % 2 == 0:
                // In a folder of its own at times, which the previous folder then lacks.
                let path = step % 3 == 0 ? "content/new-\(step)/page.md" : "content/guide/new-\(step).md"
                try folder.write(path, "---\ntitle: New \(step)\n---\nAbout [[kerning]].\n")
                added.append(path)
                name = "add a page"
            case 1:
                // Its file and maybe its folder go from the live folder, then from the previous one.
                try folder.remove(added.removeFirst())
                name = "delete a page"
            case 2, 3:
                let first = pages[Int(random.next() % UInt64(pages.count))]
                let second = pages[Int(random.next() % UInt64(pages.count))]
                try editText(first)
                try editText(second)
                name = "edit the text of \(first) and \(second)"
                textEdits += 1
            default:
                let path = pages[Int(random.next() % UInt64(pages.count))]
                try editText(path)
                name = "edit the text of \(path)"
                textEdits += 1
            }
            let result = await Self.check(folder, "seed \(seed) step \(step): \(name)")
            if Self.patched(result) { patched += 1 }
            #expect(Self.patched(result) == name.hasPrefix("edit the text"), "seed \(seed) step \(step): \(name): \(Self.patched(result))")
        }
        #expect(patched == textEdits && patched > 20, "\(patched) patched of \(textEdits) text edits")
    }
}
