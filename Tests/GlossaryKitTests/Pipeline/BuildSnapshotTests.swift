import Foundation
import TestSupport
import Testing

@testable import GlossaryKit

/// A `glossary build` with nothing to do repeats the last build's report from its snapshot and touches nothing;
/// any change to what that build read, to its output, or to the options sends it the long way, which gives
/// exactly a clean build.
@Suite struct BuildSnapshotTests {
    typealias Folder = IncrementalBuildTests.Folder

    /// A build of `folder` as `glossary build` makes it, trusting signatures at once (the files were just written).
    static func build(_ folder: Folder, drafts: Bool = false, baseURL: String? = nil, wordNetFolder: String? = nil, settle: Double = 0) async -> BuildResult {
        var options = IncrementalBuildTests.options(folder, drafts: drafts)
        options.baseURL = baseURL
        options.wordNetFolder = wordNetFolder
        let state = BuildState()
        state.settleSeconds = settle
        return await SiteBuilder(options: options, state: state, makeFetcher: nil).buildAndWrite()
    }

    static func replayed(_ result: BuildResult) -> Bool { result.stats.stageTimes.map(\.name) == ["check"] }

    static func snapshotURL(_ folder: Folder) -> URL {
        BuildSnapshot.url(folder: folder.root.appendingPathComponent(".glossary/build"), output: folder.root.appendingPathComponent("site"))
    }

    static let site = IncrementalBuildTests.startingSite.merging([
        "content/guide/intro.md": "---\ntitle: Intro\n---\n# Intro\n\nAbout [[kerning]], [[ligature]], a [[quill]] and [[nosuchterm]].\n"
    ]) { $1 }

    @Test func aBuildWithNothingToDoSaysWhatTheLastOneSaid() async throws {
        let folder = try Folder(Self.site)
        let first = await Self.build(folder)
        #expect(first.succeeded && !Self.replayed(first))
        #expect(first.warnings.map(\.code) == [.unknownTerm], "the offline build can't define nosuchterm")
        let tree = IncrementalBuildTests.tree(folder.root.appendingPathComponent("site"))

        let second = await Self.build(folder)
        #expect(Self.replayed(second), "\(second.stats.stageTimes)")
        #expect(second.succeeded && second.outputs?.changed == [] && second.outputs?.paths == first.outputs?.paths)
        #expect(second.diagnostics == first.diagnostics)
        #expect(second.diagnostics.map(\.description) == first.diagnostics.map(\.description))
        #expect(second.stats.pages == first.stats.pages && second.stats.terms == first.stats.terms && second.stats.cached == first.stats.cached)
        #expect(first.stats.fromWordNet == 1, "quill is WordNet's")
        #expect(second.stats.local == first.stats.local && second.stats.fromWordNet == first.stats.fromWordNet && second.stats.files == first.stats.files)
        #expect(second.stats.unresolved == 1 && second.config?.title == "Site")
        #expect(IncrementalBuildTests.tree(folder.root.appendingPathComponent("site")) == tree)
    }

    /// Each change, then the build: the long way, equal to a clean build; then once more, replayed again.
    @Test func anyChangeToWhatTheBuildReadGoesTheLongWay() async throws {
        let folder = try Folder(Self.site)
        let site = folder.root.appendingPathComponent("site")
        _ = await Self.build(folder)
        let changes: [(String, () throws -> Void)] = [
            // Same length, so only the signature's time and the bytes tell.
            ("edit a page in place", { try folder.write("content/index.md", "---\ntitle: Home\n---\nWelcome to [[kerninG]].\n") }),
            ("edit a glossary entry", { try folder.write("content/glossary/leading.md", "---\nterm: Leading\n---\nThe space between baselines.\n") }),
            ("add a page", { try folder.write("content/new.md", "---\ntitle: New\n---\nOn [[tracking]].\n") }),
            ("delete a page", { try folder.remove("content/new.md") }),
            ("add a static file", { try folder.write("content/a.txt", "a\n") }),
            ("edit the cache", { try folder.write(".glossary/cache/en/ligature.json", IncrementalBuildTests.cacheEntry("ligature", "Joined letters.")) }),
            ("edit the config", { try folder.write("glossary.yml", "title: Other\n") }),
            ("edit a template", { try folder.write("themes/default/templates/404.mustache", "{{<base}}{{$content}}Gone{{/content}}{{/base}}\n") }),
            ("edit an asset", { try folder.write("themes/default/assets/site.css", "body { margin: 0; }\n") }),
            ("edit an output file", { try Data("changed".utf8).write(to: site.appendingPathComponent("index.html")) }),
            ("delete an output file", { try FileManager.default.removeItem(at: site.appendingPathComponent("404.html")) }),
            ("add a file to the output", { try Data("stray".utf8).write(to: site.appendingPathComponent("stray.html")) }),
            // Below the top level too: each folder there is listed on its own thread.
            ("edit an output file in a folder", { try Data("changed".utf8).write(to: site.appendingPathComponent("terms/index.html")) }),
            ("add a file to a folder of the output", { try Data("stray".utf8).write(to: site.appendingPathComponent("terms/stray.html")) }),
            (
                "delete an output folder's file",
                { try FileManager.default.removeItem(at: site.appendingPathComponent("search/index.html")) }
            ),
            (
                "replace the output folder",
                {
                    let copy = folder.root.appendingPathComponent("copy")
                    try FileManager.default.copyItem(at: site, to: copy)
                    try FileManager.default.removeItem(at: site)
                    try FileManager.default.moveItem(at: copy, to: site)
                }
            ),
            (
                "damage the snapshot",
                {
                    var bytes = try Data(contentsOf: Self.snapshotURL(folder))
                    bytes[bytes.count / 2] ^= 0xFF
                    try bytes.write(to: Self.snapshotURL(folder))
                }
            ),
        ]
        for (name, change) in changes {
            try change()
            let result = await Self.build(folder)
            #expect(!Self.replayed(result), "\(name): replayed")
            let clean = await IncrementalBuildTests.clean(IncrementalBuildTests.options(folder))
            #expect(result.diagnostics == clean.diagnostics, "\(name)")
            #expect(IncrementalBuildTests.tree(site) == clean.files, "\(name): the site is not what a clean build gives")
            #expect(Self.replayed(await Self.build(folder)), "\(name): the build after it has nothing to do")
        }
    }

