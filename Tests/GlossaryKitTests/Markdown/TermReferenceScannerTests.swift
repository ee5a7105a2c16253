import TestSupport
import Testing

@testable import GlossaryKit

/// The scanner on one text node: references as cmark's decoded text holds them, columns from the source line.
@Suite struct TermReferenceScannerTests {
    typealias Match = TermReferenceScanner.Match

    static func scan(_ text: String, line: String? = nil, hint: Int = 1) -> (matches: [Match], problems: [TermReferenceScanner.Problem]) {
        TermReferenceScanner.scan(text: Array(text.utf8), sourceLine: Array((line ?? text).utf8), hintColumn: hint)
    }

    @Test func aReferenceWithItsRangeWordsAndColumn() {
        let result = Self.scan("See [[kerning]] here")
        #expect(result.matches == [Match(range: 4..<15, shown: "kerning", word: "kerning", column: 5)])
        #expect(result.problems.isEmpty)
    }

    @Test func shownTextAndWordAreSplitAtTheBarAndTrimmed() {
        let result = Self.scan("[[ the gap | kerning ]] and [[|leading]]")
        #expect(result.matches.map(\.shown) == ["the gap", "leading"], "an empty shown text is the word")
        #expect(result.matches.map(\.word) == ["kerning", "leading"])
        #expect(result.matches.map(\.column) == [1, 29])
    }

    @Test func anEscapedOpeningIsText() {
        // cmark gives `\[[x]]` as the text `[[x]]`; only the source line shows the backslash.
        #expect(Self.scan("[[x]] and [[y]]", line: "\\[[x]] and [[y]]").matches.map(\.word) == ["y"])
        #expect(Self.scan("[[x]]", line: "[\\[x]]").matches.isEmpty, "either bracket escaped")
    }

    @Test func unclosedAndEmptyReferencesAreProblemsAtTheirColumn() {
        #expect(Self.scan("a [[b and c").problems == [.unclosed(column: 3)])
        #expect(Self.scan("[[ ]] then [[a| ]]").problems == [.empty(column: 1), .empty(column: 12)])
        #expect(Self.scan("[[ ]] then [[a| ]]").matches.isEmpty)
    }

    @Test func columnsCountScalarsOfTheSourceLine() {
        // "Ça" is three bytes and two scalars; an entity is one character in the text and five in the line.
        #expect(Self.scan("Ça [[x]]").matches.map(\.column) == [4])
        #expect(Self.scan("& [[x]]", line: "&amp; [[x]]").matches.map(\.column) == [7])
        #expect(Self.scan("[[日本]]", line: "語 [[日本]]", hint: 5).matches.map(\.column) == [3], "after the hint's bytes")
    }

    @Test func aTextNodeLaterInItsLineIsFoundFromTheHint() {
        // Two nodes of one line, `*a* [[x]] b`: the second starts at byte column 4.
        let result = Self.scan(" [[x]] b", line: "*a* [[x]] b", hint: 4)
        #expect(result.matches == [Match(range: 1..<6, shown: "x", word: "x", column: 5)])
    }

    @Test func hasOpeningLooksForTwoBrackets() {
        #expect(TermReferenceScanner.hasOpening(Array("a [[b".utf8)))
        #expect(!TermReferenceScanner.hasOpening(Array("a [b] [c]".utf8)))
        #expect(!TermReferenceScanner.hasOpening(Array("".utf8)))
    }

