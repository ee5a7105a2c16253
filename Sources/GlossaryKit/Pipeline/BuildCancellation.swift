import Synchronization

/// Set once a build is asked to stop (its task cancelled: Ctrl-C in `glossary build`): the stages look at it
/// between files, on whatever thread they run, and the build ends without writing anything.
final class BuildCancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    func cancel() { flag.store(true, ordering: .relaxed) }

    var isCancelled: Bool { flag.load(ordering: .relaxed) }
}
