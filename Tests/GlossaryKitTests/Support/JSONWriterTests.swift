import Foundation
import TestSupport
import Testing

@testable import GlossaryKit

/// String literals as JSONWriter quotes them: read back the same, safe inside HTML, plain text copied as it is.
@Suite struct JSONWriterTests {
    @Test func specialCharactersAreEscaped() {
        #expect(JSONWriter.quoted("plain words, ’curly’ é 日本") == "\"plain words, ’curly’ é 日本\"")
        #expect(JSONWriter.quoted("a\"b\\c\nd\re\tf\u{1}") == #""a\"b\\c\nd\re\tf\u0001""#)
        #expect(JSONWriter.quoted("<a href='x'>&</a>") == #""\u003ca href='x'\u003e\u0026\u003c/a\u003e""#)
        #expect(JSONWriter.quoted("<&>", htmlSafe: false) == "\"<&>\"")
        #expect(JSONWriter.quoted("line\u{2028}para\u{2029}") == #""line\u2028para\u2029""#)
        #expect(JSONWriter.quoted("\u{2027}\u{202A}") == "\"\u{2027}\u{202A}\"", "neighbours of U+2028 stay as they are")
        #expect(JSONWriter.quoted("") == "\"\"")
    }

    @Test func randomTextReadsBackTheSameAndIsSafeInHTML() throws {
        var random = SeededRandom(seed: 0x8d72)
        let pieces: [String] = ["a", "Z", " ", "\"", "\\", "\n", "\u{0}", "\u{1F}", "<", ">", "&", "é", "’", "\u{2028}", "\u{2029}", "\u{2027}", "😀", "/"]
        for _ in 0..<2000 {
            let text = (0..<Int.random(in: 0...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            for htmlSafe in [true, false] {
                let quoted = JSONWriter.quoted(text, htmlSafe: htmlSafe)
                #expect(try JSONParser.parse(Data(quoted.utf8)) == .string(text), "\(quoted)")
                #expect(!quoted.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{2028}" || $0 == "\u{2029}" })
                if htmlSafe { #expect(!quoted.contains { "<>&".contains($0) }) }
            }
        }
    }

    @Test func objectsAreWrittenWithSortedDistinctKeys() {
        let unsorted = JSONValue.object([("b", .number("1")), ("a", .number("2")), ("b", .number("3"))])
        #expect(JSONWriter.text(unsorted, pretty: false) == #"{"a":2,"b":3}"#, "the last of a repeated key")
        let sorted = JSONValue.object([("a", .array([])), ("b", .object([])), ("c", .string("x"))])
        #expect(JSONWriter.text(sorted, pretty: false) == #"{"a":[],"b":{},"c":"x"}"#)
        #expect(JSONWriter.text(sorted, pretty: true) == "{\n  \"a\": [],\n  \"b\": {},\n  \"c\": \"x\"\n}")
    }

    /// Any members, in any order and with repeats, are written as the last value of each key, in key order.
    @Test func anyMembersAreWrittenAsTheLastValueOfEachKeyInOrder() {
        var random = SeededRandom(seed: 0x0b1ec7)
        let keys = ["", "a", "b", "ab", "B", "é", "@id", "a\u{301}"]
        for _ in 0..<2000 {
            let members = (0..<random.next(9)).map { index in (key: keys[random.next(keys.count)], value: JSONValue.number(String(index))) }
            var last: [String: JSONValue] = [:]
            for member in members { last[member.key] = member.value }
            let expected = last.keys.sorted().map { "\(JSONWriter.quoted($0)):\(JSONWriter.text(last[$0]!, pretty: false))" }
            #expect(JSONWriter.text(.object(members), pretty: false) == "{" + expected.joined(separator: ",") + "}", "\(members)")
        }
    }

    /// An array written item by item is the same text as the whole document written at once, wherever its key sorts.
    @Test(arguments: [0, 1, 3])
    func aStreamedArrayIsTheTextOfTheWholeDocument(count: Int) {
        let items = (0..<count).map { index in
            JSONValue.object([("n", .number(String(index))), ("s", .string("<\(index)>")), ("l", .array([.null, .bool(true)]))])
        }
        for key in ["a", "m", "z"] {
            let others: [(key: String, value: JSONValue)] = [("k", .string("x")), ("b", .object([("q", .null)])), ("y", .array([]))]
            for pretty in [false, true] {
                let whole = JSONWriter.text(.object(others + [(key, .array(items))]), pretty: pretty, htmlSafe: false)
                let streamed = JSONWriter.text(others, streaming: key, count: count, pretty: pretty, htmlSafe: false) { items[$0] }
                #expect(streamed == whole, "key \(key), pretty \(pretty)")
            }
        }
    }
}