    @Test func shownTextAndWordAreSplitAndTrimmedAsCharactersAre() {
        // Bytes for ASCII, characters otherwise: `|` and a combining mark after it are one character, no bar.
        let pieces = ["a", "b", "|", " ", "\t", "\r", "\n", "\u{0B}", "\u{0C}", "\u{1C}", "\u{A0}", "é", "\u{301}", "\u{2003}", "x y"]
        var random = SeededRandom(seed: 0xba5)
        for _ in 0..<5000 {
            let inner = (0..<Int(random.next() % 10)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            let expected: (String, String)
            if let bar = inner.firstIndex(of: "|") {
                expected = (inner[..<bar].trimmingWhitespace, inner[inner.index(after: bar)...].trimmingWhitespace)
            } else {
                expected = (inner[...].trimmingWhitespace, inner[...].trimmingWhitespace)
            }
            let found = Array(inner.utf8).withUnsafeBufferPointer { TermReferenceScanner.parts(of: $0) }
            #expect(found == expected, "\(inner.debugDescription)")
        }
    }

    @Test func manyReferencesOnOneLineAreAllFound() {
        let line = (0..<2000).map { "[[w\($0)]]" }.joined(separator: " ")
        let result = Self.scan(line)
        #expect(result.matches.count == 2000)
        #expect(result.matches.last?.word == "w1999")
        #expect(result.matches.last?.column == 1 + (0..<1999).reduce(0) { $0 + "[[w\($1)]] ".count })
    }
}

/// The alignment of a text with its line, found without an array per tried start, is the one the arrays gave.
@Suite struct TermReferenceScannerAlignmentTests {
    /// One piece of a source line and what cmark's decoding makes of it.
    static let pieces: [(source: String, text: String)] = [
        ("a", "a"), ("b", "b"), ("[", "["), ("]", "]"), (" ", " "), ("é", "é"), ("語", "語"), ("\\[", "["), ("\\\\", "\\"),
        ("\\a", "\\a"), ("&amp;", "&"), ("&ngE;", "\u{2267}\u{338}"), ("&#91;", "["), ("&", "&"), ("&x", "&x"), (";", ";"),
        ("&#x1F600;", "😀"), ("&lt;", "<"),
    ]

    @Test func randomTextsAlignAsTheArraysFoundThem() {
        var random = SeededRandom(seed: 0xa11e)
        var aligned = 0
        var verbatim = 0
        for round in 0..<20000 {
            let count = Int(random.next() % 24) + 1
            let chosen = (0..<count).map { _ in Self.pieces[Int(random.next() % UInt64(Self.pieces.count))] }
            var line = Array(chosen.map(\.source).joined().utf8)
            // A run of one byte now and then: many starts match a long way before failing (the search's budget).
            if round % 50 == 0 { line = [UInt8](repeating: UInt8(ascii: "["), count: Int(random.next() % 60)) + line }
            let from = Int(random.next() % UInt64(count))
            let to = from + Int(random.next() % UInt64(count - from)) + 1
            var text = Array(chosen[from..<to].map(\.text).joined().utf8)
            if random.next() % 5 == 0, !text.isEmpty { text[Int(random.next() % UInt64(text.count))] = UInt8(ascii: "a") }
            let offset = chosen[..<from].reduce(0) { $0 + $1.source.utf8.count }
            let hint = max(0, offset + Int(random.next() % 7) - 3)
            let expected = ReferenceAlignment.align(text: text, line: line, hint: hint)
            let found = text.withUnsafeBufferPointer { text in
                line.withUnsafeBufferPointer { line in
                    (TermReferenceScanner.align(text: text, line: line, hint: hint), TermReferenceScanner.aligns(text: text, line: line, hint: hint))
                }
            }
            // Read byte by byte, as the scan reads it: a verbatim alignment keeps no arrays.
            let positions = found.0.map { alignment in text.indices.map(alignment.position) }
            let escaped = found.0.map { alignment in text.indices.map(alignment.isEscaped) }
            #expect(positions == expected?.positions && escaped == expected?.escaped, "\(line) \(text) \(hint)")
            #expect(found.1 == (expected != nil))
            if expected != nil { aligned += 1 }
            if found.0?.verbatimStart != nil { verbatim += 1 }
        }
        #expect(aligned > 5000, "most texts are their line's decoding")
        #expect(verbatim > 100 && verbatim < aligned, "some texts stand in their line as they are, not all: \(verbatim)")
    }

