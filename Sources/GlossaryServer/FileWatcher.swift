import Foundation

/// Watches a site's sources — `content/`, `themes/` and `glossary.yml` — with inotify, and reports changes
/// in debounced batches.
///
/// inotify is not recursive: every folder gets its own watch, and a folder that appears (created or moved in)
/// is scanned and watched at once, since files may land in it before its watch exists. A folder moved away
/// loses its watches; an event queue overflow rescans everything. Editor droppings (`.swp`, `~`, `4913`,
/// `.#name`, `#name#`) and dotfiles — which the build skips too — are ignored. Symlinked folders are not
/// followed. A batch is reported once no event has arrived for `debounce` seconds (or after `maximumDelay`
/// of continuous events), so a burst of writes — a `git checkout`, a save-all — is one rebuild.
public final class FileWatcher: @unchecked Sendable {
    public let root: URL
    public let debounce: TimeInterval
    public let maximumDelay: TimeInterval
    private let onChange: @Sendable (Set<String>) -> Void

    private var inotify: Int32 = -1
    private var wake: (read: Int32, write: Int32) = (-1, -1)
    /// Watch descriptor → folder path relative to the root (`""` for the root itself).
    private var folders: [Int32: String] = [:]
    private var thread: Thread?
    private let stopped = NSCondition()
    private var running = false

    static let watchedTopLevel: Set<String> = ["content", "themes", "glossary.yml"]
    private static let folderMask = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE | IN_MODIFY | IN_ATTRIB | IN_ONLYDIR)

    public init(root: URL, debounce: TimeInterval = 0.075, maximumDelay: TimeInterval = 1, onChange: @escaping @Sendable (Set<String>) -> Void) {
        self.root = root.standardizedFileURL
        self.debounce = debounce
        self.maximumDelay = maximumDelay
        self.onChange = onChange
    }

    deinit {
        stop()
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Sets up the watches and starts the watching thread.
    public func start() throws(Failure) {
        try open()
        running = true
        let thread = Thread { [self] in run() }
        thread.name = "glossary file watcher"
        self.thread = thread
        thread.start()
    }

    /// Creates the inotify instance and the watches (the thread comes with `start()`).
    func open() throws(Failure) {
        inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard inotify >= 0 else { throw Failure(description: "can't watch files: inotify_init1: \(String(cString: strerror(errno)))") }
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            close(inotify)
            inotify = -1
            throw Failure(description: "can't watch files: pipe: \(String(cString: strerror(errno)))")
        }
        wake = (pipeEnds[0], pipeEnds[1])
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        watchAll()
    }

    /// Stops watching and waits for the watching thread to finish; no report is made after it returns.
    public func stop() {
        stopped.lock()
        if running {
            var byte: UInt8 = 1
            _ = write(wake.write, &byte, 1)
            while running { stopped.wait() }
        }
        stopped.unlock()
        guard inotify >= 0 else { return }
        close(inotify)
        close(wake.read)
        close(wake.write)
        inotify = -1
    }

    // MARK: The watching thread

    private func run() {
        var pending = Set<String>()
        var first = Date.distantFuture
        var last = Date.distantFuture
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        loop: while true {
            var timeout: Int32 = -1
            if !pending.isEmpty {
                let deadline = min(last.addingTimeInterval(debounce), first.addingTimeInterval(maximumDelay))
                timeout = Int32(max(0, (deadline.timeIntervalSinceNow * 1000).rounded(.up)))
            }
            var descriptors = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0), pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&descriptors, 2, timeout)
            if ready < 0 && errno == EINTR { continue }
            if descriptors[1].revents != 0 { break loop }
            if ready == 0 || descriptors[0].revents == 0 {
                if !pending.isEmpty {
                    onChange(pending)
                    pending = []
                }
                continue
            }
            let changes = readAvailable(into: &buffer)
            if !changes.isEmpty {
                if pending.isEmpty { first = Date() }
                last = Date()
                pending.formUnion(changes)
            }
        }
        stopped.withLock {
            running = false
            stopped.broadcast()
        }
    }

    /// Reads every event queued now (the descriptor doesn't block) and returns the changed paths.
    func readAvailable(into buffer: inout [UInt8]) -> Set<String> {
        var changes = Set<String>()
        while true {
            let count = read(inotify, &buffer, buffer.count)
            guard count > 0 else { break }
            changes.formUnion(handle(buffer[..<count]))
        }
        return changes
    }

    /// Throws away the queued events unread: what the kernel does when its queue overflows (for tests).
    func discardAvailable() {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while read(inotify, &buffer, buffer.count) > 0 {}
    }

    /// Reads a buffer of `inotify_event`s (a fixed part, then `len` bytes of name) and returns changed paths.
    func handle(_ bytes: ArraySlice<UInt8>) -> Set<String> {
        var changes = Set<String>()
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
                changes.insert("*")
                continue
            }
            if mask & UInt32(IN_IGNORED) != 0 {
                folders[event.wd] = nil
                continue
            }
            guard let folder = folders[event.wd], !name.isEmpty else { continue }
            let path = folder.isEmpty ? name : folder + "/" + name
            if folder.isEmpty && !Self.watchedTopLevel.contains(name) { continue }
            if Self.isIgnored(name) { continue }
            if mask & UInt32(IN_ISDIR) != 0 {
                if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 { watchTree(path) }
                if mask & UInt32(IN_MOVED_FROM) != 0 { unwatchTree(path) }
                if mask & UInt32(IN_ATTRIB | IN_CLOSE_WRITE | IN_MODIFY) != 0 { continue }
            }
            changes.insert(path)
        }
        return changes
    }

    /// Editor temp and backup files, and dotfiles.
    static func isIgnored(_ name: String) -> Bool {
        name.hasPrefix(".") || name.hasSuffix("~") || name == "4913" || name.hasSuffix(".swp") || name.hasSuffix(".swx")
            || name.hasSuffix(".swo") || (name.hasPrefix("#") && name.hasSuffix("#"))
    }

    // MARK: Watches

    private func watchAll() {
        add("")
        for name in ["content", "themes"] { watchTree(name) }
    }

    private func rewatchAll() {
        for descriptor in folders.keys { inotify_rm_watch(inotify, descriptor) }
        folders = [:]
        watchAll()
    }

    @discardableResult
    private func add(_ folder: String) -> Bool {
        let url = folder.isEmpty ? root : root.appendingPathComponent(folder, isDirectory: true)
        // Below the top level, never through a symlink (the walk doesn't follow them either).
        let mask = folder.contains("/") ? Self.folderMask | UInt32(IN_DONT_FOLLOW) : Self.folderMask
        let descriptor = inotify_add_watch(inotify, url.path, mask)
        guard descriptor >= 0 else { return false }
        folders[descriptor] = folder
        return true
    }

    /// Watches `folder` and every folder below it (not through symlinks, not dot-folders).
    private func watchTree(_ folder: String) {
        guard add(folder) else { return }
        let url = root.appendingPathComponent(folder, isDirectory: true)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) else { return }
        for name in names where !Self.isIgnored(name) {
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
