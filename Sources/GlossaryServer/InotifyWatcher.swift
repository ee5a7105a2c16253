import Foundation
import GlossaryKit

/// Watches a scope with inotify.
///
/// inotify is not recursive: every folder gets its own watch, and a folder that appears (created or moved in)
/// is scanned and watched at once, since files may land in it before its watch exists. A folder moved away
/// loses its watches; an event queue overflow rescans everything and reports `*`. The folders on the way to a
/// watched path are watched for that path alone. Symlinked folders below a watched path are not followed.
///
/// When a watch can't be added — the system's watch limit is reached (`ENOSPC`), or another error than the
/// folder having gone — `start()` throws, or, while running, the watcher stops and tells `onFailure`: it
/// would otherwise miss changes without a word.
public final class InotifyWatcher: FileWatcher, @unchecked Sendable {
    public let scope: WatchScope
    public let debounce: TimeInterval
    /// The debounce of a batch whose files were all last seen completing a write (`ChangeBatcher`).
    public let settled: TimeInterval
    public let maximumDelay: TimeInterval
    private let onChange: @Sendable (Set<String>) -> Void
    private let onFailure: @Sendable (WatchFailure) -> Void
    /// For tests: adding a watch beyond this many fails as the kernel's limit would (`ENOSPC`).
    var watchLimit: Int?

    private var inotify: Int32 = -1
    private var wake: (read: Int32, write: Int32) = (-1, -1)
    /// Watch descriptor → folder path relative to the root (`""` for the root itself).
    private var folders: [Int32: String] = [:]
    /// The first watch that could not be added (the watcher can no longer see everything).
    private var failure: WatchFailure?
    /// Watches held now (for tests, between `open()` and `start()`).
    var watchCount: Int { folders.count }
    private let stopped = NSCondition()
    private var running = false

