import Foundation
import TestSupport
import Testing

@testable import GlossaryKit

/// Every CommonMark spec example without `[[` renders exactly as the cmark CLI renders it, once each heading's
/// id and link to itself are taken out: term linking and heading anchors change nothing else.
@Suite struct CommonMarkSpecTests {
    static let specURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/spec/commonmark/spec.txt")

    static func examples() throws -> [String] {
        let text = try String(contentsOf: specURL, encoding: .utf8)
        var examples: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("````````````````````````````````") && line.hasSuffix("example") {
                current = []
            } else if line == "." && current != nil {
                examples.append(current!.joined(separator: "\n").replacingOccurrences(of: "→", with: "\t") + "\n")
                current = nil
            } else if current != nil {
                current!.append(line)
            }
        }
        return examples
    }

    @Test func examplesWithoutReferencesMatchTheCmarkCLI() throws {
        let cmark = try #require(["/usr/bin/cmark", "/usr/local/bin/cmark"].first { FileManager.default.isExecutableFile(atPath: $0) })
        let examples = try Self.examples().filter { !$0.contains("[[") }
        #expect(examples.count > 600)
        var mismatches: [String] = []
        for example in examples {
            let expected = try Self.runCmark(cmark, example)
            let document = MarkdownDocument(markdown: example, file: "spec.md")
            let actual = Self.withoutHeadingAnchors(document.html(), document.headings)
            if actual != expected { mismatches.append(example) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) examples differ, first: \(mismatches.first ?? "")")
    }

    /// The HTML with `<hN id="ID">…<a class="anchor" href="#ID" …></a></hN>` back to `<hN>…</hN>`, for each heading
    /// in order; a heading without exactly that markup is left as it is, so the comparison fails.
    static func withoutHeadingAnchors(_ html: String, _ headings: [PageHeading]) -> String {
        var result = html
        for heading in headings {
            let open = "<h\(heading.level) id=\"\(heading.id)\">"
            let anchor = "<a class=\"anchor\" href=\"#\(heading.id)\" aria-labelledby=\"\(heading.id)\"></a></h\(heading.level)>"
            guard let start = result.range(of: open), let end = result.range(of: anchor, range: start.upperBound..<result.endIndex) else { continue }
            result.replaceSubrange(end, with: "</h\(heading.level)>")
            result.replaceSubrange(start, with: "<h\(heading.level)>")
        }
        return result
    }

    static func runCmark(_ path: String, _ markdown: String) throws -> String {
        let process = Subprocess()
        process.executableURL = URL(fileURLWithPath: path)
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
}
