/// A strict RFC 8259 parser over UTF-8 bytes: no trailing commas, comments, leading zeros or bare control
/// characters; nesting is bounded so hostile input can't exhaust the stack.
public struct JSONParser {
    /// Why bytes are not JSON, and where.
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public var message: String
        /// Byte offset where the problem was found.
        public var offset: Int

        public var description: String { "\(message) at byte \(offset)" }
    }

    public static let maximumDepth = 512

    public static func parse(_ bytes: some Collection<UInt8>) throws(Failure) -> JSONValue {
        let array = Array(bytes)
        return try array.withUnsafeBufferPointer { (buffer) throws(Failure) -> JSONValue in
            var parser = JSONParser(buffer)
            parser.skipWhitespace()
            let value = try parser.value(depth: 0)
            parser.skipWhitespace()
            guard parser.index == buffer.count else { throw parser.failure("unexpected text after the JSON value") }
            return value
        }
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private func failure(_ message: String) -> Failure { Failure(message: message, offset: index) }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private mutating func value(depth: Int) throws(Failure) -> JSONValue {
        guard depth <= Self.maximumDepth else { throw failure("nested more than \(Self.maximumDepth) levels deep") }
        guard index < bytes.count else { throw failure("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw failure("unexpected character")
        }
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) throws(Failure) -> JSONValue {
        let length = word.utf8CodeUnitCount
        guard index + length <= bytes.count else { throw failure("unexpected end of input") }
        for offset in 0..<length where bytes[index + offset] != word.utf8Start[offset] {
            throw failure("unexpected character")
        }
        index += length
        return value
    }

    private mutating func object(depth: Int) throws(Failure) -> JSONValue {
        index += 1
        var members: [(key: String, value: JSONValue)] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("expected a string key") }
            let key = try string()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("expected ':'") }
            index += 1
            skipWhitespace()
            members.append((key, try value(depth: depth + 1)))
            skipWhitespace()
            guard index < bytes.count else { throw failure("unexpected end of input") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "}") else { throw failure("expected ',' or '}'") }
            index += 1
            return .object(members)
        }
    }

    private mutating func array(depth: Int) throws(Failure) -> JSONValue {
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try value(depth: depth + 1))
            skipWhitespace()
            guard index < bytes.count else { throw failure("unexpected end of input") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "]") else { throw failure("expected ',' or ']'") }
            index += 1
            return .array(items)
        }
    }

    private mutating func number() throws(Failure) -> JSONValue {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func digits() -> Int {
            let first = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - first
        }
        guard index < bytes.count else { throw failure("unexpected end of input") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if digits() == 0 {
            throw failure("expected a digit")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw failure("expected a digit after '.'") }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw failure("expected a digit in the exponent") }
        }
        return .number(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
    }

    private mutating func string() throws(Failure) -> String {
        index += 1
        let start = index
        // Fast path: no escapes, then the bytes are the string (validated as UTF-8 once).
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                guard let text = String(validating: slice, as: UTF8.self) else { throw Failure(message: "invalid UTF-8 in a string", offset: start) }
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw failure("control character in a string") }
            index += 1
        }
        var scalars: [UInt8] = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let text = String(validating: scalars, as: UTF8.self) else { throw Failure(message: "invalid UTF-8 in a string", offset: start) }
                return text
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw failure("unexpected end of input") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append(0x22)
                case UInt8(ascii: "\\"): scalars.append(0x5C)
                case UInt8(ascii: "/"): scalars.append(0x2F)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800...0xDBFF).contains(code) {
                        // A high surrogate must be followed by a low one; a lone one reads as U+FFFD.
                        if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                            index += 2
                            let low = try hex4()
                            if (0xDC00...0xDFFF).contains(low) {
                                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                            } else {
                                appendScalar(0xFFFD, to: &scalars)
                                code = low
                            }
                        } else {
                            code = 0xFFFD
                        }
                    }
                    if (0xD800...0xDFFF).contains(code) { code = 0xFFFD }
                    appendScalar(code, to: &scalars)
                default:
                    throw failure("invalid escape")
                }
            default:
                if byte < 0x20 { throw failure("control character in a string") }
                scalars.append(byte)
                index += 1
            }
        }
        throw failure("unterminated string")
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw failure("invalid \\u escape") }
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private func appendScalar(_ code: UInt32, to bytes: inout [UInt8]) {
        let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
        bytes.append(contentsOf: UTF8.encode(scalar)!)
    }
}
