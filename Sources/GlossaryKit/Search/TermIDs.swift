import Foundation

/// Dense ids for strings (0, 1, 2… in order of first sight), looked up by their UTF-8 bytes in a table of its own.
///
/// Counting a site's words for the search index is millions of lookups; a `[String: Int]` spends most of them
/// seeding a SipHash and walking Unicode-aware hashing. Here a string is hashed eight bytes at a time and two
/// strings are the same term when their bytes are: lunr, which searches the index in the browser, compares
/// terms as JavaScript strings, code unit by code unit, so canonically equivalent spellings in different
/// normal forms are different terms there too. A term met as bytes becomes a `String` only the first time.
struct TermIDs: Sendable {
    /// The strings by id (empty when made without them: see `init(capacity:strings:)`).
    private(set) var strings: [String] = []
    /// Whether a new term's `String` is made (a field's terms are kept as bytes, and need none).
    private let makesStrings: Bool
    /// Every string's bytes, one after another: string `id` is `bytes[starts[id]..<starts[id + 1]]`.
    private var bytes: [UInt8] = []
    private var starts: [Int] = [0]
    private var hashes: [UInt64] = []
    /// Open addressing: an id + 1 per slot, 0 for an empty one.
    private var slots: [Int32]
    private var mask: Int

    init(capacity: Int = 8, strings makesStrings: Bool = true) {
        self.makesStrings = makesStrings
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = Array(repeating: 0, count: size)
        mask = size - 1
        if makesStrings { strings.reserveCapacity(capacity) }
        hashes.reserveCapacity(capacity)
        starts.reserveCapacity(capacity + 1)
        bytes.reserveCapacity(capacity * 8)
    }

    /// A table of `strings`; `sparseness` times more slots than it needs makes a miss, the usual answer of a stop
    /// word table, cost one probe.
    init(_ strings: [String], sparseness: Int = 1) {
        self.init(capacity: strings.count * sparseness)
        for string in strings { _ = id(string) }
    }

    var count: Int { hashes.count }

    /// Every term's bytes one after another, and where each ends (arrays of their own, exactly as long as they
    /// need be: the table's grew by doubling).
    var joinedBytes: (bytes: [UInt8], ends: [UInt32]) {
        (bytes.withUnsafeBufferPointer { Array($0) }, starts.dropFirst().map { UInt32($0) })
    }

    /// The id of `string`, given it when it is new (`isNew`).
    mutating func id(_ string: String) -> (id: Int, isNew: Bool) {
        var copy = string
        return copy.withUTF8 { id(bytes: $0, string: string) }
    }

    /// The id of the string of these UTF-8 bytes (which must be valid UTF-8), given it when it is new.
    mutating func id(bytes term: UnsafeBufferPointer<UInt8>) -> (id: Int, isNew: Bool) {
        id(bytes: term, string: nil)
    }

    /// The id of `string`, if it has one.
    func lookUp(_ string: String) -> Int? {
        var copy = string
        return copy.withUTF8 { probe($0, Self.hash($0)).found }
    }

    /// Whether the string of these bytes, whose `hash` is given, has an id.
    func contains(bytes term: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Bool {
        probe(term, hash).found != nil
    }

    /// `id(bytes:)` with the bytes' `hash` already made (a tokenizer hashes a term once for every table it goes to).
    mutating func id(bytes term: UnsafeBufferPointer<UInt8>, hash: UInt64) -> (id: Int, isNew: Bool) {
        id(bytes: term, string: nil, hash: hash)
    }

    private mutating func id(bytes term: UnsafeBufferPointer<UInt8>, string: String?, hash: UInt64? = nil) -> (id: Int, isNew: Bool) {
        let hash = hash ?? Self.hash(term)
        let (found, slot) = probe(term, hash)
        if let found { return (found, false) }
        let id = hashes.count
        if makesStrings { strings.append(string ?? String(decoding: term, as: UTF8.self)) }
        bytes.append(contentsOf: term)
        starts.append(bytes.count)
        hashes.append(hash)
        slots[slot] = Int32(id + 1)
        if hashes.count * 2 > slots.count { grow() }
        return (id, true)
    }

    /// The id of the bytes if they have one, else the empty slot where they go.
    private func probe(_ term: UnsafeBufferPointer<UInt8>, _ hash: UInt64) -> (found: Int?, slot: Int) {
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let stored = Int(slots[slot])
            if stored == 0 { return (nil, slot) }
            let id = stored - 1
            if hashes[id] == hash && sameBytes(id, term) { return (id, slot) }
            slot = (slot + 1) & mask
        }
    }

    private func sameBytes(_ id: Int, _ term: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = starts[id]
        let count = starts[id + 1] - start
        guard count == term.count else { return false }
        guard count > 0 else { return true }
        return bytes.withUnsafeBufferPointer { stored in memcmp(stored.baseAddress! + start, term.baseAddress!, count) == 0 }
    }

    private mutating func grow() {
        slots = Array(repeating: 0, count: slots.count * 2)
        mask = slots.count - 1
        for (id, hash) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(id + 1)
        }
    }

    /// Eight bytes at a time with a multiply-and-rotate mix, then an avalanche (the low bits pick the slot).
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        let raw = UnsafeRawBufferPointer(bytes)
        var offset = 0
        while offset + 8 <= raw.count {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            state = ((state ^ word) &* 0xFF51_AFD7_ED55_8CCD)
            state = (state << 29) | (state >> 35)
            offset += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while offset < raw.count {
            tail |= UInt64(raw[offset]) << shift
            shift += 8
            offset += 1
        }
        state = (state ^ tail) &* 0xC4CE_B9FE_1A85_EC53
        state ^= state >> 33
        state = state &* 0xFF51_AFD7_ED55_8CCD
        state ^= state >> 33
        return state
    }
}
