import Foundation
import TestSupport
import Testing

@testable import GlossaryKit

/// After edits of pages' text alone, `glossary build` and the preview server remake those pages from their old bytes
/// and the search index from its files (`TextEdit`) — byte for byte a clean build — and go the long way whenever
/// anything else changed or anything the shortcut relies on is not as the last build left it.
@Suite struct TextPatchBuildTests {
    typealias Folder = IncrementalBuildTests.Folder
    typealias Builds = IncrementalBuildTests.Builds
    typealias Mode = IncrementalBuildTests.Mode

    /// With the llms files (the default): `llms-full.txt`, which holds the pages' text, is patched too.
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

    /// What the shortcut relies on beside the inputs changed under it: the output folder or the state file (then the
    /// build goes the long way), the previous folder (then the shortcut starts from an empty folder). The output is a
    /// clean build's either way, and the build after it has nothing left to do.
    @Test func whatTheShortcutReliesOnChangedMeansTheLongWay() async throws {
        let folder = try Folder(Self.site)
        let builds = try Builds(folder, mode: .build)
        let site = folder.root.appendingPathComponent("site")
        let previous = folder.root.appendingPathComponent(".site.previous")
        await builds.check("first build")
        let edits: [(String, longWay: Bool, () throws -> Void)] = [
            ("the page's output edited by hand", true, { try Data("hand-made".utf8).write(to: site.appendingPathComponent("guide/page-1/index.html")) }),
            ("a file of the site removed", true, { try FileManager.default.removeItem(at: site.appendingPathComponent("index.html")) }),
            ("llms-full.txt edited by hand", true, { try Data("hand-made".utf8).write(to: site.appendingPathComponent("llms-full.txt")) }),
            ("a file added to the site", true, { try Data("stray".utf8).write(to: site.appendingPathComponent("guide/stray.html")) }),
            ("the previous folder gone", false, { try FileManager.default.removeItem(at: previous) }),
            ("a file added to the previous folder", false, { try Data("stray".utf8).write(to: previous.appendingPathComponent("guide/stray.html")) }),
            (
                "the state file damaged", true,
                {
                    let state = IncrementalBuildTests.stateFile(folder)
                    var bytes = try Data(contentsOf: state)
                    bytes[bytes.count - 50] ^= 0xFF
                    try bytes.write(to: state)
                }
            ),
        ]
        for (step, longWay, change) in edits {
            try folder.append("content/guide/page-1.md", "\nMore text before: \(step).\n")
            try change()
            let result = await builds.check("edit a page's text, \(step)")
            if longWay { #expect(!result.stats.textEdit, "\(step)") }
            // And the build after it has nothing to do.
            let again = await builds.check("after \(step)")
            #expect(again.outputs?.changed == [] && again.stats.written == 0, "\(step): nothing left to do")
        }
        try folder.append("content/guide/page-2.md", "\nPatched again.\n")
        #expect(await builds.check("append text after all that").stats.textEdit)
    }

    /// The sequence: something changes `site/` between builds (a deploy script's `sed -i`, an `rm`, a stray
    /// file), a build undoes it, and the text edit after that starts from the undone site, not from the changed one.
    @Test func aChangeToTheSiteStaysUndoneThroughTheNextTextEdit() async throws {
        let folder = try Folder(Self.site)
        let builds = try Builds(folder, mode: .build)
        let site = folder.root.appendingPathComponent("site")
        try folder.append("content/guide/page-1.md", "\nSecond paragraph one.\n")
        await builds.check("first build")
        let changes: [(String, () throws -> Void)] = [
            ("index.html removed", { try FileManager.default.removeItem(at: site.appendingPathComponent("index.html")) }),
            ("a stray file", { try Data("stray".utf8).write(to: site.appendingPathComponent("stray.html")) }),
            ("index.html edited by hand", { try Data("hand-made".utf8).write(to: site.appendingPathComponent("index.html")) }),
        ]
        for (index, (step, change)) in changes.enumerated() {
            try change()
            await builds.check("the build after \(step)")
            try folder.append("content/guide/page-1.md", "\nParagraph \(index) after \(step).\n")
            #expect(await builds.check("a text edit after \(step)").stats.textEdit, "\(step)")
        }
    }

    /// The default theme shows a page's own title heading apart from the rest (`title_html`, `body`); a theme may write
    /// the body escaped, twice, or test it. Each is remade as a clean build makes it.
    @Test(
        arguments: Mode.allCases,
        [
            nil, "{{<base}}{{$content}}<pre>{{page.content}}</pre>{{#page.title_html}}T{{.}}{{/page.title_html}}{{{page.body}}}{{/content}}{{/base}}\n",
        ])
    func theBodyIsRemadeWhereverTheThemeShowsIt(mode: Mode, template: String?) async throws {
        var files = [
            "glossary.yml": "title: Site\nllms: pages\n", "content/a.md": "# The title of A\n\nSome *text* & more.\n",
            "content/b.md": "No heading, only text.\n",
        ]
        if let template {
            files["themes/default/templates/page.mustache"] = template
            files["themes/default/templates/base.mustache"] = "<html><body>{{$content}}{{/content}}</body></html>\n"
        }
        let builds = try Builds(try Folder(files, theme: .builtIn), mode: mode)
        await builds.check("first build")
        try builds.folder.append("content/a.md", "\nAn <added> line & \"more\".\n")
        #expect(await builds.check("append to a page with a title heading").stats.textEdit)
        try builds.folder.append("content/b.md", "\nAnd a line.\n")
        #expect(await builds.check("append to a page without one").stats.textEdit)
        try builds.folder.write("content/b.md", "")
        await builds.check("empty a page (the body's emptiness is what a section tests)")
    }

    /// Seeded random sequences of edits, most of them of pages' text anywhere in the page (which moves the references
    /// and links after it), some of one or two pages at once, some of anything else: after each, the site is a clean
    /// build's, and the text edits took the shortcut.
    @Test(arguments: [(Mode.build, UInt64(7)), (Mode.serve, UInt64(8)), (Mode.build, UInt64(9))])
    func randomTextEditsAreCleanBuilds(mode: Mode, seed: UInt64) async throws {
        print("random text edits: mode \(mode), seed \(seed)")
        var random = SeededRandom(seed: seed)
        let builds = try Builds(try Folder(Self.site), mode: mode)
        let folder = builds.folder
        let pages = (0..<4).map { "content/guide/page-\($0).md" } + ["content/index.md"]
        let words = ["zygote", "kerning", "<b>bold</b>", "&amp;", "text", "café", "東京", "\"quoted\"", "`code`", "*em*"]
        await builds.check("seed \(seed): first build")
        var textEdits = 0
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
            await builds.check("seed \(seed) step \(step): \(name)")
        }
        #expect(builds.patched == textEdits && textEdits > 20, "\(builds.patched) took the shortcut of \(textEdits) text edits")
    }
}
