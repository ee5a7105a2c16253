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

    /// The first element waits until every other one is done: with the elements dealt out to the threads in advance,
    /// those dealt to its thread could not run meanwhile, and the wait would time out.
    @Test(.enabled(if: ProcessInfo.processInfo.activeProcessorCount >= 2, "two threads need two cores"))
    func aSlowElementHoldsUpOneThreadWhileTheOthersGoOn() {
        let others = DispatchSemaphore(value: 0)
        let count = 200
        let results = Array(0..<count).parallelMap(jobs: 2) { index -> Bool in
            guard index == 0 else {
                others.signal()
                return true
            }
            for _ in 1..<count {
                guard others.wait(timeout: .now() + 10) == .success else { return false }
            }
            return true
        }
        #expect(results.allSatisfy { $0 }, "the other elements ran while the first waited")
    }
}
