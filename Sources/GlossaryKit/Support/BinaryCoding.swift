import Foundation

/// A compact binary encoding for the build's state file (`StateFile`): variable-length integers and length-prefixed
/// UTF-8, written and read in one pass (the state is read by every build, one with nothing to do too).
public struct BinaryWriter: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 1 << 16) {
        bytes.reserveCapacity(capacity)
    }

    public mutating func write(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    public mutating func write(_ value: Int) {
        // Zig-zag, so small negative numbers stay small.
        let signed = Int64(value)
        write(UInt64(bitPattern: (signed << 1) ^ (signed >> 63)))
    }

    public mutating func write(_ value: Bool) { bytes.append(value ? 1 : 0) }

    public mutating func write(_ text: String) {
        var copy = text
        copy.withUTF8 { write(bytes: $0) }
    }

    /// Length-prefixed bytes, as `write(_ text:)` writes a string's UTF-8.
    public mutating func write(bytes: UnsafeBufferPointer<UInt8>) {
        write(UInt64(bytes.count))
        self.bytes.append(contentsOf: bytes)
    }

    public mutating func write(_ text: String?) {
        write(text != nil)
        if let text { write(text) }
    }

    public mutating func write(_ fingerprint: Fingerprint) {
        write(fingerprint.high)
        write(fingerprint.low)
    }

    public mutating func write(_ strings: [String]) {
        write(UInt64(strings.count))
        for string in strings { write(string) }
    }

    public mutating func write(raw: [UInt8]) { bytes.append(contentsOf: raw) }

    public mutating func write(raw: ArraySlice<UInt8>) { bytes.append(contentsOf: raw) }

    public mutating func write(raw: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: raw) }

    /// The bytes written so far.
    public func withBytes<T>(_ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        try bytes.withUnsafeBytes(body)
    }

    /// Forgets the bytes written, keeping the room they took (a writer whose bytes went to a file).
    public mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    /// The bytes written, handed over without a copy (the writer is used up).
    public consuming func take() -> [UInt8] { bytes }
}

/// Reads what `BinaryWriter` wrote; every read checks the bounds and throws on truncated or damaged input,
/// so a bad manifest is noticed (and the build starts over) rather than misread.
public struct BinaryReader {
    public struct Damaged: Error, Sendable {}

    private let bytes: [UInt8]
    public private(set) var offset: Int
    /// Where the bytes read end (the array's end, or a part's).
    private let end: Int

    public init(_ bytes: [UInt8]) {
        self.init(bytes, range: 0..<bytes.count)
    }

    /// A reader of `range` of `bytes` (offsets stay the array's).
    public init(_ bytes: [UInt8], range: Range<Int>) {
        self.bytes = bytes
        offset = range.lowerBound
        end = range.upperBound
    }

    public var isAtEnd: Bool { offset == end }

    public mutating func uint() throws(Damaged) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < end, shift < 64 else { throw Damaged() }
            let byte = bytes[offset]
            offset += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
    }

    public mutating func int() throws(Damaged) -> Int {
        let raw = try uint()
        let value = Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
        guard let result = Int(exactly: value) else { throw Damaged() }
        return result
    }

    /// A count of items that follow, bounded by what is left (each item takes at least one byte).
    public mutating func count() throws(Damaged) -> Int {
        let value = try uint()
        guard value <= UInt64(end - offset) else { throw Damaged() }
        return Int(value)
    }

    public mutating func bool() throws(Damaged) -> Bool {
        guard offset < end, bytes[offset] <= 1 else { throw Damaged() }
        offset += 1
        return bytes[offset - 1] == 1
    }

    /// A string as `BinaryWriter.write(_:)` wrote it. The bytes are trusted to be UTF-8 (the state file's are checked
    /// against a fingerprint before they are read): malformed ones would read as U+FFFD, not as damage.
    public mutating func string() throws(Damaged) -> String {
        let length = try count()
        defer { offset += length }
        return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[offset..<(offset + length)]), as: UTF8.self) }
    }

    public mutating func optionalString() throws(Damaged) -> String? {
        try bool() ? try string() : nil
    }

    public mutating func fingerprint() throws(Damaged) -> Fingerprint {
        Fingerprint(high: try uint(), low: try uint())
    }

    public mutating func strings() throws(Damaged) -> [String] {
        let items = try count()
        var result: [String] = []
        result.reserveCapacity(items)
        for _ in 0..<items { result.append(try string()) }
        return result
    }

    public mutating func raw(_ length: Int) throws(Damaged) -> ArraySlice<UInt8> {
        guard length >= 0, length <= end - offset else { throw Damaged() }
        defer { offset += length }
        return bytes[offset..<(offset + length)]
    }
}
