extension PipeTable {
    /// A cheap first test for a paragraph spanning `lines` (cmark's 1-based line numbers) of `source`: false means
    /// no line of it can be a delimiter row, so it is no table. A delimiter row's first byte after the container
    /// prefix (spaces, tabs, `>`; vertical tabs and form feeds may come before it) is `|`, `:` or `-`, and the
    /// first line cannot be one.
    public static func mayStart<Source: RandomAccessCollection>(in source: Source, lines: ClosedRange<Int>) -> Bool
    where Source.Index == Int, Source.Element: Collection<UInt8> {
        var number = lines.lowerBound + 1
        while number <= min(lines.upperBound, source.count) {
            defer { number += 1 }
            guard number >= 1 else { continue }
            for byte in source[source.startIndex + number - 1] {
                switch byte {
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: ">"), 0x0B, 0x0C: continue
                case UInt8(ascii: "|"), UInt8(ascii: ":"), UInt8(ascii: "-"): return true
                default: break
                }
                break
            }
        }
        return false
    }

    /// The table in a paragraph's lines, as `cmark-gfm -e table` finds it, or nil when they hold none.
    ///
    /// The first line followed by a delimiter row with the same number of cells is the header row (cmark-gfm lets
    /// a table interrupt a paragraph); the following lines are body rows until one that cmark-gfm would not take
    /// as a row (see `PipeTableSplit.trailing`). Paragraphs of the trailing lines, parsed again as markdown, may
    /// hold further tables.
    ///
    /// With `setextHeading`, `lines` are a multi-line heading's (cmark makes a paragraph a heading when an `===`
    /// or `---` line follows it, where cmark-gfm may already have seen a table): the first underline-shaped line
    /// after the first ends them (cmark 0.30 reports a setext heading's end on the line after its underline), and
    /// it cannot be a delimiter row. A heading without a table gives nil and stays a heading.
    public static func split(_ lines: [ParagraphLine], file: String, setextHeading: Bool = false) -> PipeTableSplit? {
        var lines = lines
        var delimiterCandidates = lines.count
        if setextHeading {
            guard let underline = lines.indices.dropFirst().first(where: { PipeRow.isSetextUnderline(lines[$0]) }) else { return nil }
            lines.removeSubrange((underline + 1)...)
            delimiterCandidates = underline
        }
        guard delimiterCandidates >= 2 else { return nil }
        for index in 1..<delimiterCandidates {
            let delimiter = lines[index]
            guard !delimiter.isLazy else { continue }
            let (start, indent) = delimiter.firstNonSpace
            guard indent < 4, let alignments = PipeRow.delimiterAlignments(delimiter.bytes, from: start) else { continue }
            let headerLine = lines[index - 1]
            // cmark-gfm reads the header from the paragraph's text, which keeps a lazy line's leading whitespace.
            let headerStart = headerLine.isLazy ? headerLine.contentStart : headerLine.firstNonSpace.offset
            let headerCells = PipeRow.cells(headerLine.bytes, from: headerStart)
            guard headerCells.count == alignments.count else { continue }
            return split(lines, headerIndex: index - 1, header: headerCells, alignments: alignments, file: file)
        }
        return nil
    }

    private static func split(
        _ lines: [ParagraphLine], headerIndex: Int, header: [Range<Int>], alignments: [Alignment], file: String
    ) -> PipeTableSplit {
        let headerLine = lines[headerIndex]
        var rows: [[SourceText]] = []
        var end = headerIndex + 2
        while end < lines.count, let cells = bodyCells(lines[end]) {
            let line = lines[end]
            var row = cells.prefix(alignments.count).map { SourceText(line: line, range: $0, file: file) }
            while row.count < alignments.count { row.append(SourceText(line: line, range: line.bytes.count..<line.bytes.count, file: file)) }
            rows.append(row)
            end += 1
        }
        let table = PipeTable(
            alignments: alignments, header: header.map { SourceText(line: headerLine, range: $0, file: file) }, rows: rows,
            lines: headerLine.number...lines[end - 1].number)
        let leading = headerIndex > 0 ? SourceText(paragraph: lines[..<headerIndex], file: file) : nil
        return PipeTableSplit(leading: leading, table: table, trailing: Array(lines[end...]))
    }

    /// The cells of a line that continues a table, or nil when cmark-gfm ends the table before it.
    private static func bodyCells(_ line: ParagraphLine) -> [Range<Int>]? {
        // A table takes no lazy line: the line closes the container, and cmark-gfm reads it outside.
        guard !line.isLazy else { return nil }
        let (start, indent) = line.firstNonSpace
        // After a table (unlike after a paragraph line) these lines start blocks of their own.
        guard indent < 4, !PipeRow.startsListItem(line.bytes, at: start), !PipeRow.startsHTMLBlock(line.bytes, at: start),
            !PipeRow.isThematicBreak(line.bytes, at: start)
        else { return nil }
        let cells = PipeRow.cells(line.bytes, from: start)
        // A line of nothing but a pipe has no cell: cmark-gfm ends the table, and the line starts a paragraph.
        return cells.isEmpty ? nil : cells
    }
}

extension SourceText {
    /// One cell: the trimmed cell text at byte `range` of `line`, with `\|` un-escaped.
    init(line: ParagraphLine, range: Range<Int>, file: String) {
        let trimmed = PipeRow.trimmed(line.bytes, range)
        var builder = SourceTextBuilder(file: file)
        builder.append(line.bytes, trimmed, line: line.number)
        self = builder.build()
    }

    /// The paragraph text before a table's header row, as cmark-gfm keeps it: each line from its first non-space
    /// byte, the whole trimmed, `\|` un-escaped.
    init(paragraph lines: ArraySlice<ParagraphLine>, file: String) {
        var builder = SourceTextBuilder(file: file)
        for (position, line) in zip(lines.indices, lines) {
            let start = line.firstNonSpace.offset
            var end = line.bytes.count
            if position == lines.indices.last {
                end = PipeRow.trimmed(line.bytes, start..<end).upperBound
            }
            if position != lines.startIndex { builder.appendNewline() }
            builder.append(line.bytes, start..<max(start, end), line: line.number)
        }
        self = builder.build()
    }
}

/// Assembles a `SourceText` from source byte ranges, un-escaping `\|` and recording where each piece stood.
private struct SourceTextBuilder {
    let file: String
    var bytes: [UInt8] = []
    var segments: [SourceText.Segment] = []

    init(file: String) {
        self.file = file
    }

    mutating func append(_ line: [UInt8], _ range: Range<Int>, line number: Int) {
        let column = line[..<range.lowerBound].reduce(1) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        var segment = SourceText.Segment(textOffset: bytes.count, line: number, column: column, unescapedPipes: [])
        var index = range.lowerBound
        while index < range.upperBound {
            if line[index] == UInt8(ascii: "\\"), index + 1 < range.upperBound, line[index + 1] == UInt8(ascii: "|") {
                segment.unescapedPipes.append(bytes.count)
                index += 1
            }
            bytes.append(line[index])
            index += 1
        }
        segments.append(segment)
    }

    mutating func appendNewline() {
        bytes.append(UInt8(ascii: "\n"))
    }

    func build() -> SourceText {
        SourceText(text: String(decoding: bytes, as: UTF8.self), file: file, segments: segments)
    }
}