    private static let folderMask = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE | IN_MODIFY | IN_ATTRIB | IN_ONLYDIR)

    public init(
        scope: WatchScope, debounce: TimeInterval = PollingWatcher.defaultDebounce, settled: TimeInterval = PollingWatcher.defaultSettled,
        maximumDelay: TimeInterval = 1,
        onChange: @escaping @Sendable (Set<String>) -> Void,
        onFailure: @escaping @Sendable (WatchFailure) -> Void = { _ in }
    ) {
        self.scope = scope
        self.debounce = debounce
        self.settled = settled
        self.maximumDelay = maximumDelay
        self.onChange = onChange
        self.onFailure = onFailure
    }

    deinit {
        stop()
    }

    /// Sets up the watches and starts the watching thread.
    public func start() throws(WatchFailure) {
        try open()
        stopped.withLock { running = true }
        let thread = Thread { [self] in run() }
        thread.name = "glossary inotify watcher"
        thread.start()
    }

    /// Creates the inotify instance and the watches (the thread comes with `start()`).
    func open() throws(WatchFailure) {
        inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard inotify >= 0 else { throw WatchFailure(Self.explain("inotify_init1", errno)) }
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            let code = errno
            closeDescriptors()
            throw WatchFailure(Self.explain("pipe", code))
        }
        wake = (pipeEnds[0], pipeEnds[1])
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        watchAll()
        if let failure {
            closeDescriptors()
            throw failure
        }
    }

    public func stop() {
        stopped.lock()
        if running {
            var byte: UInt8 = 1
            _ = write(wake.write, &byte, 1)
            while running { stopped.wait() }
        }
        stopped.unlock()
        closeDescriptors()
    }

    private func closeDescriptors() {
        for descriptor in [inotify, wake.read, wake.write] where descriptor >= 0 { close(descriptor) }
        inotify = -1
        wake = (-1, -1)
        folders = [:]
    }

    /// `call: reason`, with what the limits behind `ENOSPC` and `EMFILE` are called.
    static func explain(_ call: String, _ code: Int32, path: String? = nil) -> String {
        let subject = path.map { "\(call) \($0.isEmpty ? "." : $0)" } ?? call
        var text = "\(subject): \(String(cString: strerror(code)))"
        if code == ENOSPC { text += " — the system's limit on inotify watches (fs.inotify.max_user_watches) is reached" }
        if code == EMFILE && call == "inotify_init1" {
            text += " — the limit on inotify instances (fs.inotify.max_user_instances) or on open files is reached"
        }
        return text
    }

    // MARK: The watching thread

    private func run() {
        var batcher = ChangeBatcher(debounce: debounce, settled: settled, maximumDelay: maximumDelay)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            var timeout: Int32 = -1
            if let deadline = batcher.deadline {
                let (seconds, attoseconds) = ContinuousClock.now.duration(to: deadline).components
                timeout = Int32(clamping: max(0, seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000))
            }
            var descriptors = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0), pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&descriptors, 2, timeout)
            if ready < 0 && errno == EINTR { continue }
            if descriptors[1].revents != 0 { break }
            if ready > 0 && descriptors[0].revents != 0 {
                let changes = readAvailable(into: &buffer)
                batcher.add(changes.paths, completed: changes.completed)
            }
            if let failure {
                onFailure(failure)
                break
            }
            if let batch = batcher.take() { onChange(batch) }
        }
        stopped.withLock {
            running = false
            stopped.broadcast()
        }
    }

    /// Reads every event queued now (the descriptor doesn't block) and returns the changed paths.
    func readAvailable(into buffer: inout [UInt8]) -> Changes {
        var changes = Changes()
        while true {
            let count = read(inotify, &buffer, buffer.count)
            guard count > 0 else { break }
            changes.add(handle(buffer[..<count]))
        }
        return changes
    }

    /// Changed paths, and which of them were last seen completing a write: a file closed after writing, or moved into
    /// place.
    struct Changes: Equatable {
        var paths: Set<String> = []
        var completed: Set<String> = []

        /// Adds later changes.
        mutating func add(_ later: Changes) {
            paths.formUnion(later.paths)
            completed.subtract(later.paths)
            completed.formUnion(later.completed)
        }
    }

    /// Throws away the queued events unread: what the kernel does when its queue overflows (for tests).
    func discardAvailable() {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while read(inotify, &buffer, buffer.count) > 0 {}
    }

    /// Reads a buffer of `inotify_event`s (a fixed part, then `len` bytes of name) and returns changed paths.
    func handle(_ bytes: ArraySlice<UInt8>) -> Changes {
        var changes = Changes()
        var offset = bytes.startIndex
        let headerSize = MemoryLayout<inotify_event>.size
        while offset + headerSize <= bytes.endIndex {
            let event = bytes.withUnsafeBytes { raw in raw.loadUnaligned(fromByteOffset: offset - bytes.startIndex, as: inotify_event.self) }
            let nameStart = offset + headerSize
            let nameEnd = min(nameStart + Int(event.len), bytes.endIndex)
            let name = String(decoding: bytes[nameStart..<nameEnd].prefix { $0 != 0 }, as: UTF8.self)
            offset = nameEnd
            let mask = event.mask
            if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                rewatchAll()
                changes.paths.insert("*")
                changes.completed.remove("*")
                continue
            }
            if mask & UInt32(IN_IGNORED) != 0 {
                folders[event.wd] = nil
                continue
            }
            guard let folder = folders[event.wd], !name.isEmpty else { continue }
            let path = folder.isEmpty ? name : folder + "/" + name
            // In a folder on the way to a watched path only that path's next name matters; below one, every
            // name but the ignored ones.
            if let names = scope.parents[folder] {
                guard names.contains(name) else { continue }
            } else if IgnoredNames.contains(name) {
                continue
            }
            if mask & UInt32(IN_ISDIR) != 0 {
                if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 { watchTree(path) }
                if mask & UInt32(IN_MOVED_FROM | IN_DELETE) != 0 { unwatchTree(path) }
                if mask & UInt32(IN_ATTRIB | IN_CLOSE_WRITE | IN_MODIFY) != 0 { continue }
            }
            changes.paths.insert(path)
            if mask & UInt32(IN_ISDIR) == 0 && mask & UInt32(IN_CLOSE_WRITE | IN_MOVED_TO) != 0 {
                changes.completed.insert(path)
            } else {
                changes.completed.remove(path)
            }
        }
        return changes
    }

    // MARK: Watches

    private func watchAll() {
        for folder in scope.parents.keys.sorted() { add(folder) }
        for path in scope.paths { watchTree(path) }
    }

    private func rewatchAll() {
        for descriptor in folders.keys { inotify_rm_watch(inotify, descriptor) }
        folders = [:]
        watchAll()
    }

    /// Adds a watch on `folder`; false if it is not there to watch (or the watch failed, noted in `failure`).
    @discardableResult
    private func add(_ folder: String) -> Bool {
        guard failure == nil else { return false }
        // Below a watched path, never through a symlink (the build's scan doesn't follow them either).
        let inside = scope.parents[folder] == nil && !scope.paths.contains(folder)
        let mask = inside ? Self.folderMask | UInt32(IN_DONT_FOLLOW) : Self.folderMask
        let descriptor: Int32
        if let watchLimit, folders.count >= watchLimit {
            descriptor = -1
            errno = ENOSPC
        } else {
            descriptor = inotify_add_watch(inotify, scope.url(folder).path, mask)
        }
        guard descriptor >= 0 else {
            // Gone, replaced by a file or a link, or unreadable (the build can't read it either): nothing to
            // watch. Anything else means changes would go unseen.
            if ![ENOENT, ENOTDIR, EACCES, ELOOP].contains(errno) { failure = WatchFailure(Self.explain("inotify_add_watch", errno, path: folder)) }
            return false
        }
        folders[descriptor] = folder
        return true
    }

    /// Watches `folder` and every folder below it that belongs to the scope (not through symlinks, not
    /// dot-folders); a folder on the way to a watched path gets only the watches towards it.
    private func watchTree(_ folder: String) {
        guard add(folder) else { return }
        let url = scope.url(folder)
        if let names = scope.parents[folder] {
            for name in names.sorted() {
                let path = folder.isEmpty ? name : folder + "/" + name
                var info = stat()
                if stat(url.appendingPathComponent(name).path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { watchTree(path) }
            }
            return
        }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) else { return }
        for name in names.sorted() where !IgnoredNames.contains(name) {
            var info = stat()
            guard lstat(url.appendingPathComponent(name).path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { continue }
            watchTree(folder + "/" + name)
        }
    }

    private func unwatchTree(_ folder: String) {
        for (descriptor, path) in folders where path == folder || path.hasPrefix(folder + "/") {
            inotify_rm_watch(inotify, descriptor)
            folders[descriptor] = nil
        }
    }
}
