import Foundation
import Testing

@testable import GlossaryKit

/// The allocator a page's cmark tree is made with: blocks as cmark expects them (zeroed when asked, kept when grown),
/// from the current arena or the C allocator, freeable on any thread.
@Suite struct NodeArenaTests {
    /// The allocator as cmark calls it.
    static let memory = (calloc: NodeArena.callocFunction, realloc: NodeArena.reallocFunction, free: NodeArena.freeFunction)

    @Test func blocksAreZeroedWhenAskedAndKeepTheirBytesWhenGrown() throws {
        let arena = NodeArena()
        arena.withCurrent {
            for size in [1, 7, 16, 100, 5000, 20000, 100_000] {
                let block = Self.memory.calloc(1, size)!
                #expect(UnsafeRawBufferPointer(start: block, count: size).allSatisfy { $0 == 0 }, "\(size)")
                block.initializeMemory(as: UInt8.self, repeating: 0xAB, count: size)
                // Grown past the arena's limit for small blocks and past the chunk size.
                let grown = Self.memory.realloc(block, size * 3 + 70_000)!
                #expect(UnsafeRawBufferPointer(start: grown, count: size).allSatisfy { $0 == 0xAB }, "\(size)")
                let shrunk = Self.memory.realloc(grown, max(1, size / 2))!
                #expect(UnsafeRawBufferPointer(start: shrunk, count: max(1, size / 2)).allSatisfy { $0 == 0xAB }, "\(size)")
                Self.memory.free(shrunk)
            }
        }
    }

    /// Small chunks come from memory the C allocator had given before, dirty: every block asked zeroed is, whether
    /// cut fresh from a chunk, reused after a free, or cut from a big chunk the C allocator zeroed.
    @Test func blocksFromDirtyChunksAreZeroedWhenAsked() {
        for _ in 0..<4 {
            // Memory of the C allocator written and given back, as a chunk of an arena may be.
            let dirty = (0..<8).map { _ in malloc(300_000)! }
            for block in dirty {
                block.initializeMemory(as: UInt8.self, repeating: 0xCD, count: 300_000)
                Glibc.free(block)
            }
            let arena = NodeArena()
            arena.withCurrent {
                var blocks: [UnsafeMutableRawPointer] = []
                // Past the small chunks' sizes into a big, zeroed one: 64 KB, 128 KB, … 1 MB.
                for index in 0..<40_000 {
                    let size = 8 + index % 120
                    let block = Self.memory.calloc(1, size)!
                    #expect(UnsafeRawBufferPointer(start: block, count: size).allSatisfy { $0 == 0 }, "\(index)")
                    block.initializeMemory(as: UInt8.self, repeating: 0xEF, count: size)
                    blocks.append(block)
                }
                for block in blocks.prefix(1000) { Self.memory.free(block) }
                for index in 0..<1000 {
                    let size = 8 + index % 120
                    let block = Self.memory.calloc(1, size)!
                    #expect(UnsafeRawBufferPointer(start: block, count: size).allSatisfy { $0 == 0 }, "reused \(index)")
                }
            }
        }
    }

    @Test func blocksMadeWithoutACurrentArenaComeFromTheCAllocator() {
        let block = Self.memory.realloc(nil, 24)!
        block.storeBytes(of: 42, as: Int.self)
        #expect(Self.memory.realloc(block, 48)!.load(as: Int.self) == 42)
        Self.memory.free(nil)
    }

    @Test func manySmallBlocksAreDistinctAndKeepTheirBytes() {
        let arena = NodeArena()
        let blocks = arena.withCurrent {
            (0..<100_000).map { index -> UnsafeMutableRawPointer in
                let block = Self.memory.calloc(1, 8 + index % 40)!
                block.storeBytes(of: index, as: Int.self)
                return block
            }
        }
        #expect(blocks.enumerated().allSatisfy { $0.element.load(as: Int.self) == $0.offset })
        #expect(Set(blocks).count == blocks.count)
    }

    @Test func aBlockFreedWhileItsArenaIsCurrentIsReusedZeroedForItsSize() {
        let arena = NodeArena()
        arena.withCurrent {
            let first = Self.memory.calloc(1, 40)!
            first.storeBytes(of: Int.max, as: Int.self)
            Self.memory.free(first)
            let second = Self.memory.calloc(1, 33)!
            #expect(second == first, "the same size class (48 bytes)")
            #expect(UnsafeRawBufferPointer(start: second, count: 33).allSatisfy { $0 == 0 })
            #expect(Self.memory.calloc(1, 40)! != first)
        }
        // Freed where its arena is not current, a block stays where it is until its arena goes.
        let kept = arena.withCurrent { Self.memory.calloc(1, 64)! }
        Self.memory.free(kept)
        #expect(arena.withCurrent { Self.memory.calloc(1, 64)! } != kept)
    }

    @Test func aDocumentIsRenderedAndFreedOnOtherThreadsThanItWasMadeOn() async {
        let markdown = (0..<2000).map { "Line \($0) with [[term\($0 % 7)]] and *emphasis* `code`." }.joined(separator: "\n\n") + "\n"
        let document = MarkdownDocument(markdown: markdown, file: "p.md")
        let wrappers = document.references.map { MarkdownDocument.Wrapper(open: "<b data-k=\"\($0.key)\">", close: "</b>") }
        let expected = document.renderHTML(wrappers: wrappers, destinations: [])
        let html = await Task.detached { document.renderHTML(wrappers: wrappers, destinations: []) }.value
        #expect(html == expected)
        #expect(html.contains("<p>Line 1999 with <b data-k=\"term4\">term4</b> and <em>emphasis</em> <code>code</code>.</p>"))
        #expect(document.firstParagraphHTML() == "Line 0 with term0 and <em>emphasis</em> <code>code</code>.")
    }
}
