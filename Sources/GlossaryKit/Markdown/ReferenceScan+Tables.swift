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
        var candidates: [CMarkNode] = []
        root.forEachBlock { node, kind in
            let start = node.startLine
            let end = node.endLine
            switch kind {
            case .paragraph where PipeTable.mayStart(in: lines, lines: start...max(start, end)):
                candidates.append(node)
            case .heading where start != end && PipeTable.mayStart(in: lines, lines: start...end):
                // A setext heading: its text lines and underline were a paragraph until the underline came.
                candidates.append(node)
            default:
                break
            }
            return true
        }
        for paragraph in candidates { replaceTable(in: paragraph) }
    }

    private mutating func replaceTable(in paragraph: CMarkNode) {
        let paragraphLines = ParagraphLine.lines(
            in: lines, startLine: paragraph.startLine, startColumn: paragraph.startColumn, endLine: paragraph.endLine,
            containers: MarkdownContainer.ancestors(of: paragraph))
        let isHeading = paragraph.kind == .heading
        // Cells' locations are in this source's lines and columns; `place` makes them the file's.
        guard let split = PipeTable.split(paragraphLines, file: "", setextHeading: isHeading) else { return }
        if let leading = split.leading {
            // A real paragraph, so cmark leaves out `<p>` in a tight list as it does for any paragraph.
            let text = CMarkNode.make(.paragraph)
            appendInlines(of: leading, to: text)
            text.insert(before: paragraph)
            prebuilt.insert(text)
        }
        let table = tableBlock(split.table)
        table.insert(before: paragraph)
        prebuilt.insert(table)
        if split.table.countsAsEndingInBlankLine { headerOnlyTables.insert(table) }
        if !split.trailing.isEmpty { insertBlocks(of: split, before: paragraph) }
        paragraph.free()
    }

    /// The table as custom blocks (the table, its rows, the break between head and body) holding one custom
    /// inline per cell, rendering as `cmark-gfm -e table` does (but for the alignment's markup), inside a box that scrolls sideways when the
    /// table is wider than the page (focusable, so the keyboard can scroll it too).
    private mutating func tableBlock(_ table: PipeTable) -> CMarkNode {
        let block = CMarkNode.make(.customBlock)
        block.setOnEnter("<div class=\"table-scroll\" tabindex=\"0\">\n<table>\n<thead>")
        block.setOnExit((table.rows.isEmpty ? "</thead>" : "</tbody>") + "\n</table>\n</div>")
        func append(_ cells: [SourceText], tag: String) {
            let row = CMarkNode.make(.customBlock)
            row.setOnEnter("<tr>")
            row.setOnExit("</tr>")
            for (cell, alignment) in zip(cells, table.alignments) {
                let node = CMarkNode.make(.customInline)
                node.setOnEnter(Self.openingTag(tag, alignment))
                node.setOnExit("</\(tag)>\n")
                if !cell.text.isEmpty { appendInlines(of: cell, to: node) }
                row.appendChild(node)
            }
            block.appendChild(row)
        }
        append(table.header, tag: "th")
        if !table.rows.isEmpty {
            let body = CMarkNode.make(.customBlock)
            body.setOnEnter("</thead>\n<tbody>")
            body.setOnExit("")
            block.appendChild(body)
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
    private mutating func appendInlines(of text: SourceText, to parent: CMarkNode) {
        var source = Self.guardPrefix + text.text
        let fragment = CMark.parse(&source, options: MarkdownDocument.parseOptions)
        defer { fragment.free() }
        guard let paragraph = fragment.firstChild, paragraph.kind == .paragraph, paragraph.next == nil else {
            // Not one paragraph after all: the text as text (never seen with cmark-gfm's cells, kept safe anyway).
            let node = CMarkNode.make(.text)
            node.literal = text.text
            parent.appendChild(node)
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
        scan.statusCheck = statusCheck
        scan.statusEntry = statusEntry
        scan.run()
        absorb(scan)
        // Bytes, not characters: the no-break space may combine with a mark that follows it into one character.
        if let first = paragraph.firstChild, first.kind == .text, let literal = first.literalBytes, literal.starts(with: Self.guardPrefix.utf8) {
            first.setLiteral(UnsafeBufferPointer(rebasing: literal[guardLength...]))
        }
        while let child = paragraph.firstChild {
            parent.appendChild(child)
        }
    }

    /// Parses the lines cmark-gfm leaves after the table afresh as blocks (they may hold more tables) and puts
    /// them before `paragraph`.
    private mutating func insertBlocks(of split: PipeTableSplit, before paragraph: CMarkNode) {
        var source = split.trailingMarkdown
        let fragment = CMark.parse(&source, options: MarkdownDocument.parseOptions)
        defer { fragment.free() }
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
        scan.statusCheck = statusCheck
        scan.statusEntry = statusEntry
        scan.run()
        absorb(scan)
        headerOnlyTables.formUnion(scan.headerOnlyTables)
        while let block = fragment.firstChild {
            block.unlink()
            block.insert(before: paragraph)
            prebuilt.insert(block)
        }
    }

    /// Takes over what a scan of markdown parsed apart found.
    private mutating func absorb(_ scan: ReferenceScan) {
        references += scan.references
        termNodes += scan.termNodes
        linkRecords += scan.linkRecords
        freedLinks.formUnion(scan.freedLinks)
        explicitIDs.merge(scan.explicitIDs) { $1 }
        diagnostics += scan.diagnostics
    }

    /// cmark's test for a tight list (`finalize` of a list), with header-only tables counting as ending in a blank
    /// line as they do in cmark-gfm: lists cmark found tight may turn loose, never the other way.
    mutating func loosenLists() {
        guard !headerOnlyTables.isEmpty else { return }
        let tables = headerOnlyTables
        func endsWithBlankLine(_ node: CMarkNode) -> Bool {
            if tables.contains(node) { return true }
            let kind = node.kind
            guard kind == .list || kind == .item, let last = node.lastChild else { return false }
            return endsWithBlankLine(last)
        }
        var lists: [CMarkNode] = []
        root.forEachBlock { node, kind in
            if kind == .list { lists.append(node) }
            return true
        }
        for list in lists where list.isTight {
            var item = list.firstChild
            search: while let current = item {
                var child = current.firstChild
                while let block = child {
                    if (current.next != nil || block.next != nil) && endsWithBlankLine(block) {
                        list.isTight = false
                        break search
                    }
                    child = block.next
                }
                item = current.next
            }
        }
    }
}
