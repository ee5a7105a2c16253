extension ParagraphLine {
    /// The lines of one paragraph cmark parsed, each with the column where its content starts, found by matching
    /// the paragraph's containers against the line as cmark does (cmark reports only where the paragraph starts,
    /// and its inline columns drift on continuation lines).
    ///
    /// - Parameters:
    ///   - source: the markdown cmark parsed, split at `\n` (a trailing `\r` is ignored); its first element is line 1.
    ///   - startLine: the paragraph node's start line; `startColumn` its start column; `endLine` its end line.
    ///   - containers: the paragraph's block quote and list item ancestors, outermost first.
    ///   - lineOffset: added to cmark's line numbers to give file lines (the front matter's line count).
    public static func lines<Source: RandomAccessCollection>(
        in source: Source, startLine: Int, startColumn: Int, endLine: Int, containers: [MarkdownContainer], lineOffset: Int = 0
    ) -> [ParagraphLine] where Source.Index == Int, Source.Element: Collection<UInt8> {
        func sourceLine(_ number: Int) -> [UInt8] {
            guard number >= 1, number <= source.count else { return [] }
            let line = Array(source[source.startIndex + number - 1])
            return line.last == UInt8(ascii: "\r") ? Array(line.dropLast()) : line
        }
        let widths = listItemWidths(containers, sourceLine)
        var lines: [ParagraphLine] = []
        lines.reserveCapacity(max(0, endLine - startLine + 1))
        for number in startLine...max(startLine, endLine) {
            let bytes = sourceLine(number)
            if number == startLine {
                let start = min(max(startColumn - 1, 0), bytes.count)
                lines.append(
                    ParagraphLine(number: number + lineOffset, bytes: bytes, contentStart: start, contentWidth: width(of: bytes[..<start]), isLazy: false))
                continue
            }
            var cursor = PrefixCursor(bytes: bytes)
            var isLazy = false
            for (container, width) in zip(containers, widths) where !cursor.continues(container, width: width) {
                isLazy = true
                break
            }
            lines.append(ParagraphLine(number: number + lineOffset, bytes: bytes, contentStart: cursor.offset, contentWidth: cursor.column, isLazy: isLazy))
        }
        return lines
    }

    /// For each list item, the indentation its continuation lines need (cmark's `marker_offset + padding`),
    /// measured on the item's first line; 0 for block quotes.
    private static func listItemWidths(_ containers: [MarkdownContainer], _ sourceLine: (Int) -> [UInt8]) -> [Int] {
        var widths = [Int](repeating: 0, count: containers.count)
        for (index, container) in containers.enumerated() {
            guard case .listItem(let line, let column) = container else { continue }
            var cursor = PrefixCursor(bytes: sourceLine(line))
            for outer in 0..<index {
                if containers[outer].line < line {
                    _ = cursor.continues(containers[outer], width: widths[outer])
                } else {
                    _ = cursor.opens(containers[outer])
                }
            }
            widths[index] = cursor.opensListItem(at: column - 1)
        }
        return widths
    }
}

/// A position in a line as cmark's block parser keeps it while it matches container prefixes: a byte offset and a
/// visual column, which is mid-tab when a prefix consumed only part of a tab.
private struct PrefixCursor {
    let bytes: [UInt8]
    var offset = 0
    var column = 0

    private func isSpaceOrTab(_ offset: Int) -> Bool {
        offset < bytes.count && (bytes[offset] == UInt8(ascii: " ") || bytes[offset] == UInt8(ascii: "\t"))
    }

    /// cmark's `S_find_first_nonspace`.
    private func firstNonSpace() -> (offset: Int, column: Int) {
        var offset = self.offset
        var column = self.column
        while isSpaceOrTab(offset) {
            column = bytes[offset] == UInt8(ascii: "\t") ? column + 4 - column % 4 : column + 1
            offset += 1
        }
        return (offset, column)
    }

    /// cmark's `S_advance_offset(…, columns: true)`: a tab may be consumed in part.
    private mutating func advance(columns: Int) {
        var count = columns
        while count > 0, offset < bytes.count {
            if bytes[offset] == UInt8(ascii: "\t") {
                let toTabStop = 4 - column % 4
                let step = min(count, toTabStop)
                column += step
                if toTabStop <= count { offset += 1 }
                count -= step
            } else {
                offset += 1
                column += 1
                count -= 1
            }
        }
    }

    /// cmark's `S_advance_offset(…, columns: false)` up to byte `target`: a tab counts whole.
    private mutating func advance(toByte target: Int) {
        while offset < min(target, bytes.count) {
            column = bytes[offset] == UInt8(ascii: "\t") ? column + 4 - column % 4 : column + 1
            offset += 1
        }
    }

    /// Matches an open container's prefix on a continuation line (cmark's `parse_block_quote_prefix` and
    /// `parse_node_item_prefix`); false means the line is lazy from here on.
    mutating func continues(_ container: MarkdownContainer, width: Int) -> Bool {
        let (nonSpace, nonSpaceColumn) = firstNonSpace()
        let indent = nonSpaceColumn - column
        switch container {
        case .blockQuote:
            guard indent <= 3, nonSpace < bytes.count, bytes[nonSpace] == UInt8(ascii: ">") else { return false }
            advance(columns: indent + 1)
            if isSpaceOrTab(offset) { advance(columns: 1) }
            return true
        case .listItem:
            guard indent >= width, nonSpace < bytes.count else { return false }
            advance(columns: width)
            return true
        }
    }

    /// Steps over a container that starts on this line.
    mutating func opens(_ container: MarkdownContainer) -> Bool {
        switch container {
        case .blockQuote(_, let column):
            guard column >= 1, column - 1 < bytes.count, bytes[column - 1] == UInt8(ascii: ">") else { return false }
            advance(toByte: column)
            if isSpaceOrTab(offset) { advance(columns: 1) }
            return true
        case .listItem(_, let column):
            return opensListItem(at: column - 1) > 0
        }
    }

    /// Steps over a list marker at byte `marker` and the spaces after it as cmark's `parse_list_marker` and
    /// `open_new_blocks` do; returns the item's `marker_offset + padding` (0 if there is no marker there).
    mutating func opensListItem(at marker: Int) -> Int {
        guard marker >= offset, marker < bytes.count else { return 0 }
        let parentColumn = column
        advance(toByte: marker)
        let markerOffset = column - parentColumn
        var end = marker
        if [UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "*")].contains(bytes[marker]) {
            end += 1
        } else {
            while end < bytes.count, end - marker < 9, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) { end += 1 }
            guard end > marker, end < bytes.count, bytes[end] == UInt8(ascii: ".") || bytes[end] == UInt8(ascii: ")") else { return 0 }
            end += 1
        }
        let markerWidth = end - marker
        advance(toByte: end)
        let saved = self
        while column - saved.column <= 5, isSpaceOrTab(offset) { advance(columns: 1) }
        let spaces = column - saved.column
        if spaces >= 5 || spaces < 1 || offset >= bytes.count {
            self = saved
            if spaces > 0 { advance(columns: 1) }
            return markerOffset + markerWidth + 1
        }
        return markerOffset + markerWidth + spaces
    }
}
