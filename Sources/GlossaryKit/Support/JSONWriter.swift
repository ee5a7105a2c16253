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

    /// `quoted(_:htmlSafe:)` appended to `out`, without a string of its own (exports write hundreds of thousands):
    /// runs that need no escape are copied whole.
    static func appendQuoted<Output: TextOutput & ~Copyable>(_ text: String, htmlSafe: Bool, to out: inout Output) {
        var text = text
        // Most strings need no escape: written whole.
        let plain = text.withUTF8 { bytes in
            !bytes.contains { byte in
                byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F || byte == 0xC2 || byte == 0xE2
                    || (htmlSafe && (byte == 0x3C || byte == 0x3E || byte == 0x26))
            }
        }
        guard !plain else {
            out.append("\"")
            out.append(text)
            out.append("\"")
            return
        }
        text.withUTF8 { bytes in
            out.append("\"")
            var run = 0
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                var width = 1
                let escape: String
                switch byte {
                case 0x22: escape = "\\\""
                case 0x5C: escape = "\\\\"
                case 0x0A: escape = "\\n"
                case 0x0D: escape = "\\r"
                case 0x09: escape = "\\t"
                case 0x3C where htmlSafe: escape = "\\u003c"
                case 0x3E where htmlSafe: escape = "\\u003e"
                case 0x26 where htmlSafe: escape = "\\u0026"
                // U+2028 and U+2029: E2 80 A8 and E2 80 A9.
                case 0xE2 where index + 2 < bytes.count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                    escape = bytes[index + 2] == 0xA8 ? "\\u2028" : "\\u2029"
                    width = 3
                case 0..<0x20, 0x7F:
                    let hex = String(byte, radix: 16)
                    escape = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                // The other characters HTML hides (C1 controls, bidirectional overrides) as escapes too: a page's
                // JSON-LD and the search documents carry the value, never the character.
                case 0xC2 where HTML.hiddenWidth(bytes, at: index) > 0, 0xE2 where HTML.hiddenWidth(bytes, at: index) > 0:
                    width = HTML.hiddenWidth(bytes, at: index)
                    // Two bytes 110xxxxx 10xxxxxx, or three 1110xxxx 10xxxxxx 10xxxxxx.
                    let value =
                        width == 2
                        ? UInt32(byte & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)
                        : UInt32(byte & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
                    let hex = String(value, radix: 16)
                    escape = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default:
                    index += 1
                    continue
                }
                out.append(UnsafeBufferPointer(rebasing: bytes[run..<index]))
                out.append(escape)
                index += width
                run = index
            }
            out.append(UnsafeBufferPointer(rebasing: bytes[run...]))
            out.append("\"")
        }
    }

    /// `value` as text: keys sorted; indented by two spaces per level when `pretty`; strings HTML-safe unless not
    /// `htmlSafe` (a file of its own reads better with `<` as it is).
    public static func text(_ value: JSONValue, pretty: Bool, htmlSafe: Bool = true) -> String {
        // Made as bytes, then one string: appending each piece to a string costs more than the writing.
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(value, pretty: pretty, htmlSafe: htmlSafe, indent: 0, into: &out)
        return String(decoding: out, as: UTF8.self)
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
        var out = GrowingBytes()
        write(object, streaming: key, count: count, pretty: pretty, htmlSafe: htmlSafe, terminator: terminator, into: &out, item: item)
        return out.data()
    }

    /// `data(_:streaming:count:pretty:htmlSafe:terminator:item:)` appended to `out` an item at a time (a file written
    /// as it is made: `StreamedFile`); `placed` is told where each item's bytes went (its position, and its first and
    /// end byte offsets in `out`).
    static func write<Output: TextOutput & ~Copyable>(
        _ object: [(key: String, value: JSONValue)], streaming key: String, count: Int, pretty: Bool, htmlSafe: Bool = true,
        terminator: String = "", into out: inout Output, placed: (Int, Int, Int) -> Void = { _, _, _ in }, item: (Int) -> JSONValue
    ) {
        let members = (object.filter { $0.key != key } + [(key: key, value: .null)]).sorted { $0.key < $1.key }
        out.append("{")
        for (index, member) in members.enumerated() {
            if index > 0 { out.append(",") }
            newline(pretty, 1, &out)
            appendQuoted(member.key, htmlSafe: htmlSafe, to: &out)
            out.append(pretty ? ": " : ":")
            guard member.key == key else {
                write(member.value, pretty: pretty, htmlSafe: htmlSafe, indent: 1, into: &out)
                continue
            }
            guard count > 0 else {
                out.append("[]")
                continue
            }
            out.append("[")
            for position in 0..<count {
                if position > 0 { out.append(",") }
                newline(pretty, 2, &out)
                let start = out.byteCount
                write(item(position), pretty: pretty, htmlSafe: htmlSafe, indent: 2, into: &out)
                placed(position, start, out.byteCount)
            }
            newline(pretty, 1, &out)
            out.append("]")
        }
        newline(pretty, 0, &out)
        out.append("}")
        out.append(terminator)
    }

    private static func write<Output: TextOutput & ~Copyable>(_ value: JSONValue, pretty: Bool, htmlSafe: Bool, indent: Int, into out: inout Output) {
        switch value {
        case .null: out.append("null")
        case .bool(let flag): out.append(flag ? "true" : "false")
        case .number(let text): out.append(text)
        case .string(let text): appendQuoted(text, htmlSafe: htmlSafe, to: &out)
        case .array(let items):
            guard !items.isEmpty else {
                out.append("[]")
                return
            }
            out.append("[")
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(",") }
                newline(pretty, indent + 1, &out)
                write(item, pretty: pretty, htmlSafe: htmlSafe, indent: indent + 1, into: &out)
            }
            newline(pretty, indent, &out)
            out.append("]")
        case .object(let members):
            let ordered: [(key: String, value: JSONValue)]
            if zip(members, members.dropFirst()).allSatisfy({ $0.key < $1.key }) {
                // Keys already sorted and distinct (as the exports build them): no dictionary, no sort.
                ordered = members
            } else {
                // Sorted by key, stably; a repeated key keeps its last value, as reading does.
                let sorted = members.indices.sorted { (members[$0].key, $0) < (members[$1].key, $1) }
                ordered = sorted.indices.compactMap { place in
                    place + 1 < sorted.count && members[sorted[place + 1]].key == members[sorted[place]].key ? nil : members[sorted[place]]
                }
            }
            guard !ordered.isEmpty else {
                out.append("{}")
                return
            }
            out.append("{")
            for (index, member) in ordered.enumerated() {
                if index > 0 { out.append(",") }
                newline(pretty, indent + 1, &out)
                appendQuoted(member.key, htmlSafe: htmlSafe, to: &out)
                out.append(pretty ? ": " : ":")
                write(member.value, pretty: pretty, htmlSafe: htmlSafe, indent: indent + 1, into: &out)
            }
            newline(pretty, indent, &out)
            out.append("}")
        }
    }

    private static func newline<Output: TextOutput & ~Copyable>(_ pretty: Bool, _ indent: Int, _ out: inout Output) {
        guard pretty else { return }
        out.append("\n")
        for _ in 0..<indent { out.append("  ") }
    }
}

/// Where written text goes: a string, or bytes that become a file's `Data` (`GrowingBytes`).
protocol TextOutput: ~Copyable {
    /// How many bytes were appended so far.
    var byteCount: Int { get }
    mutating func append(_ text: String)
    /// Valid UTF-8.
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>)
}

extension String: TextOutput {
    var byteCount: Int { utf8.count }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        self += String(decoding: bytes, as: UTF8.self)
    }
}

extension GrowingBytes: TextOutput {
    var byteCount: Int { count }
}

extension [UInt8]: TextOutput {
    var byteCount: Int { count }

    mutating func append(_ text: String) {
        self += text.utf8
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        append(contentsOf: bytes)
    }
}
