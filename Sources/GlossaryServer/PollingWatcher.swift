import Foundation

/// Watches a scope by looking: every `interval` it lists the watched folders and `lstat`s every entry, and
/// reports what appeared, vanished or changed signature since the last look.
///
/// For where inotify hears nothing: Docker Desktop and WSL mounts of the host's files, network drives. A
/// file's signature is what `FileSignature` keeps — device, inode, size, modification and change times — so
/// a write, a replacement (a new inode, as editors save) or a `touch` is seen; a folder counts as changed only
/// when it appears, vanishes or is replaced (its times change with every entry, which are seen themselves).
/// A pass costs a `readdir` per folder and an `lstat` per entry — proportional to the number of files, and no
/// file is read. Once a pass finds changes, the next comes after `debounce` rather than `interval`, and the
/// batch is reported when a pass finds nothing new: the same debounce as `InotifyWatcher`'s.
///
/// Symlinks below a watched path are noted as links, not followed (as the build's scan does for folders; a
/// link to a file in `content/` is seen through the file itself).
public final class PollingWatcher: FileWatcher, @unchecked Sendable {
    /// What a look at one path found.
    struct Signature {
        var isFolder: Bool
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: timespec
        var changed: timespec

        init(_ info: stat) {
            isFolder = info.st_mode & S_IFMT == S_IFDIR
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modified = info.st_mtim
            changed = info.st_ctim
        }

        /// Whether the path changed between two looks (a folder only when it was replaced).
        func differs(from other: Signature) -> Bool {
            if isFolder != other.isFolder || device != other.device || inode != other.inode { return true }
            if isFolder { return false }
            return size != other.size || modified.tv_sec != other.modified.tv_sec || modified.tv_nsec != other.modified.tv_nsec
                || changed.tv_sec != other.changed.tv_sec || changed.tv_nsec != other.changed.tv_nsec
        }
    }

    /// Half a second: a saved file shows in the browser within about a second even on a slow share, and a
    /// pass over 10,000 files (a few milliseconds here) twice a second is still well under 1% of a core.
    public static let defaultInterval: TimeInterval = 0.5

    public let scope: WatchScope
    public let interval: TimeInterval
    public let debounce: TimeInterval
    public let maximumDelay: TimeInterval
    private let onChange: @Sendable (Set<String>) -> Void

    /// The last look; only the watching thread touches it once started.
    private var known: [String: Signature] = [:]
    private let condition = NSCondition()
    private var running = false
    private var stopping = false

    public init(
        scope: WatchScope, interval: TimeInterval = PollingWatcher.defaultInterval, debounce: TimeInterval = 0.075, maximumDelay: TimeInterval = 1,
        onChange: @escaping @Sendable (Set<String>) -> Void
    ) {
        self.scope = scope
        self.interval = interval
        self.debounce = debounce
        self.maximumDelay = maximumDelay
        self.onChange = onChange
    }

    deinit {
        stop()
    }

    /// Takes the first look and starts the polling thread.
    public func start() {
        known = look()
        condition.withLock {
            running = true
            stopping = false
        }
        let thread = Thread { [self] in run() }
        thread.name = "glossary polling watcher"
        thread.start()
    }

    public func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while running { condition.wait() }
        condition.unlock()
    }

    /// Looks again and returns what changed since the last look (for the thread, and for tests).
    func pass() -> Set<String> {
        let now = look()
        defer { known = now }
        return Self.changes(from: known, to: now)
    }

    static func changes(from old: [String: Signature], to new: [String: Signature]) -> Set<String> {
        var changed = Set<String>()
        for (path, signature) in new {
            if let before = old[path] {
                if signature.differs(from: before) { changed.insert(path) }
            } else {
                changed.insert(path)
            }
        }
        for path in old.keys where new[path] == nil { changed.insert(path) }
        return changed
    }

    // MARK: The polling thread

    private func run() {
        var batcher = ChangeBatcher(debounce: debounce, maximumDelay: maximumDelay)
        var nextPass = ContinuousClock.now + .seconds(interval)
        condition.lock()
        while !stopping {
            let wakeAt = min(nextPass, batcher.deadline ?? nextPass)
            let (seconds, attoseconds) = ContinuousClock.now.duration(to: wakeAt).components
            let wait = Double(seconds) + Double(attoseconds) / 1e18
            if wait > 0 {
                _ = condition.wait(until: Date(timeIntervalSinceNow: wait))
                continue
            }
            condition.unlock()
            if ContinuousClock.now >= nextPass {
                let changes = pass()
                let now = ContinuousClock.now
                batcher.add(changes, at: now)
                // While changes keep coming, look again soon: a pass that finds nothing new ends the batch.
                nextPass = now + .seconds(batcher.pending.isEmpty ? interval : min(debounce, interval))
            }
            if let batch = batcher.take() { onChange(batch) }
            condition.lock()
        }
        running = false
        condition.broadcast()
        condition.unlock()
    }

    // MARK: Looking

    /// Every watched path and everything below it that the scope doesn't ignore, with its signature.
    func look() -> [String: Signature] {
        var found: [String: Signature] = [:]
        found.reserveCapacity(known.count + 64)
        // The folders on the way to a deep watched path, to see them appear or vanish as inotify does.
        for folder in scope.parents.keys where !folder.isEmpty {
            var info = stat()
            if stat(scope.url(folder).path, &info) == 0 { found[folder] = Signature(info) }
        }
        for path in scope.paths {
            // A watched path itself is followed through a symlink, as inotify's watch on it is.
            var info = stat()
            guard stat(scope.url(path).path, &info) == 0 else { continue }
            let signature = Signature(info)
            found[path] = signature
            if signature.isFolder { walk(scope.url(path).path, as: path, into: &found) }
        }
        return found
    }

    private func walk(_ folder: String, as relative: String, into found: inout [String: Signature]) {
        guard let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        let descriptor = dirfd(directory)
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        while let entry = readdir(directory) {
            let namePointer = UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: CChar.self)
            let name = String(cString: namePointer)
            if name == "." || name == ".." || WatchScope.isIgnored(name) { continue }
            var info = stat()
            guard fstatat(descriptor, namePointer, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            let path = relative + "/" + name
            let signature = Signature(info)
            found[path] = signature
            if signature.isFolder { walk(folder + "/" + name, as: path, into: &found) }
        }
    }
}
