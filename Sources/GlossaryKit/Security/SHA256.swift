import Foundation

/// SHA-256 (FIPS 180-4), for the Content-Security-Policy hashes of inline scripts: Foundation on Linux has none.
///
/// Not for secrets (it makes no attempt at constant time); a page's own script text is public anyway.
public struct SHA256: Sendable {
    private var state: [UInt32] = Self.initialState
    private var pending: [UInt8] = []
    private var byteCount: UInt64 = 0

    public init() {}

    /// The digest of `bytes` (32 bytes).
    public static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The digest of `text`'s UTF-8, in base64: the form a CSP `'sha256-…'` source takes.
    public static func base64(_ text: String) -> String {
        Data(hash(Array(text.utf8))).base64EncodedString()
    }

    /// The digest in lowercase hexadecimal, as `sha256sum` prints it.
    public static func hex(_ bytes: some Sequence<UInt8>) -> String {
        hash(bytes).map { byte in
            let digits = String(byte, radix: 16)
            return byte < 16 ? "0" + digits : digits
        }.joined()
    }

    public mutating func update(_ bytes: some Sequence<UInt8>) {
        let array = Array(bytes)
        byteCount &+= UInt64(array.count)
        array.withUnsafeBufferPointer { input in
            var rest = input[...]
            if !pending.isEmpty {
                let taken = rest.prefix(64 - pending.count)
                pending.append(contentsOf: taken)
                rest = rest.dropFirst(taken.count)
                guard pending.count == 64 else { return }
                pending.withUnsafeBufferPointer { compress($0[...]) }
                pending.removeAll(keepingCapacity: true)
            }
            while rest.count >= 64 {
                compress(rest.prefix(64))
                rest = rest.dropFirst(64)
            }
            pending.append(contentsOf: rest)
        }
    }

    /// Pads the message (a 1 bit, zeros, the length in bits) and returns the digest; the hasher is spent.
    public mutating func finalize() -> [UInt8] {
        var tail = pending
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        let bits = byteCount &* 8
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        tail.withUnsafeBufferPointer { blocks in
            for start in stride(from: 0, to: blocks.count, by: 64) { compress(blocks[start..<start + 64]) }
        }
        return state.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * $0)) } }
    }

    /// One round of the compression function over a 64-byte block.
    private mutating func compress(_ block: Slice<UnsafeBufferPointer<UInt8>>) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
            var index = block.startIndex
            for word in 0..<16 {
                schedule[word] = UInt32(block[index]) << 24 | UInt32(block[index + 1]) << 16 | UInt32(block[index + 2]) << 8 | UInt32(block[index + 3])
                index += 4
            }
            for word in 16..<64 {
                let s0 = schedule[word - 15].rotatedRight(7) ^ schedule[word - 15].rotatedRight(18) ^ (schedule[word - 15] >> 3)
                let s1 = schedule[word - 2].rotatedRight(17) ^ schedule[word - 2].rotatedRight(19) ^ (schedule[word - 2] >> 10)
                schedule[word] = schedule[word - 16] &+ s0 &+ schedule[word - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, h) = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
            for round in 0..<64 {
                let s1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
                let choice = (e & f) ^ (~e & g)
                let temp1 = h &+ s1 &+ choice &+ Self.roundConstants[round] &+ schedule[round]
                let s0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
                let majority = (a & b) ^ (a & c) ^ (b & c)
                let temp2 = s0 &+ majority
                (h, g, f, e, d, c, b, a) = (g, f, e, d &+ temp1, c, b, a, temp1 &+ temp2)
            }
            state[0] &+= a
            state[1] &+= b
            state[2] &+= c
            state[3] &+= d
            state[4] &+= e
            state[5] &+= f
            state[6] &+= g
            state[7] &+= h
        }
    }

    private static let initialState: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]

    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]
}

extension UInt32 {
    fileprivate func rotatedRight(_ count: UInt32) -> UInt32 { self >> count | self << (32 - count) }
}
