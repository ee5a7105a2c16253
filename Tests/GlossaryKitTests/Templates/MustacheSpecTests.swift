import Foundation
import Testing

@testable import GlossaryKit

/// Runs every case of the official Mustache spec, read at run time from `../shared/spec/mustache`
/// beside the package root.
@Suite struct MustacheSpecTests {
    /// The spec folder: `shared/spec/mustache` in the package root's parent, or failing that in a further
    /// ancestor (so a scratch checkout nested one level deeper finds it too).
    static func specFolder() -> URL? {
        // This file is <root>/Tests/GlossaryKitTests/Templates/MustacheSpecTests.swift.
        var folder = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { folder.deleteLastPathComponent() }
        while folder.path != "/" {
            folder.deleteLastPathComponent()
            let candidate = folder.appendingPathComponent("shared/spec/mustache", isDirectory: true)
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    @Test func everySpecCasePasses() throws {
        let folder = try #require(Self.specFolder(), "Mustache spec folder ../shared/spec/mustache not found beside the package root")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".json") }
            .sorted()
        #expect(files.count >= 7, "expected the 7 spec files, found \(files)")

        var ran = 0
        var failed: [String] = []
        for file in files {
            let data = try Data(contentsOf: folder.appendingPathComponent(file))
            let spec = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(file) is not a spec object")
            let cases = try #require(spec["tests"] as? [[String: Any]], "\(file) has no tests")
            for specCase in cases {
                ran += 1
                let name = specCase["name"] as? String ?? "?"
                if let problem = Self.run(specCase) {
                    failed.append("\(file) › \(name)")
                    Issue.record("\(file) › \(name): \(problem)")
                }
            }
        }
        print("Mustache spec: \(ran - failed.count) of \(ran) cases passed in \(files.count) files")
        #expect(ran > 100, "only \(ran) spec cases ran")
        #expect(failed.isEmpty, "failing spec cases: \(failed.joined(separator: ", "))")
    }

    /// Returns a description of what went wrong, or nil when the case passes.
    static func run(_ specCase: [String: Any]) -> String? {
        guard let source = specCase["template"] as? String, let expected = specCase["expected"] as? String else {
            return "malformed case"
        }
        let data = MustacheValue(json: specCase["data"] ?? NSNull())
        do {
            let partials = try MustachePartials(sources: specCase["partials"] as? [String: String] ?? [:])
            let rendered = try MustacheTemplate(source, name: "template").render(data, partials: partials)
            guard rendered == expected else {
                return "expected \(expected.debugDescription), got \(rendered.debugDescription) "
                    + "from template \(source.debugDescription)"
            }
            return nil
        } catch {
            return "threw \(error)"
        }
    }
}
