import Foundation

/// A value a template can read.
public enum MustacheValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([MustacheValue])
    case object(MustacheObject)
    /// The value at this place in the list a render is given (`MustacheTemplate.renderData(_:partials:slots:)`):
    /// what it writes there is noted (`MustacheSlots`), so the render can be made again with other values.
    case slot(Int)
}

extension MustacheValue {
    /// The member `key` of an object (nil for anything else), looked up in place.
    func member(_ key: MustacheKey) -> MustacheValue? {
        guard case .object(let object) = self else { return nil }
        return object.value(key)
    }

    /// Whether a section shows its content: `null`, `false`, the empty list and the empty string are falsey;
    /// numbers, including zero, are truthy.
    var isTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let value): value
        case .array(let items): !items.isEmpty
        case .string(let text): !text.isEmpty
        case .int, .double, .object: true
        // Told by the render, which has the slots' values.
        case .slot: true
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
        case let object as [String: Any]: self = .object(MustacheObject(object.mapValues(MustacheValue.init(json:))))
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
        self = .object(MustacheObject(elements))
    }
}

/// A template object's members, in the order they were first set (a later value for a key replaces the earlier).
///
/// Rendering looks names up in objects all the time — every tag, at every level of the context stack — and the
/// objects are small (a page's context has about twenty members), so they are kept in one array with each key's
/// `MustacheKey.hash`, and a template's names carry theirs, worked out once when it is parsed: a lookup compares
/// numbers, then the one key that matches, instead of hashing the name again at each level. An object of many
/// members (from JSON) also gets a table by key.
public struct MustacheObject: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    fileprivate struct Member: Sendable {
        var key: MustacheKey
        var value: MustacheValue
    }

    fileprivate private(set) var members: [Member] = []
    /// Each key's place in `members`, once there are more than `tableFrom`.
    private var places: [String: Int]?
    private static let tableFrom = 32
    /// The members' fingerprint, when `sealed()` worked it out: an object put into many contexts (the theme's strings,
    /// in every page's) then adds one value to each context's fingerprint, not one per member. Setting a member drops it.
    fileprivate private(set) var digest: Fingerprint?

    public init() {}

    public init(dictionaryLiteral elements: (String, MustacheValue)...) {
        self.init(elements)
    }

    public init(_ elements: some Sequence<(String, MustacheValue)>) {
        members.reserveCapacity(elements.underestimatedCount)
        for (key, value) in elements { self[key] = value }
    }

    public init(_ dictionary: [String: MustacheValue]) {
        self.init(dictionary.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    public var count: Int { members.count }

    /// The keys and values, in order.
    public var elements: [(key: String, value: MustacheValue)] { members.map { ($0.key.text, $0.value) } }

    public subscript(key: String) -> MustacheValue? {
        get { place(of: MustacheKey(key)).map { members[$0].value } }
        set {
            digest = nil
            let key = MustacheKey(key)
            switch (place(of: key), newValue) {
            case (let place?, let value?): members[place].value = value
            case (let place?, nil):
                members.remove(at: place)
                places = nil
                if members.count > Self.tableFrom { makeTable() }
            case (nil, let value?):
                members.append(Member(key: key, value: value))
                if places != nil {
                    places?[key.text] = members.count - 1
                } else if members.count > Self.tableFrom {
                    makeTable()
                }
            case (nil, nil): break
            }
        }
    }

    /// The same object with its fingerprint worked out once, for every context it goes into.
    func sealed() -> MustacheObject {
        var sealed = self
        var hasher = FingerprintHasher()
        fingerprint(into: &hasher)
        sealed.digest = hasher.finish()
        return sealed
    }

    /// The value of a name's part, by its hash first.
    func value(_ key: MustacheKey) -> MustacheValue? {
        if places != nil { return place(of: key).map { members[$0].value } }
        // Every tag looks names up here: the members are compared in place, through their buffer (an array's subscript
        // copies a whole member, value and all, to read its key), and only the value found is copied.
        return members.withUnsafeBufferPointer { members in
            for index in members.indices where members[index].key.hash == key.hash && members[index].key.text == key.text {
                return members[index].value
            }
            return nil
        }
    }

    private func place(of key: MustacheKey) -> Int? {
        if let places { return places[key.text] }
        return members.firstIndex { $0.key.hash == key.hash && $0.key.text == key.text }
    }

    private mutating func makeTable() {
        places = Dictionary(members.enumerated().map { ($1.key.text, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The same members, whatever their order.
    public static func == (lhs: MustacheObject, rhs: MustacheObject) -> Bool {
        lhs.count == rhs.count && lhs.members.allSatisfy { rhs.value($0.key) == $0.value }
    }
}

/// A member's name with a hash of its bytes (FNV-1a), the same in every process: made once for each name in a
/// template, and for each key set in an object.
public struct MustacheKey: Sendable, Hashable {
    public let text: String
    let hash: UInt64

    public init(_ text: String) {
        self.text = text
        var copy = text
        // Over the bytes in place, not byte by byte through the string's view.
        self.hash = copy.withUTF8 { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            return hash
        }
    }
}

extension MustacheValue {
    /// Feeds every part of the value to `hasher`, each tagged with its kind: values a template could render otherwise
    /// hash otherwise (but by chance). An object's members go in the order they were set.
    func fingerprint(into hasher: inout FingerprintHasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value ? 2 : 1)
        case .int(let value):
            hasher.combine(3)
            hasher.combine(value)
        case .double(let value):
            hasher.combine(4)
            hasher.combine(Int(bitPattern: UInt(value.bitPattern)))
        case .string(let text):
            hasher.combine(5)
            hasher.combine(text)
        case .array(let items):
            hasher.combine(6)
            hasher.combineCount(items.count)
            for index in items.indices { items[index].fingerprint(into: &hasher) }
        case .object(let object):
            // A sealed object by its members' fingerprint, under a tag of its own.
            if let digest = object.digest {
                hasher.combine(9)
                hasher.combine(digest)
            } else {
                hasher.combine(7)
                object.fingerprint(into: &hasher)
            }
        case .slot(let index):
            hasher.combine(8)
            hasher.combine(index)
        }
    }
}

extension MustacheObject {
    func fingerprint(into hasher: inout FingerprintHasher) {
        hasher.combineCount(members.count)
        // By index: the subscript lends each member in place, an iterator would copy it.
        for index in members.indices {
            hasher.combine(Int(bitPattern: UInt(members[index].key.hash)))
            members[index].value.fingerprint(into: &hasher)
        }
    }
}
