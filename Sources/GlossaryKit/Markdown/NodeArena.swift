import Glibc

/// The memory one page's cmark tree is made in: small blocks (nodes, literals, markup) are cut from big chunks, a
/// block freed while its arena is current is kept for the next block of its size, and all of them go at once with
/// the arena.
///
/// A 50 MB page makes some twenty million blocks; the C allocator spent more time making, freeing and merging them
/// than cmark spent parsing. Every block the arena's allocator (its C functions, handed to cmark) gives has a header
/// saying where it came from, so blocks can be freed or grown on any thread at any time; new blocks come from the
/// arena made current on the thread (`withCurrent`) and from the C allocator when there is none, or when they are
/// big. One arena serves one document, used by one thread at a time, as the document is.
final class NodeArena: @unchecked Sendable {
    /// The bump allocator's state, at a fixed address for the C functions to reach through the thread's current arena.
    private struct State {
        /// The chunk blocks are cut from: its first word links to the chunk before it.
        var chunk: UnsafeMutableRawPointer?
        /// The offset in `chunk` of the next block, and `chunk`'s size.
        var next = 0
        var end = 0
        /// How big the next chunk is made.
        var chunkSize = NodeArena.firstChunkSize
        /// Whether `chunk` came zeroed (see `newChunk`): blocks cut from it need no zeroing.
        var chunkIsZeroed = false
        /// Freed blocks by capacity (`freed[k]` holds blocks of `16 * (k + 1)` bytes), linked through their first word.
        var freed: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    }

    private let state: UnsafeMutablePointer<State>

