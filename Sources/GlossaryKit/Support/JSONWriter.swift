import Foundation

/// Writes JSON text: string literals safe inside HTML, and whole values compact or indented with sorted keys
/// (the canonical form the cache stores, so writing an entry again changes no byte).
public enum JSONWriter {
    /// `text` as a JSON string literal; `<`, `>` and `&` are escaped too (unless not `htmlSafe`), so the JSON is
    /// safe inside HTML.
    public static func quoted(_ text: String, htmlSafe: Bool = true) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count + 2)
        appendQuoted(text, htmlSafe: htmlSafe, to: &out)
        return out
    }

    /// `quoted(_:htmlSafe:)` appended to `out`, without a string of its own (exports write hundreds of thousands).
    static func appendQuoted(_ text: String, htmlSafe: Bool, to out: inout String) {
        // Most strings need no escape: copied whole (exports and terms/index.json quote every term and page).
        var before: (UInt8, UInt8) = (0, 0)
        var plain = true
        for byte in text.utf8 {
            switch byte {
            case 0..<0x20, 0x22, 0x5C: plain = false
            case 0x3C where htmlSafe, 0x3E where htmlSafe, 0x26 where htmlSafe: plain = false
            // U+2028 and U+2029: E2 80 A8 and E2 80 A9.
            case 0xA8 where before == (0xE2, 0x80), 0xA9 where before == (0xE2, 0x80): plain = false
            default: break
            }
            if !plain { break }
            before = (before.1, byte)
        }
        out += "\""
        if plain {
            out += text
            out += "\""
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "<" where htmlSafe: out += "\\u003c"
            case ">" where htmlSafe: out += "\\u003e"
            case "&" where htmlSafe: out += "\\u0026"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    /// `value` as text: keys sorted; indented by two spaces per level when `pretty`; strings HTML-safe unless not
    /// `htmlSafe` (a file of its own reads better with `<` as it is).
    public static func text(_ value: JSONValue, pretty: Bool, htmlSafe: Bool = true) -> String {
        var out = ""
        write(value, pretty: pretty, htmlSafe: htmlSafe, indent: 0, into: &out)
        return out
    }

    /// `text(_:pretty:htmlSafe:)` of an object whose member `key` is an array of `count` items, each made by `item`
    /// only when it is written (`object` holds the other members): a document of megabytes is never in memory as
    /// values and text at once.
    public static func text(
        _ object: [(key: String, value: JSONValue)], streaming key: String, count: Int, pretty: Bool, htmlSafe: Bool = true,
        item: (Int) -> JSONValue
    ) -> String {
        String(decoding: data(object, streaming: key, count: count, pretty: pretty, htmlSafe: htmlSafe, item: item), as: UTF8.self)
    }

    /// `text(_:streaming:count:pretty:htmlSafe:item:)` and then `terminator`, as UTF-8 bytes made an item at a time
    /// into one block that becomes the `Data` (the text is never in memory twice).
    static func data(
        _ object: [(key: String, value: JSONValue)], streaming key: String, count: Int, pretty: Bool, htmlSafe: Bool = true,
        terminator: String = "", item: (Int) -> JSONValue
    ) -> Data {
        let members = (object.filter { $0.key != key } + [(key: key, value: .null)]).sorted { $0.key < $1.key }
        var bytes = GrowingBytes()
        var out = ""
        out += "{"
        for (index, member) in members.enumerated() {
            if index > 0 { out += "," }
            newline(pretty, 1, &out)
            appendQuoted(member.key, htmlSafe: htmlSafe, to: &out)
            out += pretty ? ": " : ":"
            guard member.key == key else {
                write(member.value, pretty: pretty, htmlSafe: htmlSafe, indent: 1, into: &out)
                continue
            }
            guard count > 0 else {
                out += "[]"
                continue
            }
            out += "["
            for position in 0..<count {
                if position > 0 { out += "," }
                newline(pretty, 2, &out)
                write(item(position), pretty: pretty, htmlSafe: htmlSafe, indent: 2, into: &out)
                bytes.append(out)
                out.removeAll(keepingCapacity: true)
            }
            newline(pretty, 1, &out)
            out += "]"
        }
        newline(pretty, 0, &out)
        out += "}" + terminator
        bytes.append(out)
        return bytes.data()
    }

    private static func write(_ value: JSONValue, pretty: Bool, htmlSafe: Bool, indent: Int, into out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .number(let text): out += text
        case .string(let text): appendQuoted(text, htmlSafe: htmlSafe, to: &out)
        case .array(let items):
            guard !items.isEmpty else {
                out += "[]"
                return
            }
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                newline(pretty, indent + 1, &out)
                write(item, pretty: pretty, htmlSafe: htmlSafe, indent: indent + 1, into: &out)
            }
            newline(pretty, indent, &out)
            out += "]"
        case .object(let members):
            let ordered: [(key: String, value: JSONValue)]
            if zip(members, members.dropFirst()).allSatisfy({ $0.key < $1.key }) {
                // Keys already sorted and distinct (as the exports build them): no dictionary, no sort.
                ordered = members
            } else {
                // A repeated key keeps its last value, as reading does.
                var byKey: [String: JSONValue] = [:]
                for member in members { byKey[member.key] = member.value }
                ordered = byKey.keys.sorted().map { ($0, byKey[$0]!) }
            }
            guard !ordered.isEmpty else {
                out += "{}"
                return
            }
            out += "{"
            for (index, member) in ordered.enumerated() {
                if index > 0 { out += "," }
                newline(pretty, indent + 1, &out)
                appendQuoted(member.key, htmlSafe: htmlSafe, to: &out)
                out += pretty ? ": " : ":"
                write(member.value, pretty: pretty, htmlSafe: htmlSafe, indent: indent + 1, into: &out)
            }
            newline(pretty, indent, &out)
            out += "}"
        }
    }

    private static func newline(_ pretty: Bool, _ indent: Int, _ out: inout String) {
        guard pretty else { return }
        out += "\n"
        for _ in 0..<indent { out += "  " }
    }
}
