import Foundation

/// The debounce both watchers share: collects changed paths and says when to report them — once no change has
/// come for `debounce`, or `maximumDelay` after the first of a steady stream — so a burst of writes (a `git
/// checkout`, a save-all) is one batch, and one rebuild.
///
/// A batch whose every path was last seen completing a write (closed after writing, or moved into place: how an
/// editor's save ends, which only inotify tells) waits `settled` instead: its writer is done, and only a second file
/// of the same save could still come.
struct ChangeBatcher {
    let debounce: Duration
    let settled: Duration
    let maximumDelay: Duration
    private(set) var pending: Set<String> = []
    /// The pending paths whose last change seen did not complete a write.
    private var writing: Set<String> = []
    private var first = ContinuousClock.now
    private var last = ContinuousClock.now

    init(debounce: TimeInterval, settled: TimeInterval? = nil, maximumDelay: TimeInterval) {
        self.debounce = .seconds(debounce)
        self.settled = .seconds(min(debounce, settled ?? debounce))
        self.maximumDelay = .seconds(maximumDelay)
    }

    /// Notes changes at `paths`, of which `completed` were last seen completing a write.
    mutating func add(_ paths: Set<String>, completed: Set<String> = [], at now: ContinuousClock.Instant = .now) {
        guard !paths.isEmpty else { return }
        if pending.isEmpty { first = now }
        last = now
        pending.formUnion(paths)
        writing.subtract(completed)
        writing.formUnion(paths.subtracting(completed))
    }

    /// When the pending batch is due; nil when nothing is pending.
    var deadline: ContinuousClock.Instant? {
        pending.isEmpty ? nil : min(last + (writing.isEmpty ? settled : debounce), first + maximumDelay)
    }

    /// The batch, if it is due at `now` (then nothing is pending any more).
    mutating func take(at now: ContinuousClock.Instant = .now) -> Set<String>? {
        guard let deadline, now >= deadline else { return nil }
        defer {
            pending = []
            writing = []
        }
        return Self.collapse(pending)
    }

    /// Leaves out paths inside a folder that is in the set too: a folder that appeared, vanished or moved stands
    /// for everything in it, however much of it a watcher happened to see. `*` (anything may have changed)
    /// stands for everything.
    static func collapse(_ paths: Set<String>) -> Set<String> {
        if paths.contains("*") { return ["*"] }
        return paths.filter { path in
            var folder = path[...]
            while let slash = folder.lastIndex(of: "/") {
                folder = folder[..<slash]
                if paths.contains(String(folder)) { return false }
            }
            return true
        }
    }
}