    @Test func columnsAreTheScalarsBeforeEachReferencesByteInTheLine() {
        let pieces = Self.pieces + [("[[", "[["), ("]]", "]]"), ("[[x]]", "[[x]]"), ("[[é|語]]", "[[é|語]]"), ("\\[[", "[[")]
        var random = SeededRandom(seed: 0xc01)
        var columns = 0
        for _ in 0..<5000 {
            let chosen = (0..<(Int(random.next() % 30) + 1)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }
            let line = Array(chosen.map(\.source).joined().utf8)
            let from = Int(random.next() % UInt64(chosen.count))
            let text = Array(chosen[from...].map(\.text).joined().utf8)
            let hint = chosen[..<from].reduce(0) { $0 + $1.source.utf8.count } + 1
            let (matches, problems) = TermReferenceScanner.scan(text: text, sourceLine: line, hintColumn: hint)
            let alignment = ReferenceAlignment.align(text: text, line: line, hint: hint - 1)
            func column(_ i: Int) -> Int {
                let byte = alignment?.positions[i] ?? (hint - 1 + i)
                return line[..<min(byte, line.count)].count { $0 & 0xC0 != 0x80 } + 1 + max(0, byte - line.count)
            }
            for match in matches {
                #expect(match.column == column(match.range.lowerBound), "\(line) \(text)")
                columns += 1
            }
            // A problem's column is a reference's opening: one of the text's unescaped `[[`.
            let openings = Set(text.indices.dropLast().filter { text[$0] == UInt8(ascii: "[") && text[$0 + 1] == UInt8(ascii: "[") }.map(column))
            for case .unclosed(let column) in problems { #expect(openings.contains(column)) }
        }
        #expect(columns > 2000)
    }
}

/// `TermReferenceScanner.align` as it was, arrays filled for every start tried: the reference the scanner is held to.
private enum ReferenceAlignment {
    static func align(text: [UInt8], line: [UInt8], hint: Int) -> (positions: [Int], escaped: [Bool])? {
        guard !text.isEmpty else { return nil }
        var budget = 8 * (line.count + text.count) + 64
        let first = min(hint, line.count)
        for step in 0..<(2 * line.count + 1) {
            let start = step % 2 == 0 ? first + step / 2 : first - (step + 1) / 2
            guard start >= 0 && start < line.count else { continue }
            guard (line.count - start) * 2 >= text.count else { continue }
            guard line[start] == text[0] || line[start] == UInt8(ascii: "\\") || line[start] == UInt8(ascii: "&") else { continue }
            guard budget > 0 else { return nil }
            if let alignment = align(text: text, line: line, start: start, budget: &budget) { return alignment }
        }
        return nil
    }

    private static func align(text: [UInt8], line: [UInt8], start: Int, budget: inout Int) -> (positions: [Int], escaped: [Bool])? {
        var positions = [Int](repeating: 0, count: text.count)
        var escaped = [Bool](repeating: false, count: text.count)
        return walk(text, line, 0, start, &budget, &positions, &escaped) ? (positions, escaped) : nil
    }

    /// An entity's bytes found as written in the text are read so first (cmark leaves entities it doesn't know as
    /// they are), on copies of the arrays; decoded if the rest doesn't follow.
    private static func walk(
        _ text: [UInt8], _ line: [UInt8], _ first: Int, _ start: Int, _ budget: inout Int, _ positions: inout [Int], _ escaped: inout [Bool]
    ) -> Bool {
        var i = first
        var j = start
        while i < text.count {
            budget -= 1
            guard j < line.count else { return false }
            let byte = line[j]
            if byte == UInt8(ascii: "\\"), j + 1 < line.count, isASCIIPunctuation(line[j + 1]), text[i] == line[j + 1] {
                positions[i] = j + 1
                escaped[i] = true
                i += 1
                j += 2
            } else if byte == UInt8(ascii: "&"), let end = entityEnd(line, from: j) {
                let length = end - j + 1
                if i + length <= text.count, Array(text[i..<(i + length)]) == Array(line[j...end]) {
                    var trialPositions = positions
                    var trialEscaped = escaped
                    if walk(text, line, i + length, end + 1, &budget, &trialPositions, &trialEscaped) {
                        for k in 0..<length {
                            trialPositions[i + k] = j + k
                            trialEscaped[i + k] = false
                        }
                        (positions, escaped) = (trialPositions, trialEscaped)
                        return true
                    }
                }
                var decoded = utf8Length(leadByte: text[i])
                if i + decoded < text.count, text[i + decoded] >= 0x80, end + 1 >= line.count || text[i + decoded] != line[end + 1] {
                    decoded += utf8Length(leadByte: text[i + decoded])
                }
                for k in i..<min(i + decoded, text.count) { positions[k] = j }
                i += decoded
                j = end + 1
            } else if byte == text[i] {
                positions[i] = j
                i += 1
                j += 1
            } else {
                return false
            }
        }
        return true
    }

    private static func entityEnd(_ line: [UInt8], from start: Int) -> Int? {
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
