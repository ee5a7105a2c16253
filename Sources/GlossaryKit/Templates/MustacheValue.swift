import Foundation

/// A value a template can read.
public enum MustacheValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([MustacheValue])
    case object([String: MustacheValue])
}

extension MustacheValue {
    /// Whether a section shows its content: `null`, `false`, the empty list and the empty string are falsey;
    /// numbers, including zero, are truthy.
    var isTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let value): value
        case .array(let items): !items.isEmpty
        case .string(let text): !text.isEmpty
        case .int, .double, .object: true
        }
    }

    /// Converts `JSONSerialization` output, or plain Swift values, into a template value.
    ///
    /// Anything that is not JSON-like (dates, URLs, …) becomes `.null`.
    public init(json: Any) {
        switch json {
        case let value as MustacheValue: self = value
        case is NSNull: self = .null
        case let text as String: self = .string(text)
        case let number as NSNumber: self = MustacheValue(number: number)
        case let items as [Any]: self = .array(items.map(MustacheValue.init(json:)))
        case let object as [String: Any]: self = .object(object.mapValues(MustacheValue.init(json:)))
        default: self = .null
        }
    }

    /// Tells booleans from numbers by class, since `as? Bool` also accepts the numbers 0 and 1 and on Linux
    /// `kCFBooleanTrue` is unavailable; `JSONSerialization` and Swift's `Bool` bridging share this class.
    private init(number: NSNumber) {
        if type(of: number) == type(of: NSNumber(value: true)) {
            self = .bool(number.boolValue)
            return
        }
        switch UInt8(bitPattern: number.objCType.pointee) {
        case UInt8(ascii: "d"), UInt8(ascii: "f"):
            self = .double(number.doubleValue)
        case UInt8(ascii: "Q") where number.uint64Value > UInt64(Int.max):
            self = .double(number.doubleValue)
        default:
            self = .int(number.intValue)
        }
    }
}

extension MustacheValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension MustacheValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension MustacheValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) { self = .int(value) }
}

extension MustacheValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension MustacheValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: MustacheValue...) { self = .array(elements) }
}

extension MustacheValue: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, MustacheValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
