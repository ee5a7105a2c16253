/// Typed reads of a node, each failing with a `config-type` diagnostic at the node.
///
/// Only plain (unquoted, untagged) scalars are typed: `8` is an integer, `"8"` is a string, as in
/// YAML. Every reader names the key in its message, e.g. "'concurrency' must be an integer, found
/// 'eight'".
extension YAMLNode {
    /// The spellings read as booleans: YAML 1.1's words, without its risky single letters `y`/`n`.
    public static let trueWords: Set<String> = ["true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"]
    public static let falseWords: Set<String> = ["false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"]

    /// The scalar's text, or nil for a sequence or mapping.
    public var scalarValue: String? {
        if case .scalar(let value, _) = kind { return value }
        return nil
    }

    /// Whether this is an unquoted, untagged scalar.
    public var isPlain: Bool {
        if case .scalar(_, let isPlain) = kind { return isPlain }
        return false
    }

    /// Whether this is YAML's null: an empty value, `~` or `null`, unquoted.
    public var isNull: Bool {
        guard case .scalar(let value, isPlain: true) = kind else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(value)
    }

    /// The mapping's pairs, or nil when this is not a mapping.
    public var pairs: [Pair]? {
        if case .mapping(let pairs) = kind { return pairs }
        return nil
    }

    /// The sequence's items, or nil when this is not a sequence.
    public var items: [YAMLNode]? {
        if case .sequence(let items) = kind { return items }
        return nil
    }

    /// The value of the last pair whose key is the plain text `key`.
    public subscript(key: String) -> YAMLNode? {
        pairs?.last { $0.key.scalarValue == key }?.value
    }

    /// Any scalar, quoted or not, as text: `title: 2024` is the title "2024".
    public func string(named name: String) throws(Diagnostic) -> String {
        guard let value = scalarValue, !isNull else { throw typeError(name, "must be a string") }
        return value
    }

    public func bool(named name: String) throws(Diagnostic) -> Bool {
        if isPlain, let value = scalarValue {
            if Self.trueWords.contains(value) { return true }
            if Self.falseWords.contains(value) { return false }
        }
        throw typeError(name, "must be true or false")
    }

    /// A decimal integer such as `8`, `-3` or `+10`.
    public func int(named name: String) throws(Diagnostic) -> Int {
        if isPlain, let value = scalarValue, value.wholeMatch(of: #/[-+]?[0-9]+/#) != nil {
            // An integer too big for `Int` is still an integer: out of range, as it is of every key's.
            guard let number = Int(value) else { throw valueError(name, "must be from \(Int.min) to \(Int.max)") }
            return number
        }
        throw typeError(name, "must be an integer")
    }

    /// A finite decimal number such as `10`, `2.5` or `1e3`.
    public func double(named name: String) throws(Diagnostic) -> Double {
        if isPlain, let value = scalarValue,
            value.wholeMatch(of: #/[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?/#) != nil,
            let number = Double(value), number.isFinite
        {
            return number
        }
        throw typeError(name, "must be a number")
    }

    /// A list of scalars; a single scalar is read as a one-item list (`tags: swift`), and null as
    /// an empty list. A comma-separated scalar stays one item.
    public func stringList(named name: String) throws(Diagnostic) -> [String] {
        if isNull { return [] }
        if let value = scalarValue { return [value] }
        guard let items else { throw typeError(name, "must be a list of strings") }
        var strings: [String] = []
        for (index, item) in items.enumerated() {
            guard let value = item.scalarValue, !item.isNull else {
                throw Diagnostic(
                    .wrongType(name: name, requirement: "must be a list of strings", found: "\(item.foundDescription) as item \(index + 1)"),
                    at: item.location)
            }
            strings.append(value)
        }
        return strings
    }

    /// A mapping of scalars to scalars (`senses: {crane: machine}`), in the order written; null is empty.
    public func stringMapping(named name: String) throws(Diagnostic) -> [(key: String, value: String)] {
        if isNull { return [] }
        guard let pairs else { throw typeError(name, "must be a mapping of words to words") }
        return try pairs.map { pair throws(Diagnostic) in
            guard let key = pair.key.scalarValue, let value = pair.value.scalarValue, !pair.value.isNull else {
                throw Diagnostic(
                    .wrongType(name: name, requirement: "must be a mapping of words to words", found: pair.value.foundDescription),
                    at: pair.value.location)
            }
            return (key, value)
        }
    }

    /// A date `YYYY-MM-DD` or an ISO 8601 date-time (`2024-03-01T09:30:00Z`, `2024-03-01 09:30`),
    /// validated (months, days, leap years) and returned as written.
    public func date(named name: String) throws(Diagnostic) -> String {
        if let value = scalarValue, Self.isValidDate(value) { return value }
        throw typeError(name, "must be a date like 2024-03-01 or 2024-03-01T09:30:00Z")
    }

    /// How a message shows this node: the scalar quoted, or what kind of thing it is.
    public var foundDescription: String {
        switch kind {
        case .scalar(let value, let isPlain):
            if isNull { return "an empty value" }
            let shown = Self.abbreviated(value)
            // Say "the string" when quotes (or a tag, or a block) stopped a number or boolean from being one.
            return isPlain ? "'\(shown)'" : "the string \"\(shown)\""
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        }
    }

    /// A `config-type` error at this node: "'<name>' <requirement>, found <what>".
    public func typeError(_ name: String, _ requirement: String) -> Diagnostic {
        Diagnostic(.wrongType(name: name, requirement: requirement, found: foundDescription), at: location)
    }

    /// A `config-value` error at this node, for a well-typed value out of range:
    /// "'<name>' <requirement>, found <what>".
    public func valueError(_ name: String, _ requirement: String) -> Diagnostic {
        Diagnostic(.outOfRange(name: name, requirement: requirement, found: foundDescription), at: location)
    }

    private static func abbreviated(_ value: String) -> String {
        let firstLine = value.prefix { !$0.isNewline }
        let limit = 40
        if firstLine.count > limit || firstLine.endIndex != value.endIndex {
            return String(firstLine.prefix(limit)) + "…"
        }
        return value
    }

    static func isValidDate(_ text: String) -> Bool {
        // Plain dates are nearly every date in front matter; Swift's Regex costs ~0.1 ms a call, so check them by hand.
        let bytes = Array(text.utf8)
        if bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") {
            func number(_ range: Range<Int>) -> Int? {
                var value = 0
                for byte in bytes[range] {
                    guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                    value = value * 10 + Int(byte - UInt8(ascii: "0"))
                }
                return value
            }
            guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return false }
            return isValidDay(year: year, month: month, day: day)
        }
        let pattern =
            #/(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:\s*(?:Z|z|[-+]\d{2}(?::?\d{2})?))?)?/#
        guard let match = text.wholeMatch(of: pattern),
            let year = Int(match.1), let month = Int(match.2), let day = Int(match.3)
        else { return false }
        guard isValidDay(year: year, month: month, day: day) else { return false }
        if let hour = match.4.flatMap({ Int($0) }), hour > 23 { return false }
        if let minute = match.5.flatMap({ Int($0) }), minute > 59 { return false }
        // 60 allows a leap second.
        if let second = match.6.flatMap({ Int($0) }), second > 60 { return false }
        return true
    }

    private static func isValidDay(year: Int, month: Int, day: Int) -> Bool {
        guard (1...12).contains(month), day >= 1 else { return false }
        let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let monthLengths = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= monthLengths[month - 1]
    }
}
