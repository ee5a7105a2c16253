import CCmark
import Foundation

/// GitHub-flavoured pipe tables on top of libcmark, which has none: a paragraph whose lines hold a table (as
/// `PipeTable.split` finds it, the way cmark-gfm does) is replaced by table blocks before the tree is walked for
/// references. Each cell's inline markdown is parsed by cmark on its own and its nodes are moved into the table,
/// so term references and links in cells are found, rendered and checked like any others, at their real place
/// in the file.
extension ReferenceScan {
    /// No-break space, in front of a cell's text so cmark reads it as one paragraph's inlines, never as a block
    /// (`# x`, `- x`, `[x]: /url` in a cell are text in cmark-gfm). cmark counts it as whitespace when it decides
    /// what a delimiter run can do, exactly like the start of a line, and keeps it as text, so it comes off after.
    private static let guardPrefix = "\u{A0}"

    /// Replaces every paragraph (and multi-line setext heading) holding a table by the table and what cmark-gfm
    /// makes of the paragraph's other lines.
    mutating func replaceTables() {
        var candidates: [OpaquePointer] = []
        MarkdownDocument.forEachBlock(in: root) { node, type in
            let start = Int(cmark_node_get_start_line(node))
            let end = Int(cmark_node_get_end_line(node))
            switch type {
            case CMARK_NODE_PARAGRAPH where PipeTable.mayStart(in: lines, lines: start...max(start, end)):
                candidates.append(node)
            case CMARK_NODE_HEADING where start != end && PipeTable.mayStart(in: lines, lines: start...end):
                // A setext heading: its text lines and underline were a paragraph until the underline came.
                candidates.append(node)
            default:
                break
            }
            return true
        }
        for paragraph in candidates { replaceTable(in: paragraph) }
    }

    private mutating func replaceTable(in paragraph: OpaquePointer) {
        let paragraphLines = ParagraphLine.lines(
            in: lines, startLine: Int(cmark_node_get_start_line(paragraph)), startColumn: Int(cmark_node_get_start_column(paragraph)),
            endLine: Int(cmark_node_get_end_line(paragraph)), containers: MarkdownContainer.ancestors(of: paragraph))
        let isHeading = cmark_node_get_type(paragraph) == CMARK_NODE_HEADING
        // Cells' locations are in this source's lines and columns; `place` makes them the file's.
        guard let split = PipeTable.split(paragraphLines, file: "", setextHeading: isHeading) else { return }
        if let leading = split.leading {
            // A real paragraph, so cmark leaves out `<p>` in a tight list as it does for any paragraph.
            let text = MarkdownDocument.newNode(CMARK_NODE_PARAGRAPH)
            appendInlines(of: leading, to: text)
            cmark_node_insert_before(paragraph, text)
            prebuilt.insert(text)
        }
        let table = tableBlock(split.table)
        cmark_node_insert_before(paragraph, table)
        prebuilt.insert(table)
        if split.table.countsAsEndingInBlankLine { headerOnlyTables.insert(table) }
        if !split.trailing.isEmpty { insertBlocks(of: split, before: paragraph) }
        cmark_node_free(paragraph)
    }

    /// The table as custom blocks (the table, its rows, the break between head and body) holding one custom
    /// inline per cell, rendering as `cmark-gfm -e table` does (but for the alignment's markup), inside a box that scrolls sideways when the
    /// table is wider than the page (focusable, so the keyboard can scroll it too).
    private mutating func tableBlock(_ table: PipeTable) -> OpaquePointer {
        let block = MarkdownDocument.newNode(CMARK_NODE_CUSTOM_BLOCK)
        cmark_node_set_on_enter(block, "<div class=\"table-scroll\" tabindex=\"0\">\n<table>\n<thead>")
        cmark_node_set_on_exit(block, (table.rows.isEmpty ? "</thead>" : "</tbody>") + "\n</table>\n</div>")
        func append(_ cells: [SourceText], tag: String) {
            let row = MarkdownDocument.newNode(CMARK_NODE_CUSTOM_BLOCK)
            cmark_node_set_on_enter(row, "<tr>")
            cmark_node_set_on_exit(row, "</tr>")
            for (cell, alignment) in zip(cells, table.alignments) {
                let node = MarkdownDocument.newNode(CMARK_NODE_CUSTOM_INLINE)
                cmark_node_set_on_enter(node, Self.openingTag(tag, alignment))
                cmark_node_set_on_exit(node, "</\(tag)>\n")
                if !cell.text.isEmpty { appendInlines(of: cell, to: node) }
                cmark_node_append_child(row, node)
            }
            cmark_node_append_child(block, row)
        }
        append(table.header, tag: "th")
        if !table.rows.isEmpty {
            let body = MarkdownDocument.newNode(CMARK_NODE_CUSTOM_BLOCK)
            cmark_node_set_on_enter(body, "</thead>\n<tbody>")
            cmark_node_set_on_exit(body, "")
            cmark_node_append_child(block, body)
        }
        for row in table.rows { append(row, tag: "td") }
        return block
    }

