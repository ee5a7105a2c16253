import Foundation

/// Watches a `WatchScope` and reports changes in debounced batches, on a thread of its own.
///
/// A batch names every changed path relative to the site root — a file written, created, deleted or renamed
/// (both names), a folder that appeared, vanished or was renamed (standing for everything in it) — or is `*`
/// when anything may have changed. Ignored names never appear. `InotifyWatcher` hears of changes from the
/// kernel; `PollingWatcher` compares file signatures, for file systems where inotify sees nothing;
/// `AutomaticWatcher` uses the first and falls back to the second.
public protocol FileWatcher: AnyObject, Sendable {
    var scope: WatchScope { get }
    /// Takes the first look and starts watching.
    func start() throws(WatchFailure)
    /// Stops watching and waits for the watching thread; no batch is reported after it returns.
    func stop()
}