    init() {
        let freed = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: Self.largeBlock / 16)
        freed.initialize(repeating: nil, count: Self.largeBlock / 16)
        state = .allocate(capacity: 1)
        state.initialize(to: State(freed: freed))
    }

    deinit {
        var chunk = state.pointee.chunk
        while let current = chunk {
            chunk = current.load(as: UnsafeMutableRawPointer?.self)
            Glibc.free(current)
        }
        state.pointee.freed.deallocate()
        state.deallocate()
    }

    /// Runs `body` with the blocks cmark makes on this thread cut from this arena.
    func withCurrent<Result>(_ body: () throws -> Result) rethrows -> Result {
        #if GLOSSARY_FUZZ
            // Fuzz builds (`make fuzz-build`) take every block from the C allocator, where the address sanitizer
            // sees each one: inside a chunk, a read past a block's end would go unnoticed.
            return try body()
        #endif
        let previous = pthread_getspecific(Self.currentKey)
        pthread_setspecific(Self.currentKey, state)
        defer { pthread_setspecific(Self.currentKey, previous) }
        return try body()
    }

    /// The arena's allocator as the C functions cmark calls (`CMark` hands them over): `calloc`, `realloc` and `free`
    /// as the C library's, but for where a block comes from.
    static let callocFunction: @convention(c) (Int, Int) -> UnsafeMutableRawPointer? = { count, size in
        NodeArena.allocate(count * size, zeroed: true)
    }
    static let reallocFunction: @convention(c) (UnsafeMutableRawPointer?, Int) -> UnsafeMutableRawPointer? = { block, size in
        NodeArena.reallocate(block, size)
    }
    static let freeFunction: @convention(c) (UnsafeMutableRawPointer?) -> Void = { block in NodeArena.free(block) }

    private static func free(_ block: UnsafeMutableRawPointer?) {
        guard let block else { return }
        let owner = block.load(fromByteOffset: -headerSize + 8, as: UnsafeMutableRawPointer?.self)
        if owner == heapOwner {
            Glibc.free(block - headerSize)
        } else if let owner, owner == pthread_getspecific(currentKey) {
            // Kept for reuse by its arena, current on this thread; freed elsewhere, it goes with its arena.
            let state = owner.assumingMemoryBound(to: State.self)
            let sizeClass = block.load(fromByteOffset: -headerSize, as: Int.self) / 16 - 1
            block.storeBytes(of: state.pointee.freed[sizeClass], as: UnsafeMutableRawPointer?.self)
            state.pointee.freed[sizeClass] = block
        }
    }

    // MARK: Blocks

    /// The owner in the header of a block from the C allocator (an arena's block names its arena's state).
    private nonisolated(unsafe) static let heapOwner = UnsafeMutableRawPointer(bitPattern: 1)

    private static let headerSize = 16
    /// Blocks of this size or more come from the C allocator: a growing buffer (the HTML) is reallocated in place.
    private static let largeBlock = 16 * 1024
    private static let firstChunkSize = 64 * 1024
    private static let largestChunkSize = 8 * 1024 * 1024
    /// Chunks this big are asked for zeroed: the C allocator maps them fresh from the system.
    private static let zeroedChunkSize = 1024 * 1024

    private static let currentKey: pthread_key_t = {
        var key = pthread_key_t()
        guard pthread_key_create(&key, nil) == 0 else { fatalError("pthread_key_create failed") }
        return key
    }()

    private static func allocate(_ size: Int, zeroed: Bool) -> UnsafeMutableRawPointer? {
        let capacity = (max(size, 1) + 15) & ~15
        guard capacity < largeBlock, let current = pthread_getspecific(currentKey) else {
            guard let raw = zeroed ? calloc(1, capacity + headerSize) : malloc(capacity + headerSize) else { abort() }
            return header(raw, capacity: capacity, owner: heapOwner)
        }
        let state = current.assumingMemoryBound(to: State.self)
        let sizeClass = capacity / 16 - 1
        if let block = state.pointee.freed[sizeClass] {
            state.pointee.freed[sizeClass] = block.load(as: UnsafeMutableRawPointer?.self)
            if zeroed { memset(block, 0, capacity) }
            return block
        }
        if state.pointee.next + headerSize + capacity > state.pointee.end {
            let size = max(state.pointee.chunkSize, capacity + 2 * headerSize)
            // A big chunk is zeroed by the C allocator, which knows fresh pages from the system are. A small one comes
            // from memory used before, which `calloc` would clear whole: a page of a few kilobytes used a tenth of
            // its first chunk, so its blocks are cleared one by one instead.
            let isZeroed = size >= zeroedChunkSize
            guard let chunk = isZeroed ? calloc(1, size) : malloc(size) else { abort() }
            state.pointee.chunkIsZeroed = isZeroed
            chunk.storeBytes(of: state.pointee.chunk, as: UnsafeMutableRawPointer?.self)
            state.pointee.chunk = chunk
            state.pointee.next = headerSize
            state.pointee.end = size
            state.pointee.chunkSize = min(2 * state.pointee.chunkSize, largestChunkSize)
        }
        let raw = state.pointee.chunk! + state.pointee.next
        state.pointee.next += headerSize + capacity
        if zeroed && !state.pointee.chunkIsZeroed { memset(raw + headerSize, 0, capacity) }
        return header(raw, capacity: capacity, owner: current)
    }

    private static func header(_ raw: UnsafeMutableRawPointer, capacity: Int, owner: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer {
        raw.storeBytes(of: capacity, as: Int.self)
        raw.storeBytes(of: owner, toByteOffset: 8, as: UnsafeMutableRawPointer?.self)
        return raw + headerSize
    }

    private static func reallocate(_ block: UnsafeMutableRawPointer?, _ size: Int) -> UnsafeMutableRawPointer? {
        guard let block else { return allocate(size, zeroed: false) }
        let capacity = block.load(fromByteOffset: -headerSize, as: Int.self)
        if block.load(fromByteOffset: -headerSize + 8, as: UnsafeMutableRawPointer?.self) == heapOwner {
            let wanted = (max(size, 1) + 15) & ~15
            guard let raw = realloc(block - headerSize, wanted + headerSize) else { abort() }
            return header(raw, capacity: wanted, owner: heapOwner)
        }
        if size <= capacity { return block }
        guard let grown = allocate(size, zeroed: false) else { abort() }
        grown.copyMemory(from: block, byteCount: capacity)
        free(block)
        return grown
    }
}