    /// A cell's opening tag with the column's alignment as a class (cmark-gfm's `align` attribute is obsolete in
    /// HTML, and the Content-Security-Policy allows no `style` attribute).
    private static func openingTag(_ tag: String, _ alignment: PipeTable.Alignment) -> String {
        switch alignment {
        case .none: "<\(tag)>"
        case .left: "<\(tag) class=\"align-left\">"
        case .center: "<\(tag) class=\"align-center\">"
        case .right: "<\(tag) class=\"align-right\">"
        }
    }

    /// Parses `text` as one paragraph's inlines, finds its references and links at their file positions, and
    /// moves the inline nodes to the end of `parent`.
    private mutating func appendInlines(of text: SourceText, to parent: OpaquePointer) {
        var source = Self.guardPrefix + text.text
        let fragment = Self.parse(&source)
        defer { cmark_node_free(fragment) }
        guard let paragraph = cmark_node_first_child(fragment), cmark_node_get_type(paragraph) == CMARK_NODE_PARAGRAPH,
            cmark_node_next(paragraph) == nil
        else {
            // Not one paragraph after all: the text as text (never seen with cmark-gfm's cells, kept safe anyway).
            let node = MarkdownDocument.newNode(CMARK_NODE_TEXT)
            cmark_node_set_literal(node, text.text)
            cmark_node_append_child(parent, node)
            return
        }
        let bytes = Array(source.utf8)
        let lineStarts = [0] + bytes.indices.filter { bytes[$0] == UInt8(ascii: "\n") }.map { $0 + 1 }
        let place = self.place
        let guardLength = Self.guardPrefix.utf8.count
        var scan = ReferenceScan(root: fragment, source: source) { line, column in
            // Line and scalar column of the guarded text → its byte offset in the cell's text → the file.
            var offset = lineStarts[min(max(line, 1), lineStarts.count) - 1]
            var scalars = 1
            while scalars < column, offset < bytes.count {
                offset += 1
                while offset < bytes.count, bytes[offset] & 0xC0 == 0x80 { offset += 1 }
                scalars += 1
            }
            let cell = text.location(atUTF8Offset: max(0, offset - guardLength))
            return place(cell.line, cell.column)
        }
        scan.findsTables = false
        scan.run()
        absorb(scan)
        // Bytes, not characters: the no-break space may combine with a mark that follows it into one character.
        if let first = cmark_node_first_child(paragraph), cmark_node_get_type(first) == CMARK_NODE_TEXT,
            let literal = cmark_node_get_literal(first), strlen(literal) >= guardLength,
            UInt8(bitPattern: literal[0]) == 0xC2, UInt8(bitPattern: literal[1]) == 0xA0
        {
            cmark_node_set_literal(first, literal + guardLength)
        }
        while let child = cmark_node_first_child(paragraph) {
            cmark_node_append_child(parent, child)
        }
    }

    /// Parses the lines cmark-gfm leaves after the table afresh as blocks (they may hold more tables) and puts
    /// them before `paragraph`.
    private mutating func insertBlocks(of split: PipeTableSplit, before paragraph: OpaquePointer) {
        var source = split.trailingMarkdown
        let fragment = Self.parse(&source)
        defer { cmark_node_free(fragment) }
        let trailing = split.trailing
        let place = self.place
        var scan = ReferenceScan(root: fragment, source: source) { line, column in
            // Line k is file line trailing[k]; its text starts at the line's first non-space byte, after the
            // indentation written as spaces.
            guard line >= 1, line <= trailing.count else { return place(trailing.last?.number ?? line, column) }
            let original = trailing[line - 1]
            let (start, indent) = original.firstNonSpace
            let startColumn = original.bytes[..<start].reduce(1) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
            return place(original.number, max(1, startColumn + column - 1 - indent))
        }
        scan.run()
        absorb(scan)
        headerOnlyTables.formUnion(scan.headerOnlyTables)
        while let block = cmark_node_first_child(fragment) {
            cmark_node_unlink(block)
            cmark_node_insert_before(paragraph, block)
            prebuilt.insert(block)
        }
    }

    /// Takes over what a scan of markdown parsed apart found.
    private mutating func absorb(_ scan: ReferenceScan) {
        references += scan.references
        termNodes += scan.termNodes
        linkRecords += scan.linkRecords
        freedLinks.formUnion(scan.freedLinks)
        diagnostics += scan.diagnostics
    }

    private static func parse(_ source: inout String) -> OpaquePointer {
        MarkdownDocument.parse(&source, options: MarkdownDocument.cmarkOptions | CMARK_OPT_SOURCEPOS)
    }

    /// cmark's test for a tight list (`finalize` of a list), with header-only tables counting as ending in a blank
    /// line as they do in cmark-gfm: lists cmark found tight may turn loose, never the other way.
    mutating func loosenLists() {
        guard !headerOnlyTables.isEmpty else { return }
        let tables = headerOnlyTables
        func endsWithBlankLine(_ node: OpaquePointer) -> Bool {
            if tables.contains(node) { return true }
            let type = cmark_node_get_type(node)
            guard type == CMARK_NODE_LIST || type == CMARK_NODE_ITEM, let last = cmark_node_last_child(node) else { return false }
            return endsWithBlankLine(last)
        }
        var lists: [OpaquePointer] = []
        MarkdownDocument.forEachBlock(in: root) { node, type in
            if type == CMARK_NODE_LIST { lists.append(node) }
            return true
        }
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
}
