import Foundation
import TestSupport
import Testing

/// The example glossary in the repository builds offline, under --strict, with no warning at all.
@Suite struct ExampleSiteTests {
    @Test func exampleBuildsOfflineWithZeroWarnings() async throws {
        // In a folder of its own: the build keeps the site before beside its output (`.site.previous`).
        let folder = try InlineSite.temporaryFolder("glossary-example")
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site", isDirectory: true)
        let result = try await TestSite.run(
            ["build", "--offline", "--strict", "--source", TestSite.repositoryRoot.path, "--output", output.path], in: TestSite.repositoryRoot)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.diagnostics.isEmpty, "\(result.stderr)")
        let summary = try #require(result.stderr.split(separator: "\n").last)
        #expect(summary.hasPrefix("Built 15 pages, "), "\(summary)")
        // The page that shows the syntax keeps its literal references in code.
        let syntax = try String(contentsOf: output.appendingPathComponent("reference/term-syntax/index.html"), encoding: .utf8)
        #expect(syntax.contains("[[word]]"))
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("terms/serendipity/index.html").path))
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("images/baseline.svg").path))
    }
}
