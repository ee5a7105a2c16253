/// Byte-level scanning of one table line, after cmark-gfm's `ext_scanners.re` and `row_from_string`.
///
/// Lines come without their line ending. A cell is everything up to a `|` that no backslash precedes; like
/// cmark-gfm, a backslash always protects the pipe after it, even one that is itself escaped (`\\|` does not
/// split), and inline code gets no special treatment (`` `a|b` `` splits).
enum PipeRow {
    private static let pipe = UInt8(ascii: "|")

    /// cmark-gfm's `spacechar` for table rows.
    private static func isSpaceChar(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == 0x0B || byte == 0x0C
    }

    /// What cmark-gfm trims off a cell (its `isspace`, locale-free: space, tab, LF, CR): not the vertical tab or
    /// form feed that rows may hold as spaces.
    private static func isTrimmable(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }

    /// The length of a cell-ending `|` and the spaces after it at `offset` (cmark-gfm's `scan_table_cell_end`).
    private static func pipeLength(_ line: [UInt8], at offset: Int) -> Int {
        guard offset < line.count, line[offset] == pipe else { return 0 }
        var end = offset + 1
        while end < line.count, isSpaceChar(line[end]) { end += 1 }
        return end - offset
    }

    /// The untrimmed byte ranges of the cells from `start`; an optional leading and trailing pipe, empty cells
    /// only between pipes. Empty for a line of nothing but pipe and spaces.
    static func cells(_ line: [UInt8], from start: Int) -> [Range<Int>] {
        var cells: [Range<Int>] = []
        var offset = start + pipeLength(line, at: start)
        while offset < line.count {
            var end = offset
            while end < line.count, line[end] != pipe || (end > offset && line[end - 1] == UInt8(ascii: "\\")) { end += 1 }
            let pipeLength = pipeLength(line, at: end)
            if end > offset || pipeLength > 0 { cells.append(offset..<end) }
            guard pipeLength > 0 else { break }
            offset = end + pipeLength
        }
        return cells
    }

    /// `range` without the whitespace at either end.
    static func trimmed(_ line: [UInt8], _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, isTrimmable(line[lower]) { lower += 1 }
        while upper > lower, isTrimmable(line[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    /// The alignments of a delimiter row starting at `start` (its first non-space byte), or nil when the line is
    /// not one: `|? marker (| marker)* |? spaces`, each marker `spaces :? -+ :? spaces` (cmark-gfm's
    /// `scan_table_start`). A single column needs no pipe (`:--`); a line of dashes alone is a setext underline
    /// to cmark, so it never gets here. As in cmark-gfm, a column's alignment comes from the colons at either end
    /// of its trimmed cell (a vertical tab before a colon hides it).
    static func delimiterAlignments(_ line: [UInt8], from start: Int) -> [PipeTable.Alignment]? {
        // The cheap test every paragraph line goes through first (cmark's first non-space may be a vertical tab).
        guard start < line.count, line[start] == pipe || line[start] == UInt8(ascii: ":") || line[start] == UInt8(ascii: "-") || isSpaceChar(line[start])
        else { return nil }
        guard isDelimiterRow(line, from: start) else { return nil }
        return cells(line, from: start).map { cell in
            let trimmed = trimmed(line, cell)
            guard !trimmed.isEmpty else { return .none }
            let left = line[trimmed.lowerBound] == UInt8(ascii: ":")
            let right = line[trimmed.upperBound - 1] == UInt8(ascii: ":")
            return left && right ? .center : left ? .left : right ? .right : .none
        }
    }

    private static func isDelimiterRow(_ line: [UInt8], from start: Int) -> Bool {
        var offset = start
        if line[offset] == pipe { offset += 1 }
        func at(_ character: Unicode.Scalar) -> Bool { offset < line.count && line[offset] == UInt8(ascii: character) }
        while true {
            while offset < line.count, isSpaceChar(line[offset]) { offset += 1 }
            if at(":") { offset += 1 }
            guard at("-") else { return false }
            while at("-") { offset += 1 }
            if at(":") { offset += 1 }
            while offset < line.count, isSpaceChar(line[offset]) { offset += 1 }
            if offset == line.count { return true }
            guard at("|") else { return false }
            offset += 1
            var rest = offset
            while rest < line.count, isSpaceChar(line[rest]) { rest += 1 }
            if rest == line.count { return true }
        }
    }

    /// Whether a list item starts at `offset`: a bullet or 1–9 digits and `.` or `)`, then a space, a tab or the
    /// line's end. Such a line never continues a paragraph's table in cmark's eyes (an empty item, or an ordered
    /// one not starting at 1, cannot interrupt a paragraph), but after a table cmark-gfm starts a list there.
    static func startsListItem(_ line: [UInt8], at offset: Int) -> Bool {
        guard offset < line.count else { return false }
        var end = offset
        switch line[offset] {
        case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "*"):
            end += 1
        default:
            while end < line.count, end - offset < 9, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(line[end]) { end += 1 }
            guard end > offset, end < line.count, line[end] == UInt8(ascii: ".") || line[end] == UInt8(ascii: ")") else { return false }
            end += 1
        }
        return end == line.count || line[end] == UInt8(ascii: " ") || line[end] == UInt8(ascii: "\t")
    }

    /// Whether `line` is a setext heading underline: `=` or `-` repeated, up to three columns of indentation,
    /// trailing spaces. A lazy line never is one.
    static func isSetextUnderline(_ line: ParagraphLine) -> Bool {
        let (start, indent) = line.firstNonSpace
        guard !line.isLazy, indent < 4, start < line.bytes.count, line.bytes[start] == UInt8(ascii: "=") || line.bytes[start] == UInt8(ascii: "-") else {
            return false
        }
        var end = start
        while end < line.bytes.count, line.bytes[end] == line.bytes[start] { end += 1 }
        return line.bytes[end...].allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
    }

    /// Whether the line from `offset` is a thematic break (three or more `*`, `-` or `_`, spaces and tabs between).
    /// Inside a paragraph one only comes as a setext heading's `---` underline: cmark makes the lines above it a
    /// heading, where cmark-gfm ends a table before it and draws a rule.
    static func isThematicBreak(_ line: [UInt8], at offset: Int) -> Bool {
        guard offset < line.count, [UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "_")].contains(line[offset]) else { return false }
        var count = 0
        for byte in line[offset...] {
            if byte == line[offset] {
                count += 1
            } else if byte != UInt8(ascii: " "), byte != UInt8(ascii: "\t") {
                return false
            }
        }
        return count >= 3
    }

    /// Whether an HTML block of CommonMark's kind 7 starts at `offset`: a complete open or closing tag alone on
    /// its line. It cannot interrupt a paragraph, but it ends a table (cmark's `html_block_start_7`).
    static func startsHTMLBlock(_ line: [UInt8], at offset: Int) -> Bool {
        var scanner = TagScanner(line: line, offset: offset)
        guard scanner.take("<") else { return false }
        if scanner.take("/") {
            guard scanner.tagName() else { return false }
            scanner.skipSpaces()
        } else {
            guard scanner.tagName() else { return false }
            while scanner.attribute() {}
            scanner.skipSpaces()
            _ = scanner.take("/")
        }
        guard scanner.take(">") else { return false }
        return scanner.onlyBlankRemains()
    }
}

/// A small backtracking scanner for the HTML tag grammar of cmark's `scanners.re`.
private struct TagScanner {
    let line: [UInt8]
    var offset: Int

