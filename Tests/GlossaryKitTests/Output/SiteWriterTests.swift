import Foundation
import Testing
@testable import GlossaryKit

@Suite struct SiteWriterTests {
    let parent = FileManager.default.temporaryDirectory.appendingPathComponent("writer-\(UUID().uuidString)")

    @Test func replacesTheOutputWholeAndKeepsTopLevelDotfiles() throws {
        defer { try? FileManager.default.removeItem(at: parent) }
        let output = parent.appendingPathComponent("site")
        try FileManager.default.createDirectory(at: output.appendingPathComponent("old"), withIntermediateDirectories: true)
        try Data("stale".utf8).write(to: output.appendingPathComponent("old/index.html"))
        try Data().write(to: output.appendingPathComponent(".gitkeep"))
        var site = SiteOutput()
        site.add("index.html", "<p>new</p>")
        site.add("a/b/index.html", "deep")
        try SiteWriter(output: output).write(site)
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("old/index.html").path))
        #expect(try String(contentsOf: output.appendingPathComponent("a/b/index.html"), encoding: .utf8) == "deep")
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent(".gitkeep").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path) == ["site"], "no staging or retired folder left")
    }

    @Test func aFailedWriteLeavesTheOldOutputUntouched() throws {
        defer { try? FileManager.default.removeItem(at: parent) }
        let output = parent.appendingPathComponent("site")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        try Data("old".utf8).write(to: output.appendingPathComponent("index.html"))
        var site = SiteOutput()
        site.add("index.html", "new")
        site.copies["missing.png"] = parent.appendingPathComponent("does-not-exist.png")
        #expect(throws: SiteTransaction.Failure.self) { try SiteWriter(output: output).write(site) }
        #expect(try String(contentsOf: output.appendingPathComponent("index.html"), encoding: .utf8) == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path) == ["site"])
    }
}
