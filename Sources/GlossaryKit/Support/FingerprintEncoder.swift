import Foundation

extension Fingerprint {
    /// The fingerprint of everything `value` encodes, in order, each part tagged with its kind and key: a value an
    /// output is made from hashes whole, whatever fields its type gains, since `Encodable` lists them all.
    static func of(_ value: some Encodable, into hasher: inout FingerprintHasher) {
        let encoder = FingerprintEncoder(hasher: hasher)
        try? value.encode(to: encoder)
        hasher = encoder.box.hasher
    }
}

/// An `Encoder` that feeds what it is given to a `FingerprintHasher`. Keys go in before their values and containers
/// are marked where they open and close, so differently shaped values hash differently.
private struct FingerprintEncoder: Encoder {
    final class Box {
        var hasher: FingerprintHasher
        init(_ hasher: FingerprintHasher) { self.hasher = hasher }
    }

    let box: Box
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]

    init(hasher: FingerprintHasher) { box = Box(hasher) }
    private init(box: Box) { self.box = box }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        box.hasher.combine(0x4B)
        return KeyedEncodingContainer(Keyed<Key>(box: box))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        box.hasher.combine(0x55)
        return Unkeyed(box: box)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single(box: box) }

    /// Every kind of value as the hasher takes it.
    fileprivate static func combine(_ value: some Encodable, into box: Box) {
        switch value {
        case let text as String: box.hasher.combine(text)
        case let data as Data: data.withUnsafeBytes { box.hasher.combine(buffer: $0) }
        case let bytes as [UInt8]: bytes.withUnsafeBytes { box.hasher.combine(buffer: $0) }
        case let words as [UInt32]: words.withUnsafeBytes { box.hasher.combine(buffer: $0) }
        case let flag as Bool: box.hasher.combine(flag)
        case let number as Int: box.hasher.combine(number)
        case let number as Double: box.hasher.combine(Int(bitPattern: UInt(number.bitPattern)))
        default:
            box.hasher.combine(0x28)
            try? value.encode(to: FingerprintEncoder(box: box))
            box.hasher.combine(0x29)
        }
    }

    private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let box: Box
        var codingPath: [any CodingKey] = []

        mutating func encodeNil(forKey key: Key) {
            box.hasher.combine(key.stringValue)
            box.hasher.combine(0x4E)
        }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) {
            box.hasher.combine(key.stringValue)
            FingerprintEncoder.combine(value, into: box)
        }

        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) {
            guard let value else { return encodeNil(forKey: key) }
            encode(value, forKey: key)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            box.hasher.combine(key.stringValue)
            return FingerprintEncoder(box: box).container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            box.hasher.combine(key.stringValue)
            return FingerprintEncoder(box: box).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder { FingerprintEncoder(box: box) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { FingerprintEncoder(box: box) }
    }

    private struct Unkeyed: UnkeyedEncodingContainer {
        let box: Box
        var codingPath: [any CodingKey] = []
        var count = 0

        mutating func encodeNil() {
            count += 1
            box.hasher.combine(0x4E)
        }

        mutating func encode<T: Encodable>(_ value: T) {
            count += 1
            FingerprintEncoder.combine(value, into: box)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            count += 1
            return FingerprintEncoder(box: box).container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            count += 1
            return FingerprintEncoder(box: box).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder { FingerprintEncoder(box: box) }
    }

    private struct Single: SingleValueEncodingContainer {
        let box: Box
        var codingPath: [any CodingKey] = []

        mutating func encodeNil() { box.hasher.combine(0x4E) }
        mutating func encode<T: Encodable>(_ value: T) { FingerprintEncoder.combine(value, into: box) }
    }
}
