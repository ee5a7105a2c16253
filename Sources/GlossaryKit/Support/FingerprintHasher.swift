/// Builds a `Fingerprint` from values fed in order: two independent 64-bit lanes over 8-byte words (a
/// multiply-and-rotate mix), so distinct inputs collide only by chance (about 1 in 2¹²⁸).
///
/// Every `combine` is length- or tag-delimited, so `("ab", "c")` and `("a", "bc")` differ.
public struct FingerprintHasher: Sendable {
    private var a: UInt64 = 0x9E37_79B9_7F4A_7C15
    private var b: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private var count: UInt64 = 0

    public init() {}

    @inline(__always)
    fileprivate mutating func mix(_ word: UInt64) {
        a = (a ^ (word &* 0xFF51_AFD7_ED55_8CCD)).rotatedLeft(by: 31) &* 0x9E37_79B9_7F4A_7C15 &+ 0x632B_E59B_D9B4_E019
        b = (b ^ (word &* 0xC4CE_B9FE_1A85_EC53)).rotatedLeft(by: 27) &* 0x94D0_49BB_1331_11EB &+ 0x2545_F491_4F6C_DD1D
        count &+= 1
    }

    public mutating func combine<Bytes: Sequence>(bytes: Bytes) where Bytes.Element == UInt8 {
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in combine(buffer: UnsafeRawBufferPointer(buffer)) }
        if done != nil { return }
        var word: UInt64 = 0
        var shift: UInt64 = 0
        var length: UInt64 = 0
        for byte in bytes {
            word |= UInt64(byte) << shift
            shift += 8
            length += 1
            if shift == 64 {
                mix(word)
                word = 0
                shift = 0
            }
        }
        mix(word)
        mix(length ^ 0xB5)
    }

    /// Eight bytes at a time; the tail is padded with zeros and the length mixed in, as the generic path does.
    public mutating func combine(buffer: UnsafeRawBufferPointer) {
        let whole = buffer.count / 8
        for index in 0..<whole { mix(UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self))) }
        var word: UInt64 = 0
        var shift: UInt64 = 0
        for offset in (whole * 8)..<buffer.count {
            word |= UInt64(buffer[offset]) << shift
            shift += 8
        }
        mix(word)
        mix(UInt64(buffer.count) ^ 0xB5)
    }

    public mutating func combine(_ text: String) {
        var copy = text
        copy.withUTF8 { combine(bytes: $0) }
    }

    public mutating func combine(_ text: String?) {
        if let text {
            mix(1)
            combine(text)
        } else {
            mix(0)
        }
    }

    public mutating func combine(_ value: Int) { mix(UInt64(bitPattern: Int64(value))) }

    public mutating func combine(_ value: Bool) { mix(value ? 0xB1 : 0xB0) }

    public mutating func combine(_ fingerprint: Fingerprint) {
        mix(fingerprint.high)
        mix(fingerprint.low)
    }

    /// Marks the start of a list of `count` items, so lists of different lengths can't run into each other.
    public mutating func combineCount(_ count: Int) { mix(0xC0C0_0000_0000_0000 | UInt64(count)) }

    public func finish() -> Fingerprint {
        func avalanche(_ value: UInt64) -> UInt64 {
            var x = value
            x ^= x >> 33
            x = x &* 0xFF51_AFD7_ED55_8CCD
            x ^= x >> 33
            x = x &* 0xC4CE_B9FE_1A85_EC53
            x ^= x >> 33
            return x
        }
        return Fingerprint(high: avalanche(a ^ count), low: avalanche(b &+ count.rotatedLeft(by: 17)))
    }
}

extension UInt64 {
    @inline(__always)
    fileprivate func rotatedLeft(by amount: UInt64) -> UInt64 { (self << amount) | (self >> (64 - amount)) }
}

/// `Fingerprint.of(bytes:)` of bytes that come in pieces (a file fingerprinted as it is written): the same words
/// mixed in the same order, whatever the pieces' sizes.
public struct StreamingFingerprint: Sendable {
    private var hasher = FingerprintHasher()
    /// The bytes of an unfinished word, and how many bits of it are filled.
    private var word: UInt64 = 0
    private var shift: UInt64 = 0
    private var length: UInt64 = 0

    public init() {}

    /// How many bytes were combined so far.
    var bytes: UInt64 { length }

    public mutating func combine(_ buffer: UnsafeRawBufferPointer) {
        var offset = 0
        while shift != 0 && offset < buffer.count {
            word |= UInt64(buffer[offset]) << shift
            offset += 1
            shift += 8
            if shift == 64 {
                hasher.mix(word)
                (word, shift) = (0, 0)
            }
        }
        while offset + 8 <= buffer.count {
            hasher.mix(UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            offset += 8
        }
        // Fewer than eight bytes are left, and the word was empty.
        while offset < buffer.count {
            word |= UInt64(buffer[offset]) << shift
            offset += 1
            shift += 8
        }
        length += UInt64(buffer.count)
    }

    public func finish() -> Fingerprint {
        var hasher = hasher
        hasher.mix(word)
        hasher.mix(length ^ 0xB5)
        return hasher.finish()
    }
}
