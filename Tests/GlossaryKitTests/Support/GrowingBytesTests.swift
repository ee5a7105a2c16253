import Foundation
import TestSupport
import Testing

@testable import GlossaryKit

@Suite struct GrowingBytesTests {
    /// Appended past its capacity many times over, the block holds every byte in order, and the `Data` is them.
    @Test(arguments: [16, 1 << 16])
    func theDataIsEveryByteAppendedInOrder(capacity: Int) {
        var random = SeededRandom(seed: 3)
        var bytes = GrowingBytes(capacity: capacity)
        var reference: [UInt8] = []
        for round in 0..<3_000 {
            // Short texts, an empty one now and then, and a long one that doubles the block more than once.
            let length = round == 1_500 ? 300_000 : Int(random.next() % 90)
            let text = String((0..<length).map { _ in Character(UnicodeScalar(UInt8(97 + random.next() % 26))) }) + (round % 7 == 0 ? "é東" : "")
            bytes.append(text)
            reference += Array(text.utf8)
            #expect(bytes.count == reference.count)
        }
        #expect(reference.count > 400_000)
        #expect(Array(bytes.data()) == reference)
    }

    @Test func nothingAppendedIsEmptyData() {
        #expect(GrowingBytes().data().isEmpty)
    }
}
