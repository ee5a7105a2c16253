import Foundation
import GlossaryKit
import Synchronization

/// What a signal does to `glossary build`: while the build waits for another one's lock nothing exists yet,
/// so the process ends at once; once it runs, its task is cancelled and it cleans up after itself.
final class BuildInterruption: Sendable {
    private struct State {
        var build: Task<BuildResult, Never>?
        var waiting = false
        var signal: Int32?
    }

    private let state = Mutex(State())

    func started(_ build: Task<BuildResult, Never>) {
        let cancelNow = state.withLock { state in
            state.build = build
            return state.signal != nil
        }
        if cancelNow { build.cancel() }
    }

    func waitingForLock() { state.withLock { $0.waiting = true } }

    func lockTaken() { state.withLock { $0.waiting = false } }

    func interrupt(_ signal: Int32) {
        let (build, waiting) = state.withLock { state in
            state.signal = signal
            return (state.build, state.waiting)
        }
        if waiting {
            // Blocked in flock: nothing was made, and the lock goes with the process.
            _exit(128 + signal)
        }
        build?.cancel()
    }
}