    private var current: UInt8? { offset < line.count ? line[offset] : nil }

    private static let attributeNamePunctuation: Set<UInt8> = Set("_.:-".utf8)
    private static let notInUnquotedValue: Set<UInt8> = Set(" \t\n\u{0B}\u{0C}\r\0\"'=<>`".utf8)

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    /// cmark's `spacechar` in tags (a line holds no line ending here).
    private static func isSpace(_ byte: UInt8) -> Bool { [0x20, 0x09, 0x0B, 0x0C].contains(byte) }

    mutating func take(_ character: Character) -> Bool {
        guard current == character.asciiValue else { return false }
        offset += 1
        return true
    }

    mutating func skipSpaces() {
        while let byte = current, Self.isSpace(byte) { offset += 1 }
    }

    /// `[A-Za-z][A-Za-z0-9-]*`
    mutating func tagName() -> Bool {
        guard let first = current, Self.isLetter(first) else { return false }
        offset += 1
        while let byte = current, Self.isLetter(byte) || Self.isDigit(byte) || byte == UInt8(ascii: "-") { offset += 1 }
        return true
    }

    /// `spacechar+ attributename (spacechar* = spacechar* value)?`; on no match the offset is left unchanged.
    mutating func attribute() -> Bool {
        let start = offset
        skipSpaces()
        guard offset > start, let first = current, Self.isLetter(first) || first == UInt8(ascii: "_") || first == UInt8(ascii: ":") else {
            offset = start
            return false
        }
        offset += 1
        while let byte = current, Self.isLetter(byte) || Self.isDigit(byte) || Self.attributeNamePunctuation.contains(byte) { offset += 1 }
        let afterName = offset
        skipSpaces()
        guard take("=") else {
            offset = afterName
            return true
        }
        skipSpaces()
        if let quote = current, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
            guard let close = line[(offset + 1)...].firstIndex(of: quote) else {
                offset = afterName
                return true
            }
            offset = close + 1
            return true
        }
        let valueStart = offset
        while let byte = current, !Self.notInUnquotedValue.contains(byte) { offset += 1 }
        if offset == valueStart { offset = afterName }
        return true
    }

    /// `[\t\n\f ]*` to the end of the line.
    func onlyBlankRemains() -> Bool {
        line[offset...].allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0C }
    }
}
