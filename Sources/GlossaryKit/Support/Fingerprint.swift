/// A 128-bit digest of a build input or output, stable across runs, processes and machines (never seeded):
/// the build manifest compares fingerprints of this build's inputs with the last build's.
public struct Fingerprint: Hashable, Sendable, CustomStringConvertible {
    public var high: UInt64
    public var low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    public static let zero = Fingerprint(high: 0, low: 0)

    /// The fingerprint of some bytes.
    public static func of<Bytes: Sequence>(bytes: Bytes) -> Fingerprint where Bytes.Element == UInt8 {
        var hasher = FingerprintHasher()
        hasher.combine(bytes: bytes)
        return hasher.finish()
    }

    public var description: String { Self.hex(high) + Self.hex(low) }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