    @Test func otherOptionsGoTheLongWay() async throws {
        let folder = try Folder(Self.site.merging(["content/draft.md": "---\ntitle: Draft\ndraft: true\n---\nSoon.\n"]) { $1 })
        _ = await Self.build(folder)
        #expect(Self.replayed(await Self.build(folder)))
        let drafts = await Self.build(folder, drafts: true)
        #expect(!Self.replayed(drafts) && drafts.outputs?.paths.contains("draft/index.html") == true)
        #expect(Self.replayed(await Self.build(folder, drafts: true)))
        let based = await Self.build(folder, drafts: true, baseURL: "/docs/")
        #expect(!Self.replayed(based))
        #expect(Self.replayed(await Self.build(folder, drafts: true, baseURL: "/docs/")))
    }

    /// WordNet's data is read from outside the site: another folder, or a file of it changed, is a change.
    @Test func wordNetsDataIsAnInput() async throws {
        let folder = try Folder(Self.site)
        let first = folder.root.appendingPathComponent("wordnet-a").path
        let second = folder.root.appendingPathComponent("wordnet-b")
        _ = await Self.build(folder, wordNetFolder: first)
        #expect(Self.replayed(await Self.build(folder, wordNetFolder: first)))
        #expect(!Self.replayed(await Self.build(folder, wordNetFolder: second.path)), "another folder")
        #expect(Self.replayed(await Self.build(folder, wordNetFolder: second.path)))
        try FileManager.default.createDirectory(at: second, withIntermediateDirectories: true)
        try Data("data".utf8).write(to: second.appendingPathComponent("index.noun"))
        #expect(!Self.replayed(await Self.build(folder, wordNetFolder: second.path)), "a data file appeared")
    }

    @Test func aSnapshotPastItsTimeOrOfInputsTooFreshIsNotUsed() async throws {
        let folder = try Folder(Self.site)
        _ = await Self.build(folder)
        var snapshot = try #require(BuildSnapshot.read(Self.snapshotURL(folder)))
        #expect(snapshot.validUntil == .infinity, "an offline build does not depend on the time")
        snapshot.validUntil = Date().timeIntervalSince1970 - 1
        snapshot.write(to: Self.snapshotURL(folder))
        #expect(!Self.replayed(await Self.build(folder)), "past its time")

        // Files changed within the settling time can change again unseen: no snapshot is kept.
        try folder.write("content/index.md", "---\ntitle: Home\n---\nJust now.\n")
        _ = await Self.build(folder, settle: 3600)
        #expect(BuildSnapshot.read(Self.snapshotURL(folder)) == nil)
        #expect(!Self.replayed(await Self.build(folder)))
    }

    @Test func aFailedBuildLeavesTheSnapshotOfTheSiteItLeftInPlace() async throws {
        let folder = try Folder(Self.site)
        _ = await Self.build(folder)
        let before = try Data(contentsOf: Self.snapshotURL(folder))
        try folder.write("content/index.md", "---\ntitle: [oops\n---\nx\n")
        let failed = await Self.build(folder)
        #expect(!failed.succeeded && !Self.replayed(failed))
        #expect(try Data(contentsOf: Self.snapshotURL(folder)) == before, "site/ is still that build's, as the snapshot says")
    }
}
