/// A JSON document as values, parsed from bytes in one pass (`JSONParser`), and written back canonically.
///
/// Numbers keep their text as written, so a document read and written again is unchanged. Objects keep
/// their members in order; a repeated key reads as its last value.
public indirect enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    /// The number's text as written (`3`, `-1.5e3`).
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .number(let text): hasher.combine(text)
        case .string(let text): hasher.combine(text)
        case .array(let items): hasher.combine(items)
        case .object(let members):
            for member in members {
                hasher.combine(member.key)
                hasher.combine(member.value)
            }
        }
    }

    // MARK: Reading values

    /// The member `key` of an object (the last one, if repeated); nil for anything else.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.key == key }?.value
    }

    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    public var isObject: Bool {
        if case .object = self { return true }
        return false
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// An integer number's value (`200`, not `200.5` or `"200"`).
    public var intValue: Int? {
        if case .number(let text) = self { return Int(text) }
        return nil
    }

    /// The same value with every object's members in key order, a repeated key keeping its last value: two
    /// documents that differ only in member order have equal canonical forms.
    public var canonical: JSONValue { canonicalized() ?? self }

    /// Whether `canonical` is the value itself.
    var isCanonical: Bool { canonicalized() == nil }

    /// `canonical`, or nil when that is the value itself (as the cache writes bodies): a canonical document is walked
    /// once and not copied.
    private func canonicalized() -> JSONValue? {
        switch self {
        case .array(var items):
            var changed = false
            for index in items.indices {
                if let value = items[index].canonicalized() {
                    items[index] = value
                    changed = true
                }
            }
            return changed ? .array(items) : nil
        case .object(var members):
            var changed = false
            for index in members.indices {
                if let value = members[index].value.canonicalized() {
                    members[index].value = value
                    changed = true
                }
            }
            // Keys in increasing order are sorted, and none is repeated.
            if zip(members, members.dropFirst()).allSatisfy({ $0.key < $1.key }) { return changed ? .object(members) : nil }
            var byKey: [String: JSONValue] = [:]
            for member in members { byKey[member.key] = member.value }
            return .object(byKey.keys.sorted().map { ($0, byKey[$0]!) })
        default: return nil
        }
    }

    /// Feeds the value's structure to a fingerprint (member order as written: equal documents as parsed).
    public func fingerprint(into hasher: inout FingerprintHasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value ? 2 : 1)
        case .number(let text):
            hasher.combine(3)
            hasher.combine(text)
        case .string(let text):
            hasher.combine(4)
            hasher.combine(text)
        case .array(let items):
            hasher.combine(5)
            hasher.combineCount(items.count)
            for item in items { item.fingerprint(into: &hasher) }
        case .object(let members):
            hasher.combine(6)
            hasher.combineCount(members.count)
            for member in members {
                hasher.combine(member.key)
                member.value.fingerprint(into: &hasher)
            }
        }
    }
}
