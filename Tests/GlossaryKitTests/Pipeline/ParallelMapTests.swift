import Foundation
import Synchronization
import Testing

@testable import GlossaryKit

@Suite struct ParallelMapTests {
    final class Counted: Sendable {
        static let alive = Mutex(0)
        let value: Int
        init(_ value: Int) {
            self.value = value
            Self.alive.withLock { $0 += 1 }
        }
        deinit { Self.alive.withLock { $0 -= 1 } }
    }

    @Test func keepsOrderAndReleasesEveryResult() {
        let before = Counted.alive.withLock { $0 }
        do {
            let results = Array(0..<1000).parallelMap(jobs: 3) { Counted($0 * 2) }
            #expect(results.map(\.value) == Array(0..<1000).map { $0 * 2 })
        }
        #expect(Counted.alive.withLock { $0 } == before, "every result is released once the array is gone")
    }
}
