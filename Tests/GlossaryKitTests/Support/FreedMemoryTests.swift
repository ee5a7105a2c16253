import Dispatch
import Foundation
import Synchronization
import Testing

@testable import GlossaryKit

/// `FreedMemory.release`: what a build is done with is freed, and not by the thread that lets it go.
@Suite struct FreedMemoryTests {
    /// Where a `Tracked` says which thread freed it.
    final class Recorder: Sendable {
        let freedBy = Mutex<pthread_t?>(nil)
        let freed = DispatchSemaphore(value: 0)
    }

    final class Tracked: Sendable {
        let recorder: Recorder
        init(_ recorder: Recorder) { self.recorder = recorder }

        deinit {
            recorder.freedBy.withLock { $0 = pthread_self() }
            recorder.freed.signal()
        }
    }

    @Test func aReleasedValueIsFreedOnAnotherThread() {
        let recorder = Recorder()
        FreedMemory.release([Tracked(recorder)])
        // The wait's bound only ends a test that failed (the value kept forever).
        #expect(recorder.freed.wait(timeout: .now() + 60) == .success, "the value was never freed")
        let thread = recorder.freedBy.withLock { $0 }
        #expect(thread != nil)
        #expect(thread.map { pthread_equal($0, pthread_self()) == 0 } == true, "freed by the thread that released it")
    }
}
