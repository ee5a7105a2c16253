import Foundation
import GlossaryKit

/// Watches with inotify, and by polling when inotify can't be used: no inotify instance to be had, or a watch
/// refused (the system's watch limit reached, most often) — at the start, or later when a new folder can't be
/// watched. The switch happens once and is told to `onFallback` as a warning naming the reason and the
/// interval; a switch while running also reports `*`, since changes may have gone unseen meanwhile.
///
/// Where inotify works but hears nothing (Docker Desktop and WSL mounts of the host's files, network drives)
/// nothing fails, so nothing falls back: polling must be asked for there (`glossary serve --poll`).
public final class AutomaticWatcher: FileWatcher, @unchecked Sendable {
    public let scope: WatchScope
    public let pollInterval: TimeInterval
    public let debounce: TimeInterval
    public let settled: TimeInterval
    public let maximumDelay: TimeInterval
    private let onChange: @Sendable (Set<String>) -> Void
    private let onFallback: @Sendable (Diagnostic) -> Void
    /// For tests: inotify refuses watches beyond this many, as when the system's limit is reached.
    var inotifyWatchLimit: Int?

    private let lock = NSLock()
    private var inotify: InotifyWatcher?
    private var polling: PollingWatcher?
    private var stopped = false

    public init(
        scope: WatchScope, pollInterval: TimeInterval = PollingWatcher.defaultInterval, debounce: TimeInterval = PollingWatcher.defaultDebounce,
        settled: TimeInterval = PollingWatcher.defaultSettled, maximumDelay: TimeInterval = 1,
        onChange: @escaping @Sendable (Set<String>) -> Void, onFallback: @escaping @Sendable (Diagnostic) -> Void
    ) {
        self.scope = scope
        self.pollInterval = pollInterval
        self.debounce = debounce
        self.settled = settled
        self.maximumDelay = maximumDelay
        self.onChange = onChange
        self.onFallback = onFallback
    }

    deinit {
        stop()
    }

    /// Whether it has fallen back to polling.
    public var isPolling: Bool { lock.withLock { polling != nil } }

    public func start() {
        let watcher = InotifyWatcher(scope: scope, debounce: debounce, settled: settled, maximumDelay: maximumDelay, onChange: onChange) {
            [weak self] failure in
            self?.fallBack(failure, whileRunning: true)
        }
        watcher.watchLimit = inotifyWatchLimit
        do {
            try watcher.start()
            lock.withLock { inotify = watcher }
        } catch {
            fallBack(error, whileRunning: false)
        }
    }

    public func stop() {
        let (inotify, polling) = lock.withLock {
            stopped = true
            return (self.inotify, self.polling)
        }
        inotify?.stop()
        polling?.stop()
    }

    /// What `onFallback` hears: the reason inotify failed, and how often files are looked at instead.
    static func fallbackWarning(_ failure: WatchFailure, interval: TimeInterval) -> Diagnostic {
        let milliseconds = Int((interval * 1000).rounded())
        return Diagnostic(.watchPolling(reason: failure.description, milliseconds: milliseconds))
    }

    /// Starts polling in inotify's place (once; on inotify's own thread when it fails while running, which
    /// ends that thread).
    private func fallBack(_ failure: WatchFailure, whileRunning: Bool) {
        let started: Bool = lock.withLock {
            guard !stopped, polling == nil else { return false }
            // Started under the lock, so a `stop()` now can't miss it.
            let watcher = PollingWatcher(scope: scope, interval: pollInterval, debounce: debounce, maximumDelay: maximumDelay, onChange: onChange)
            watcher.start()
            polling = watcher
            return true
        }
        guard started else { return }
        onFallback(Self.fallbackWarning(failure, interval: pollInterval))
        if whileRunning { onChange(["*"]) }
    }
}
