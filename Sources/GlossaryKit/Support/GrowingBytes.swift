import Foundation

/// Bytes appended to one block of memory that grows in place (`realloc`, which moves a big block's pages instead
/// of copying them) and becomes `Data` without a copy. An export of megabytes made as a `String` is in memory
/// twice when it becomes `Data`, and up to twice again while the string grows.
struct GrowingBytes: ~Copyable {
    private var base: UnsafeMutableRawPointer
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 1 << 16) {
        self.capacity = max(16, capacity)
        guard let base = malloc(self.capacity) else { fatalError("out of memory") }
        self.base = base
    }

    deinit { free(base) }

    mutating func append(_ text: String) {
        // A native string's bytes are read in place; only a bridged one is copied to be made contiguous.
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { append($0) }
        if done == nil {
            var text = text
            text.withUTF8 { append($0) }
        }
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if count + bytes.count > capacity {
            var grown = capacity * 2
            while grown < count + bytes.count { grown *= 2 }
            guard let moved = realloc(base, grown) else { fatalError("out of memory") }
            base = moved
            capacity = grown
        }
        (base + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    /// The bytes so far.
    func withUnsafeBytes<T>(_ body: (UnsafeRawBufferPointer) -> T) -> T {
        body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Forgets the bytes, keeping the block.
    mutating func removeAll() { count = 0 }

    /// The bytes as `Data`, which frees the block when it goes.
    consuming func data() -> Data {
        let data = Data(bytesNoCopy: base, count: count, deallocator: .free)
        discard self
        return data
    }
}
