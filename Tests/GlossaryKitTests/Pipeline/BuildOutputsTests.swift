import Foundation
import TestSupport
import Testing

@testable import GlossaryKit

/// The outputs file: what both output folders hold, read back as written, and the check of the live folder against it.
@Suite struct BuildOutputsTests {
    /// A state that knows a live folder of `files` (written to `site/`) and a previous folder holding some of them
    /// linked and one of its own.
    static func state(in parent: URL, files: [String: String]) throws -> BuildState {
        try InlineSite.write(files.reduce(into: [:]) { $0["site/" + $1.key] = $1.value }, into: parent)
        let site = parent.appendingPathComponent("site")
        let state = BuildState()
        let parentSignature = try #require(FileSignature(path: parent.path))
        state.withLock { state in
            for (path, text) in files {
                var output = BuildState.StoredOutput(
                    fingerprint: .of(bytes: Array(path.utf8)), bytesHash: .of(bytes: Array(text.utf8)),
                    signature: FileSignature(path: site.appendingPathComponent(path).path))
                if path.hasSuffix(".html") {
                    output.slots = BodySlots(
                        slots: [.init(value: .content, escaped: false, start: 3, length: text.utf8.count - 3)], shown: [true, true, false])
                }
                state.outputs[path] = output
            }
            state.outputFolder = FileSignature(path: site.path)
            state.outputFolders = SiteTransaction.folderSignatures(of: site, folders: SiteTransaction.folders(holding: files.keys), jobs: 2)
            for (path, output) in state.outputs.prefix(2) { state.previousOutputs[path] = output }
            state.previousOutputs["gone/index.html"] = .init(fingerprint: .of(bytes: [1]), bytesHash: .of(bytes: [2]), signature: nil)
            state.previousFolder = parentSignature
            state.previousFolders = ["gone": parentSignature]
        }
        return state
    }

    static let files = [
        "index.html": "<p>home page, long enough</p>", "a/index.html": "<p>page a, long enough</p>", "a/b/index.html": "<p>deep page b</p>",
        "assets/site.css": "body {}",
    ]

    @Test func whatIsWrittenIsReadBack() throws {
        let parent = try InlineSite.temporaryFolder("glossary-outputs")
        defer { try? FileManager.default.removeItem(at: parent) }
        let state = try Self.state(in: parent, files: Self.files)
        let file = BuildOutputs(folder: parent.appendingPathComponent(".glossary/build"), output: parent.appendingPathComponent("site"))
        file.save(state)
        let generation = try #require(state.withLock { $0.outputsGeneration })
        let read = try #require(file.read(context: state.context))
        #expect(read.generation == generation)
        state.withLock { state in
            #expect(read.outputs == state.outputs && read.previousOutputs == state.previousOutputs)
            #expect(read.outputFolder == state.outputFolder && read.previousFolder == state.previousFolder)
            #expect(read.outputFolders == state.outputFolders && read.previousFolders == state.previousFolders)
        }
        #expect(file.reading(context: state.context)?.livePaths() == Set(Self.files.keys))
        #expect(file.read(context: .of(bytes: [9])) == nil, "made under another context")
        file.save(state)
        #expect(try #require(file.read(context: state.context)).generation != generation, "every file written is a new generation")

        var bytes = try Data(contentsOf: file.url)
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: file.url)
        #expect(file.read(context: state.context) == nil, "a damaged file is ignored")
    }

    /// Any file changed, added or taken away, at any depth, and the folder replaced, make the live folder not intact.
    @Test func theCheckNoticesAnyChangeToTheLiveFolder() throws {
        let changes: [(String, (URL) throws -> Void)] = [
            ("nothing", { _ in }),
            ("edit a file", { try Data("<p>changed</p>".utf8).write(to: $0.appendingPathComponent("a/b/index.html")) }),
            ("add a file below", { try Data("x".utf8).write(to: $0.appendingPathComponent("a/b/stray.html")) }),
            ("add a file on top", { try Data("x".utf8).write(to: $0.appendingPathComponent("stray.html")) }),
            ("remove a file", { try FileManager.default.removeItem(at: $0.appendingPathComponent("assets/site.css")) }),
            ("add a folder", { try FileManager.default.createDirectory(at: $0.appendingPathComponent("a/new"), withIntermediateDirectories: false) }),
            (
                "replace the folder",
                { site in
                    let copy = site.deletingLastPathComponent().appendingPathComponent("copy")
                    try FileManager.default.copyItem(at: site, to: copy)
                    try FileManager.default.removeItem(at: site)
                    try FileManager.default.moveItem(at: copy, to: site)
                }
            ),
        ]
        for (name, change) in changes {
            let parent = try InlineSite.temporaryFolder("glossary-outputs-check")
            defer { try? FileManager.default.removeItem(at: parent) }
            let state = try Self.state(in: parent, files: Self.files)
            let site = parent.appendingPathComponent("site")
            let file = BuildOutputs(folder: parent.appendingPathComponent(".glossary/build"), output: site)
            file.save(state)
            try change(site)
            let intact = try #require(file.reading(context: state.context)).liveIsIntact(site)
            #expect(intact == (name == "nothing"), "\(name)")
        }
    }
}
