import Glibc

/// Finds term references in one text node's decoded text, using the node's source line to honour `\[[`
/// escapes and to give each reference its exact column.
///
/// cmark decodes escapes and entities in text nodes (`\[[x]]` arrives as `[[x]]`) and its columns are
/// unreliable on continuation lines, so the scanner re-aligns the decoded text with the source line.
struct TermReferenceScanner {
    struct Match: Equatable {
        /// Byte range of `[[…]]` in the decoded text.
        var range: Range<Int>
        var shown: String
        var word: String
        /// 1-based column (Unicode scalars) of the opening `[[` in the source line.
        var column: Int
    }

    enum Problem: Equatable {
        case unclosed(column: Int)
        case empty(column: Int)
    }

    /// Matches and problems for `text`, whose first byte cmark placed at 1-based byte column `hintColumn` of `sourceLine`.
    static func scan(text: [UInt8], sourceLine: [UInt8], hintColumn: Int) -> (matches: [Match], problems: [Problem]) {
        text.withUnsafeBufferPointer { text in
            sourceLine.withUnsafeBufferPointer { scan(text: text, sourceLine: $0, hintColumn: hintColumn) }
        }
    }

    /// Matches and problems for `text` (bytes: a text node's literal, a view of the source's lines).
    static func scan(
        text: UnsafeBufferPointer<UInt8>, sourceLine: UnsafeBufferPointer<UInt8>, hintColumn: Int
    ) -> (matches: [Match], problems: [Problem]) {
        guard hasOpening(text) else { return ([], []) }
        let alignment = align(text: text, line: sourceLine, hint: max(0, hintColumn - 1))
        func sourceIndex(_ i: Int) -> Int { alignment?.position(i) ?? (max(0, hintColumn - 1) + i) }
        func isEscaped(_ i: Int) -> Bool { alignment?.isEscaped(i) ?? false }
        // Scalars counted on from the last column asked for: columns come in increasing order, so a line of many
        // references stays linear.
        var counted = (bytes: 0, scalars: 0)
        func column(_ i: Int) -> Int {
            let bytes = sourceIndex(i)
            let end = min(bytes, sourceLine.count)
            if end < counted.bytes { counted = (0, 0) }
            while counted.bytes < end {
                // Every byte that is not a UTF-8 continuation byte starts a scalar.
                if sourceLine[counted.bytes] & 0xC0 != 0x80 { counted.scalars += 1 }
                counted.bytes += 1
            }
            return counted.scalars + 1 + max(0, bytes - sourceLine.count)
        }

        var matches: [Match] = []
        var problems: [Problem] = []
        var i = 0
        while i + 1 < text.count {
            guard text[i] == UInt8(ascii: "["), text[i + 1] == UInt8(ascii: "["), !isEscaped(i), !isEscaped(i + 1) else {
                i += 1
                continue
            }
            guard let close = closing(in: text, from: i + 2) else {
                problems.append(.unclosed(column: column(i)))
                i += 2
                continue
            }
            let (shown, word) = parts(of: UnsafeBufferPointer(rebasing: text[(i + 2)..<close]))
            if word.isEmpty {
                problems.append(.empty(column: column(i)))
            } else {
                matches.append(Match(range: i..<(close + 2), shown: shown.isEmpty ? word : shown, word: word, column: column(i)))
            }
            i = close + 2
        }
        return (matches, problems)
    }

