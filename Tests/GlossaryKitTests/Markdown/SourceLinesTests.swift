import TestSupport
import Testing

@testable import GlossaryKit

/// The lines of a source in one buffer read exactly as the arrays of lines they replaced.
@Suite struct SourceLinesTests {
    /// The lines as the builder cut them before `SourceLines`: an array each (LF, CRLF or a lone CR end a line, a
    /// NUL byte is U+FFFD).
    static func referenceLines(of source: String) -> [[UInt8]] {
        let bytes = Array(source.utf8)
        var lines: [[UInt8]] = []
        var start = 0
        var index = 0
        func cut(_ end: Int) {
            lines.append(bytes[start..<end].flatMap { $0 == 0 ? [0xEF, 0xBF, 0xBD] : [$0] })
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                cut(index)
                index += byte == UInt8(ascii: "\r") && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\n") ? 2 : 1
                start = index
            } else {
                index += 1
            }
        }
        cut(bytes.count)
        return lines
    }

    static func lines(_ source: String) -> [[UInt8]] {
        SourceLines(source).map { Array($0) }
    }

    @Test func lineEndingsAndNULsAsCmarkReadsThem() {
        #expect(Self.lines("") == [[]])
        #expect(Self.lines("a\nb") == [Array("a".utf8), Array("b".utf8)])
        #expect(Self.lines("a\r\n\r\nb\rc\n") == ["a", "", "b", "c", ""].map { Array($0.utf8) })
        #expect(Self.lines("\r\r\n\n") == [[], [], [], []])
        #expect(Self.lines("x\0y\n\0") == [Array("x\u{FFFD}y".utf8), Array("\u{FFFD}".utf8)])
    }

    @Test func aLineByNumberIsEmptyOutsideTheSource() {
        let lines = SourceLines("one\ntwo")
        #expect(Array(lines.line(1)) == Array("one".utf8))
        #expect(Array(lines.line(2)) == Array("two".utf8))
        #expect(lines.line(0).isEmpty && lines.line(3).isEmpty && lines.line(-4).isEmpty)
    }

    @Test func randomSourcesSplitAsTheArraysOfLinesDid() {
        let pieces = ["a", "bc", " ", "\n", "\r", "\r\n", "\n\r", "\0", "é", "語", "\t", "\\", "[[x]]"]
        var random = SeededRandom(seed: 0x11e5)
        for _ in 0..<2000 {
            let source = (0..<Int(random.next() % 40)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            #expect(Self.lines(source) == Self.referenceLines(of: source), "\(Array(source.utf8))")
        }
    }

    /// Sources with no CR and no NUL take a path of their own (copied whole, line feeds found by `memchr`).
    @Test func randomSourcesOfLineFeedsAloneSplitAsTheArraysOfLinesDid() {
        let pieces = ["a", "bc", " ", "\n", "\n\n", "é", "語", "\t", "[[x]]", String(repeating: "long line ", count: 9)]
        var random = SeededRandom(seed: 0x1f)
        for _ in 0..<2000 {
            let source = (0..<Int(random.next() % 40)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            #expect(Self.lines(source) == Self.referenceLines(of: source), "\(Array(source.utf8))")
        }
        #expect(Self.lines("\n") == [[], []])
        #expect(Self.lines("a\n") == [Array("a".utf8), []])
    }
}
