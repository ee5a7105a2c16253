import Foundation
import Testing

@testable import GlossaryKit

/// Big blocks are mapped on their own once `mapLargeBlocksApart` has run, even after a bigger block was freed
/// (which, by glibc's default, raises the size from which blocks are mapped to that block's).
@Suite struct FreedMemoryTests {
    /// Whether glibc mapped the block on its own: the IS_MMAPPED bit of the size word before the block.
    static func isMappedApart(_ block: UnsafeMutableRawPointer) -> Bool {
        (block - MemoryLayout<Int>.size).load(as: Int.self) & 0x2 != 0
    }

    @Test func aLargeBlockIsMappedApartAfterABiggerOneWasFreed() throws {
        let bigger = try #require(malloc(16 << 20))
        memset(bigger, 1, 16 << 20)
        free(bigger)
        FreedMemory.mapLargeBlocksApart()
        let mappedBefore = FreedMemory.mappedBlockBytes
        let block = try #require(malloc(FreedMemory.largeBlock + 1))
        #expect(Self.isMappedApart(block))
        #expect(FreedMemory.mappedBlockBytes > mappedBefore, "counted among mapped blocks (other tests may allocate meanwhile)")
        free(block)
        let small = try #require(malloc(1 << 10))
        #expect(!Self.isMappedApart(small), "a small block is carved from the heap")
        free(small)
    }
}
