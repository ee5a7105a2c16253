import CCmark
import Foundation
import TestSupport

@testable import GlossaryKit

/// A whole markdown document rendered the way the build will render it once tables are wired into
/// `MarkdownDocument`: libcmark parses it; every paragraph's lines go through `PipeTable.split`; a table
/// replaces its paragraph (as a custom block), the text before it stays a paragraph, the lines after it are
/// parsed again as blocks. The tests compare its HTML with `cmark-gfm -e table`; it is also the recipe for the
/// wiring.
enum TableDocumentRenderer {
    static func html(_ markdown: String) -> String {
        let root = parse(markdown)
        defer { cmark_node_free(root) }
        var headerOnlyTables: Set<OpaquePointer> = []
        replaceTables(in: root, markdown: markdown, headerOnlyTables: &headerOnlyTables)
        loosenLists(in: root, headerOnlyTables)
        guard let html = cmark_render_html(root, CMARK_OPT_DEFAULT) else { return "" }
        defer { free(html) }
        return String(cString: html)
    }

    private static func parse(_ markdown: String) -> OpaquePointer {
        var source = markdown
        return source.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { cmark_parse_document($0.baseAddress, $0.count, CMARK_OPT_DEFAULT)! }
        }
    }

    private static func replaceTables(in root: OpaquePointer, markdown: String, headerOnlyTables: inout Set<OpaquePointer>) {
        // The lines as MarkdownDocument keeps them: split at `\n`, a trailing `\r` dropped.
        let lines = markdown.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            Array(line.last == UInt8(ascii: "\r") ? line.dropLast() : line[...])
        }
        for paragraph in paragraphs(in: root) {  // and multi-line (setext) headings
            let startLine = Int(cmark_node_get_start_line(paragraph))
            let endLine = Int(cmark_node_get_end_line(paragraph))
            guard PipeTable.mayStart(in: lines, lines: startLine...endLine) else { continue }
            let paragraphLines = ParagraphLine.lines(
                in: lines, startLine: startLine, startColumn: Int(cmark_node_get_start_column(paragraph)), endLine: endLine,
                containers: containers(of: paragraph))
            let isHeading = cmark_node_get_type(paragraph) == CMARK_NODE_HEADING
            guard let split = PipeTable.split(paragraphLines, file: "page.md", setextHeading: isHeading) else { continue }
            if let leading = split.leading {
                // A real paragraph node, so cmark leaves out `<p>` in a tight list as it does for any paragraph.
                let text = cmark_node_new(CMARK_NODE_PARAGRAPH)!
                let inlines = cmark_node_new(CMARK_NODE_CUSTOM_INLINE)!
                cmark_node_set_on_enter(inlines, InlineMarkdown.html(leading.text))
                cmark_node_set_on_exit(inlines, "")
                cmark_node_append_child(text, inlines)
                cmark_node_insert_before(paragraph, text)
            }
            let table = cmark_node_new(CMARK_NODE_CUSTOM_BLOCK)!
            cmark_node_set_on_enter(table, split.table.html { InlineMarkdown.html($0.text) })
            cmark_node_set_on_exit(table, "")
            cmark_node_insert_before(paragraph, table)
            if split.table.countsAsEndingInBlankLine { headerOnlyTables.insert(table) }
            if !split.trailing.isEmpty {
                let fragment = parse(split.trailingMarkdown)
                replaceTables(in: fragment, markdown: split.trailingMarkdown, headerOnlyTables: &headerOnlyTables)
                while let block = cmark_node_first_child(fragment) {
                    cmark_node_unlink(block)
                    cmark_node_insert_before(paragraph, block)
                }
                cmark_node_free(fragment)
            }
            cmark_node_free(paragraph)
        }
    }

    /// cmark's test for a tight list (`finalize` of a list), with header-only tables counting as ending in a blank
    /// line as they do in cmark-gfm: lists cmark found tight may turn loose, never the other way.
    private static func loosenLists(in root: OpaquePointer, _ headerOnlyTables: Set<OpaquePointer>) {
        guard !headerOnlyTables.isEmpty else { return }
        func endsWithBlankLine(_ node: OpaquePointer) -> Bool {
            if headerOnlyTables.contains(node) { return true }
            let type = cmark_node_get_type(node)
            guard type == CMARK_NODE_LIST || type == CMARK_NODE_ITEM, let last = cmark_node_last_child(node) else { return false }
            return endsWithBlankLine(last)
        }
        var lists: [OpaquePointer] = []
        let iterator = cmark_iter_new(root)
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            if event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator), cmark_node_get_type(node) == CMARK_NODE_LIST { lists.append(node) }
        }
        cmark_iter_free(iterator)
        for list in lists where cmark_node_get_list_tight(list) != 0 {
            var item = cmark_node_first_child(list)
            search: while let current = item {
                var child = cmark_node_first_child(current)
                while let block = child {
                    if (cmark_node_next(current) != nil || cmark_node_next(block) != nil) && endsWithBlankLine(block) {
                        cmark_node_set_list_tight(list, 0)
                        break search
                    }
                    child = cmark_node_next(block)
                }
                item = cmark_node_next(current)
            }
        }
    }

    private static func paragraphs(in root: OpaquePointer) -> [OpaquePointer] {
        var paragraphs: [OpaquePointer] = []
        let iterator = cmark_iter_new(root)
        defer { cmark_iter_free(iterator) }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
            switch cmark_node_get_type(node) {
            case CMARK_NODE_PARAGRAPH:
                paragraphs.append(node)
            case CMARK_NODE_HEADING where cmark_node_get_start_line(node) != cmark_node_get_end_line(node):
                // A setext heading: its text lines and underline were a paragraph until the underline came.
                paragraphs.append(node)
            default:
                break
            }
        }
        return paragraphs
    }

    /// The paragraph's block quote and list item ancestors, outermost first.
    static func containers(of node: OpaquePointer) -> [MarkdownContainer] {
        var containers: [MarkdownContainer] = []
        var current = cmark_node_parent(node)
        while let ancestor = current {
            let line = Int(cmark_node_get_start_line(ancestor))
            let column = Int(cmark_node_get_start_column(ancestor))
            switch cmark_node_get_type(ancestor) {
            case CMARK_NODE_BLOCK_QUOTE: containers.append(.blockQuote(line: line, column: column))
            case CMARK_NODE_ITEM: containers.append(.listItem(line: line, column: column))
            default: break
            }
            current = cmark_node_parent(ancestor)
        }
        return containers.reversed()
    }

    /// The lines of the document's first paragraph, as the wiring builds them.
    static func firstParagraphLines(_ markdown: String) -> [ParagraphLine] {
        let root = parse(markdown)
        defer { cmark_node_free(root) }
        let lines = markdown.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { Array($0) }
        guard let paragraph = paragraphs(in: root).first else { return [] }
        return ParagraphLine.lines(
            in: lines, startLine: Int(cmark_node_get_start_line(paragraph)), startColumn: Int(cmark_node_get_start_column(paragraph)),
            endLine: Int(cmark_node_get_end_line(paragraph)), containers: containers(of: paragraph))
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
