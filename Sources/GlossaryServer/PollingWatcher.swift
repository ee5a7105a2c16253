import Foundation
import GlossaryKit

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

    /// Half a second: a saved file shows in the browser well within a second (on average a quarter second to be
    /// seen, then the debounce and the build), and a pass over 10,000 files — about 13 ms of CPU here, 10 of
    /// them the system calls — twice a second costs under 3% of one core. Network shares stat more slowly:
    /// `--poll=MS` trades latency for load.
    public static let defaultInterval: TimeInterval = 0.5
    /// How long a batch of changes waits for more, for every watcher: long enough for an editor's save (a write,
    /// or a temporary file renamed into place, both within a millisecond or two) to be one batch, short enough
    /// to be a small part of the 100 ms a live reload may take.
    public static let defaultDebounce: TimeInterval = 0.03
    /// How long a batch waits once every file in it was last seen completing a write (`ChangeBatcher`): long enough
    /// for the next file of a save-all begun at the same moment.
    public static let defaultSettled: TimeInterval = 0.005

    public let scope: WatchScope
    public let interval: TimeInterval
    public let debounce: TimeInterval
    public let maximumDelay: TimeInterval
    private let onChange: @Sendable (Set<String>) -> Void

    /// One entry at the last look; a folder keeps its own listing.
    struct Entry {
        var signature: Signature
        var listing: Listing?
    }

    /// A folder's entries in the order `readdir` gave them, which stays the same while the folder does: the
    /// next look compares names position by position and needs a by-name index only when they differ.
    struct Listing {
        var names: [String] = []
        var entries: [Entry] = []
    }

    /// The last look: the watched paths and the folders on the way to them, by relative path. Only the
    /// watching thread touches it once started.
    private var known: [String: Entry] = [:]
    private let condition = NSCondition()
    private var running = false
    private var stopping = false

    public init(
        scope: WatchScope, interval: TimeInterval = PollingWatcher.defaultInterval, debounce: TimeInterval = PollingWatcher.defaultDebounce,
        maximumDelay: TimeInterval = 1,
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
        _ = pass()
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
        var changes = Set<String>()
        known = look(reporting: &changes)
        return changes
    }

    /// The last look as signatures by relative path (for tests).
    func snapshot() -> [String: Signature] {
        var flat: [String: Signature] = [:]
        func add(_ listing: Listing, under prefix: String) {
            for (name, entry) in zip(listing.names, listing.entries) {
                flat[prefix + "/" + name] = entry.signature
                if let inner = entry.listing { add(inner, under: prefix + "/" + name) }
            }
        }
        for (path, entry) in known {
            flat[path] = entry.signature
            if let listing = entry.listing { add(listing, under: path) }
        }
        return flat
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

    /// Every watched path and everything below it that the scope doesn't ignore, compared with `known` as it
    /// goes: what appeared, vanished or changed is added to `changes` (a folder that appeared or was replaced
    /// alone, not what is in it). Full paths are only made for changes; entries are keyed by their name.
    private func look(reporting changes: inout Set<String>) -> [String: Entry] {
        var found: [String: Entry] = [:]
        // The folders on the way to a deep watched path, to see them appear or vanish as inotify does; then
        // the watched paths themselves, followed through a symlink as inotify's watch on them is.
        let tops = scope.parents.keys.filter { !$0.isEmpty }.map { ($0, false) } + scope.paths.map { ($0, true) }
        for (path, watched) in tops {
            var info = stat()
            guard stat(scope.url(path).path, &info) == 0 else {
                if known[path] != nil { changes.insert(path) }
                continue
            }
            let signature = Signature(info)
            let before = known[path]
            if before == nil || signature.differs(from: before!.signature) { changes.insert(path) }
            var listing: Listing?
            if watched && signature.isFolder {
                let unchanged = before.map { !signature.differs(from: $0.signature) } ?? false
                listing = list(scope.url(path).path, as: path, against: unchanged ? before?.listing ?? Listing() : nil, reporting: &changes)
            }
            found[path] = Entry(signature: signature, listing: listing)
        }
        return found
    }

    /// The entries of `folder` (`relative` to the root), compared with `old` when given: each entry that is
    /// new, gone or changed goes into `changes`. Without `old` (a folder that just appeared) nothing is.
    private func list(_ folder: String, as relative: String, against old: Listing?, reporting changes: inout Set<String>) -> Listing {
        var listing = Listing()
        guard let directory = opendir(folder) else {
            if let old, !old.names.isEmpty { changes.insert(relative) }
            return listing
        }
        defer { closedir(directory) }
        let previous = old ?? Listing()
        listing.names.reserveCapacity(previous.names.count)
        listing.entries.reserveCapacity(previous.names.count)
        let descriptor = dirfd(directory)
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        var cursor = 0
        var positions: [String: Int]?
        var matched = 0
        while let record = readdir(directory) {
            let namePointer = UnsafeRawPointer(record).advanced(by: nameOffset).assumingMemoryBound(to: UInt8.self)
            let bytes = UnsafeBufferPointer(start: namePointer, count: strlen(namePointer))
            // "." and ".." start with a dot, so the ignore rules skip them too.
            if IgnoredNames.contains(utf8: bytes) { continue }
            var info = stat()
            guard fstatat(descriptor, namePointer, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            let signature = Signature(info)
            // The entry at the same place last time, usually this one: then its name is reused as it is.
            let name: String
            var index: Int?
            if cursor < previous.names.count && Self.equal(previous.names[cursor], bytes) {
                name = previous.names[cursor]
                index = cursor
            } else {
                name = String(decoding: bytes, as: UTF8.self)
                if positions == nil {
                    positions = Dictionary(zip(previous.names, previous.names.indices), uniquingKeysWith: { first, _ in first })
                }
                index = positions?[name]
            }
            var inner: Listing?
            if let index {
                cursor = index + 1
                matched += 1
                let before = previous.entries[index]
                if signature.differs(from: before.signature) {
                    if old != nil { changes.insert(relative + "/" + name) }
                } else {
                    inner = before.listing ?? Listing()
                }
            } else if old != nil {
                changes.insert(relative + "/" + name)
            }
            let child = signature.isFolder ? list(folder + "/" + name, as: relative + "/" + name, against: old == nil ? nil : inner, reporting: &changes) : nil
            listing.names.append(name)
            listing.entries.append(Entry(signature: signature, listing: child))
        }
        if old != nil && matched < previous.names.count {
            let present = Set(listing.names)
            for name in previous.names where !present.contains(name) { changes.insert(relative + "/" + name) }
        }
        return listing
    }

    /// Whether `name` is spelled by `bytes`.
    private static func equal(_ name: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var name = name
        return name.withUTF8 { stored in stored.count == bytes.count && (bytes.isEmpty || memcmp(stored.baseAddress!, bytes.baseAddress!, bytes.count) == 0) }
    }
}
