import Foundation
import TestSupport

@testable import GlossaryKit

/// A whole markdown document rendered the way the build renders it (`MarkdownDocument`, tables wired in by
/// `ReferenceScan+Tables.swift`), with what the build adds and cmark-gfm doesn't taken out again: heading ids
/// and links, the box a table scrolls in. Term references are written back as `[[shown|word]]` text, as
/// cmark-gfm leaves them. The tests compare its HTML with `cmark-gfm -e table`.
enum TableDocumentRenderer {
    static func html(_ markdown: String) -> String {
        let document = MarkdownDocument(markdown: markdown, file: "page.md")
        let html = document.html { reference in
            .init(open: "[[", close: reference.shown == reference.word ? "]]" : "|" + HTML.escape(reference.word) + "]]")
        }
        return withoutBuildAdditions(html)
    }

    /// `html` without heading ids and links, without the scrolling box around tables, and with cmark-gfm's `align`
    /// attributes for the alignment classes.
    static func withoutBuildAdditions(_ html: String) -> String {
        var html = html.replacingOccurrences(of: "<div class=\"table-scroll\" tabindex=\"0\">\n<table>", with: "<table>")
            .replacingOccurrences(of: "</table>\n</div>", with: "</table>")
        html = html.replacingOccurrences(of: #"<h([1-6]) id="[^"]*">"#, with: "<h$1>", options: .regularExpression)
        html = html.replacingOccurrences(of: #"<t([hd]) class="align-(left|center|right)">"#, with: "<t$1 align=\"$2\">", options: .regularExpression)
        return html.replacingOccurrences(
            of: ##"<a class="anchor" href="#[^"]*" aria-labelledby="[^"]*"></a>"##, with: "", options: .regularExpression)
    }

    private static func paragraphs(in root: CMarkNode) -> [CMarkNode] {
        var paragraphs: [CMarkNode] = []
        for (node, entering) in root.events where entering {
            switch node.kind {
            case .paragraph:
                paragraphs.append(node)
            case .heading where node.startLine != node.endLine:
                // A setext heading: its text lines and underline were a paragraph until the underline came.
                paragraphs.append(node)
            default:
                break
            }
        }
        return paragraphs
    }

    /// The lines of the document's first paragraph, as the wiring builds them.
    static func firstParagraphLines(_ markdown: String) -> [ParagraphLine] {
        var source = markdown
        let root = CMark.parse(&source, options: .default)
        defer { root.free() }
        let lines = markdown.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { Array($0) }
        guard let paragraph = paragraphs(in: root).first else { return [] }
        return ParagraphLine.lines(
            in: lines, startLine: paragraph.startLine, startColumn: paragraph.startColumn, endLine: paragraph.endLine,
            containers: MarkdownContainer.ancestors(of: paragraph))
    }

    /// What `cmark-gfm -e table` makes of `markdown` (the Debian package's 0.29.0.gfm.6).
    static func cmarkGFM(_ markdown: String) async throws -> String {
        let folder = try InlineSite.temporaryFolder("pipe-table")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("page.md")
        try Data(markdown.utf8).write(to: file)
        let result = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/cmark-gfm"), ["-e", "table", file.path])
        guard result.status == 0 else { throw CmarkGFMFailed(status: result.status, stderr: result.stderr) }
        return result.stdout
    }

    struct CmarkGFMFailed: Error {
        var status: Int32
        var stderr: String
    }
}
