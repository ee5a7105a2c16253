import CSystem
import Dispatch

/// The process's freed memory, given back to the system where a build is done with much of what it made (the
/// pages' trees after parsing, the previous site after a preview rebuild): otherwise the allocator keeps it, and
/// the process's resident size stays at its highest. The glossary binary's allocator is jemalloc (its arenas are
/// purged); a program on glibc's malloc (the tests) has its heap trimmed and its big blocks mapped apart.
public enum FreedMemory {
    public static func giveBack() {
        glossary_trim_heap()
    }

    /// Frees `value` on another thread. For what a build is done with as it ends: freeing the tables of a
    /// dictionary-sized site takes a tenth of a second and more, which would otherwise come between the build's last
    /// write and the command's summary. A process that exits first leaves the rest to the system, which takes the
    /// memory back whole.
    public static func release<Value: Sendable>(_ value: consuming Value) {
        let box = Box(value)
        DispatchQueue.global(qos: .utility).async { box.value = nil }
    }

    private final class Box<Value: Sendable>: @unchecked Sendable {
        var value: Value?
        init(_ value: consuming Value) { self.value = value }
    }

    /// Where blocks start to be mapped on their own (`mapLargeBlocksApart`).
    public static let largeBlock = 256 << 10

    /// Blocks of `largeBlock` bytes and more are mapped on their own and unmapped when freed, for the rest of the
    /// process. glibc's default raises that threshold to the largest block freed so far (up to 32 MB): after the
    /// first big buffer a build frees, its big buffers (the exports, the search files, the manifest's pieces) are
    /// carved from the per-thread arenas, where their pages stay resident after they are freed. Measured on a
    /// clean build of 10,000 pages: peak resident size 263 MB → 228–246 MB, time within the machine's noise
    /// (bench/NOTES.md). Only `make bench` shows its effect: whether a block is mapped depends on what the heap
    /// holds free at that moment, which no test in a shared process controls.
    public static func mapLargeBlocksApart() {
        _ = glossary_map_blocks_from(Int32(largeBlock))
    }
}