    /// The shown text and the word of a reference's inner text, split at its first `|` (else both the whole) and
    /// trimmed of white space, as characters are: `|` followed by a combining mark is no bar.
    static func parts(of inner: UnsafeBufferPointer<UInt8>) -> (shown: String, word: String) {
        guard inner.allSatisfy({ $0 < 0x80 }) else {
            let inner = String(decoding: inner, as: UTF8.self)
            guard let bar = inner.firstIndex(of: "|") else { return (inner[...].trimmingWhitespace, inner[...].trimmingWhitespace) }
            return (inner[..<bar].trimmingWhitespace, inner[inner.index(after: bar)...].trimmingWhitespace)
        }
        // ASCII (nearly every reference): a character is a byte (CR LF aside, white space either way), so bytes do.
        func trimmed(_ range: Range<Int>) -> String {
            var (start, end) = (range.lowerBound, range.upperBound)
            while start < end, isASCIIWhitespace(inner[start]) { start += 1 }
            while end > start, isASCIIWhitespace(inner[end - 1]) { end -= 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: inner[start..<end]), as: UTF8.self)
        }
        guard let bar = inner.firstIndex(of: UInt8(ascii: "|")) else {
            let whole = trimmed(0..<inner.count)
            return (whole, whole)
        }
        return (trimmed(0..<bar), trimmed((bar + 1)..<inner.count))
    }

    /// The ASCII characters that are white space (`Character.isWhitespace`): tab, line feed, vertical tab, form
    /// feed, carriage return, space.
    private static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        (0x09...0x0D).contains(byte) || byte == 0x20
    }

    static func hasOpening(_ text: some Sequence<UInt8>) -> Bool {
        var previous: UInt8 = 0
        for byte in text {
            if byte == UInt8(ascii: "[") && previous == UInt8(ascii: "[") { return true }
            previous = byte
        }
        return false
    }

    /// Index of the `]]` closing a reference that starts at `start`, or nil when another `[` or `]` comes first.
    private static func closing(in text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var j = start
        while j < text.count {
            switch text[j] {
            case UInt8(ascii: "]"):
                return j + 1 < text.count && text[j + 1] == UInt8(ascii: "]") ? j : nil
            case UInt8(ascii: "["):
                return nil
            default:
                j += 1
            }
        }
        return nil
    }

    struct Alignment {
        /// Where the text starts in the line when it stands there byte for byte (then there are no arrays).
        var verbatimStart: Int?
        var positions: [Int] = []
        var escaped: [Bool] = []

        /// The line byte text byte `i` stands for.
        func position(_ i: Int) -> Int { verbatimStart.map { $0 + i } ?? positions[i] }
        /// Whether a backslash escaped text byte `i`.
        func isEscaped(_ i: Int) -> Bool { verbatimStart == nil && escaped[i] }
    }

    /// Maps each byte of the decoded text to its byte in the source line, trying the hint first, then the starts
    /// nearest it, alternately before and after (see `start(text:line:hint:)`).
    static func align(text: UnsafeBufferPointer<UInt8>, line: UnsafeBufferPointer<UInt8>, hint: Int) -> Alignment? {
        // Nearly every text node: the walk from the hint would map byte to byte (nothing escaped, no entity).
        if isVerbatim(text: text, line: line, at: hint) { return Alignment(verbatimStart: hint) }
        guard let start = start(text: text, line: line, hint: hint) else {
            return plainStart(text: text, line: line, hint: hint).map { Alignment(verbatimStart: $0) }
        }
        var positions = [Int](repeating: 0, count: text.count)
        var escaped = [Bool](repeating: false, count: text.count)
        var budget = Int.max
        _ = walk(text: text, line: line, start: start, budget: &budget) { i, j, isEscaped in
            positions[i] = j
            escaped[i] = isEscaped
        }
        return Alignment(positions: positions, escaped: escaped)
    }

    /// Where `text` stands in `line` nearest the hint (the earlier of two as near, as the search tries them), when
    /// neither has a backslash or an `&`: then the walk maps byte to byte from any start, and one linear search
    /// (Knuth–Morris–Pratt) finds every start the budgeted search would have tried. It gives up on a line of one
    /// repeated byte far from cmark's column: a lazy line of 46 `[` after a carriage return, whose column cmark
    /// counts with the first line's quote markers (found by fuzzing), had every reference placed 14 columns right.
    private static func plainStart(text: UnsafeBufferPointer<UInt8>, line: UnsafeBufferPointer<UInt8>, hint: Int) -> Int? {
        guard !text.isEmpty, text.count <= line.count, !hasEscapes(text), !hasEscapes(line) else { return nil }
        var failure = [Int](repeating: 0, count: text.count)
        var matched = 0
        for i in 1..<max(1, text.count) {
            while matched > 0 && text[i] != text[matched] { matched = failure[matched - 1] }
            if text[i] == text[matched] { matched += 1 }
            failure[i] = matched
        }
        let first = min(hint, line.count)
        var best: Int?
        matched = 0
        for j in 0..<line.count {
            while matched > 0 && line[j] != text[matched] { matched = failure[matched - 1] }
            if line[j] == text[matched] { matched += 1 }
            guard matched == text.count else { continue }
            let start = j - text.count + 1
            if best.map({ abs(start - first) < abs($0 - first) }) ?? true { best = start }
            matched = failure[matched - 1]
        }
        return best
    }

    /// Whether `bytes` hold a backslash or an `&`, where the walk may read the line otherwise than byte for byte.
    private static func hasEscapes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        memchr(bytes.baseAddress!, Int32(UInt8(ascii: "\\")), bytes.count) != nil || memchr(bytes.baseAddress!, Int32(UInt8(ascii: "&")), bytes.count) != nil
    }

    /// Whether `text` stands in `line` from byte `start` as it is, with no backslash or `&` in it: the walk from
    /// there maps each byte to its own, as the first start tried (`min(hint, line.count)`) it is the one found.
    private static func isVerbatim(text: UnsafeBufferPointer<UInt8>, line: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        guard !text.isEmpty, start >= 0, start + text.count <= line.count else { return false }
        return memcmp(text.baseAddress!, line.baseAddress! + start, text.count) == 0 && !hasEscapes(text)
    }

    /// Whether the decoded text aligns with the source line (as `align` would, without recording how).
    static func aligns(text: UnsafeBufferPointer<UInt8>, line: UnsafeBufferPointer<UInt8>, hint: Int) -> Bool {
        isVerbatim(text: text, line: line, at: hint) || start(text: text, line: line, hint: hint) != nil
            || plainStart(text: text, line: line, hint: hint) != nil
    }

    /// The byte of the line where the decoded text starts, trying the hint first, then the starts nearest it,
    /// alternately before and after.
    ///
    /// The search gives up (nil) after comparing about eight times the bytes of the line and the text: a long line
    /// where many starts match a long way before failing would otherwise take quadratic time.
    private static func start(text: UnsafeBufferPointer<UInt8>, line: UnsafeBufferPointer<UInt8>, hint: Int) -> Int? {
        guard !text.isEmpty else { return nil }
        var budget = 8 * (line.count + text.count) + 64
        // Nearest the hint first: cmark's column is off by a little, either way, and on a line of one repeated byte
        // every start far from the real one matches a long way before failing, spending the budget it needs (found by
        // fuzzing: 46 `[` on a line whose column cmark gives one too far right). Walked, not listed: an array per text
        // node cost more than the search on a page of a million text nodes.
        let first = min(hint, line.count)
        for step in 0..<(2 * line.count + 1) {
            let start = step % 2 == 0 ? first + step / 2 : first - (step + 1) / 2
            guard start >= 0 && start < line.count else { continue }
            guard (line.count - start) * 2 >= text.count else { continue }
            guard line[start] == text[0] || line[start] == UInt8(ascii: "\\") || line[start] == UInt8(ascii: "&") else { continue }
            guard budget > 0 else { return nil }
            if walk(text: text, line: line, start: start, budget: &budget, record: { _, _, _ in }) { return start }
        }
        return nil
    }

    /// Walks the text along the line from byte `start` of the line, telling `record` which line byte each text byte
    /// stands for and whether a backslash escaped it; false when the two part.
    ///
    /// An entity cmark doesn't decode (`&#;`, a name it doesn't know) stays in the text as written: where the text
    /// has the entity's bytes, that reading is tried first, and the decoded one if the rest then parts.
    private static func walk(
        text: UnsafeBufferPointer<UInt8>, line: UnsafeBufferPointer<UInt8>, start: Int, budget: inout Int,
        record: (_ text: Int, _ line: Int, _ escaped: Bool) -> Void
    ) -> Bool {
        walk(text: text, from: 0, line: line, start: start, budget: &budget, record: record)
    }

    private static func walk(
        text: UnsafeBufferPointer<UInt8>, from first: Int, line: UnsafeBufferPointer<UInt8>, start: Int, budget: inout Int,
        record: (_ text: Int, _ line: Int, _ escaped: Bool) -> Void
    ) -> Bool {
        var i = first
        var j = start
        while i < text.count {
            budget -= 1
            guard j < line.count else { return false }
            let byte = line[j]
            if byte == UInt8(ascii: "\\"), j + 1 < line.count, isASCIIPunctuation(line[j + 1]), text[i] == line[j + 1] {
                record(i, j + 1, true)
                i += 1
                j += 2
            } else if byte == UInt8(ascii: "&"), let end = entityEnd(line, from: j) {
                if literally(text, i, line, j...end, budget: &budget, record: record) { return true }
                // An entity decodes to one scalar, or to two (`&ngE;` is U+2267 U+0338): take a second, non-ASCII
                // one too when the first alone would leave the text out of step with what follows the entity.
                var length = utf8Length(leadByte: text[i])
                if i + length < text.count, text[i + length] >= 0x80, end + 1 >= line.count || text[i + length] != line[end + 1] {
                    length += utf8Length(leadByte: text[i + length])
                }
                for k in i..<min(i + length, text.count) { record(k, j, false) }
                i += length
                j = end + 1
            } else if byte == text[i] {
                record(i, j, false)
                i += 1
                j += 1
            } else {
                return false
            }
        }
        return true
    }

    /// Whether the text reads on from `i` with the entity's bytes as written and then walks along the rest of the line
    /// (recorded when it does: a later reading records every byte from `i` on again, so a failed one leaves nothing).
    private static func literally(
        _ text: UnsafeBufferPointer<UInt8>, _ i: Int, _ line: UnsafeBufferPointer<UInt8>, _ entity: ClosedRange<Int>, budget: inout Int,
        record: (_ text: Int, _ line: Int, _ escaped: Bool) -> Void
    ) -> Bool {
        let length = entity.count
        guard i + length <= text.count else { return false }
        for k in 0..<length where text[i + k] != line[entity.lowerBound + k] { return false }
        guard walk(text: text, from: i + length, line: line, start: entity.upperBound + 1, budget: &budget, record: record) else { return false }
        for k in 0..<length { record(i + k, entity.lowerBound + k, false) }
        return true
    }

    /// Index of the `;` ending an entity or numeric character reference starting at `start`.
    private static func entityEnd(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var j = start + 1
        while j < line.count && j - start <= 32 {
            let byte = line[j]
            if byte == UInt8(ascii: ";") { return j > start + 1 ? j : nil }
            let isName = (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == UInt8(ascii: "#")
            if !isName { return nil }
            j += 1
        }
        return nil
    }

    private static func utf8Length(leadByte: UInt8) -> Int {
        switch leadByte {
        case 0..<0x80: 1
        case 0xF0...: 4
        case 0xE0...: 3
        default: 2
        }
    }

    private static func isASCIIPunctuation(_ byte: UInt8) -> Bool {
        (0x21...0x2F).contains(byte) || (0x3A...0x40).contains(byte) || (0x5B...0x60).contains(byte) || (0x7B...0x7E).contains(byte)
    }
}

extension Substring {
    /// The text without leading and trailing white space, with inner runs of white space kept.
    var trimmingWhitespace: String {
        var slice = self[...]
        while let first = slice.first, first.isWhitespace { slice = slice.dropFirst() }
        while let last = slice.last, last.isWhitespace { slice = slice.dropLast() }
        return String(slice)
    }
}
