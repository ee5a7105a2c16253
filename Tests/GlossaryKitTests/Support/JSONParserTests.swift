import Foundation
import TestSupport
import Testing

@testable import GlossaryKit

/// The strict JSON parser the cache and the API client read with, and the canonical writer.
@Suite struct JSONParserTests {
    static func parse(_ text: String) throws(JSONParser.Failure) -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

    @Test func readsEveryKindOfValue() throws {
        let value = try Self.parse(#" {"a": [1, -2.5e3, true, false, null], "b": {"c": "d\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"}} "#)
        #expect(value["a"] == .array([.number("1"), .number("-2.5e3"), .bool(true), .bool(false), .null]))
        #expect(value["b"]?["c"] == .string("d\"\\/\u{8}\u{c}\n\r\té😀"))
    }

    @Test(arguments: [
        ("", "unexpected end of input at byte 0"), ("[1,]", "unexpected character at byte 3"), ("{\"a\" 1}", "expected ':' at byte 5"),
        ("01", "unexpected text after the JSON value at byte 1"), ("[1] x", "unexpected text after the JSON value at byte 4"),
        ("\"a\nb\"", "control character in a string at byte 2"), ("\"\\x\"", "invalid escape at byte 3"), ("tru", "unexpected end of input at byte 0"),
        ("1.", "expected a digit after '.' at byte 2"), ("-", "unexpected end of input at byte 1"), ("{\"a\":1,}", "expected a string key at byte 7"),
        ("\"\\u12\"", "invalid \\u escape at byte 5"), ("[\"abc", "unterminated string at byte 5"),
    ])
    func refusesWhatIsNotJSON(text: String, message: String) {
        #expect(throws: JSONParser.Failure.self) { try Self.parse(text) }
        do {
            _ = try Self.parse(text)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func invalidUTF8AndLoneSurrogates() throws {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse([0x22, 0xFF, 0x22]) }
        #expect(try Self.parse(#""\ud800x""#) == .string("\u{FFFD}x"))
        #expect(try Self.parse(#""\udc00""#) == .string("\u{FFFD}"))
    }

    @Test func nestingIsBounded() throws {
        let deep = String(repeating: "[", count: JSONParser.maximumDepth + 2) + String(repeating: "]", count: JSONParser.maximumDepth + 2)
        #expect(throws: JSONParser.Failure.self) { try Self.parse(deep) }
        let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(try Self.parse(fine).arrayValue?.count == 1)
    }

    @Test func agreesWithJSONSerializationOnTheFixtures() throws {
        for name in ["banana", "hello", "keyboard", "charlie", "not-found"] {
            let data = try #require(FileManager.default.contents(atPath: "\(Self.fixtures)/\(name).json"))
            let ours = JSONWriter.text(try JSONParser.parse(data), pretty: false)
            let theirs = try JSONSerialization.jsonObject(with: Data(ours.utf8))
            let reference = try JSONSerialization.jsonObject(with: data)
            #expect(NSDictionary(dictionary: ["v": theirs]).isEqual(to: ["v": reference]), "\(name)")
        }
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/fixtures/dictionaryapi").path

    @Test func writesCanonicallyWithSortedKeys() throws {
        let value = try Self.parse(#"{"b": [], "a": {"y": 1, "x": "<&>"}, "c": {}}"#)
        #expect(JSONWriter.text(value, pretty: false) == #"{"a":{"x":"\u003c\u0026\u003e","y":1},"b":[],"c":{}}"#)
        #expect(
            JSONWriter.text(value, pretty: true) == "{\n  \"a\": {\n    \"x\": \"\\u003c\\u0026\\u003e\",\n    \"y\": 1\n  },\n  \"b\": [],\n  \"c\": {}\n}")
        #expect(try Self.parse(JSONWriter.text(value, pretty: true)) == (try Self.parse(JSONWriter.text(value, pretty: false))))
    }

    /// The canonical form as its definition makes it: members in key order, a repeated key keeping its last value.
    static func sortedAndDeduplicated(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let items): return .array(items.map(sortedAndDeduplicated))
        case .object(let members):
            var byKey: [String: JSONValue] = [:]
            for member in members { byKey[member.key] = member.value }
            return .object(byKey.keys.sorted().map { ($0, sortedAndDeduplicated(byKey[$0]!)) })
        default: return value
        }
    }

    /// Random documents, sorted or not at each level, with repeated keys and keys equal only as Unicode says (`é`
    /// written whole and as `e` with a combining accent), against the definition; and documents already canonical
    /// (as the cache writes them) come back as they are.
    @Test func theCanonicalFormSortsKeysAndKeepsTheLastOfEachAtEveryDepth() throws {
        let seed: UInt64 = 20_261_207
        print("JSONParserTests seed \(seed)")
        var random = SeededRandom(seed: seed)
        let keys = ["a", "b", "word", "meanings", "é", "e\u{301}", "z", "ä", "A", ""]
        func document(depth: Int) -> JSONValue {
            switch depth == 0 ? random.next(3) : random.next(6) {
            case 0: return .string(keys[random.next(keys.count)])
            case 1: return .number(String(random.next(100)))
            case 2: return .null
            case 3: return .array((0..<random.next(4)).map { _ in document(depth: depth - 1) })
            default:
                var members = (0..<random.next(5)).map { _ in (key: keys[random.next(keys.count)], value: document(depth: depth - 1)) }
                if random.next(2) == 0 { members.sort { $0.key < $1.key } }
                return .object(members)
            }
        }
        var unchanged = 0
        for _ in 0..<2_000 {
            let value = document(depth: 4)
            let expected = Self.sortedAndDeduplicated(value)
            #expect(value.canonical == expected, "\(JSONWriter.text(value, pretty: false))")
            #expect(expected.isCanonical && expected.canonical == expected)
            if value == expected { unchanged += 1 }
        }
        // Both kinds were drawn.
        #expect(unchanged > 100 && unchanged < 1_900, "\(unchanged) of 2,000 already canonical")
        let repeated = JSONValue.object([("b", .number("1")), ("a", .null), ("b", .number("2"))])
        #expect(!repeated.isCanonical && repeated.canonical == .object([("a", .null), ("b", .number("2"))]))
        let equivalent = JSONValue.object([("e\u{301}", .number("1")), ("é", .number("2"))])
        #expect(!equivalent.isCanonical)
        guard case .object(let members) = equivalent.canonical else {
            Issue.record("not an object")
            return
        }
        #expect(members.count == 1 && members.first?.value == .number("2"), "\(members)")
    }
}
