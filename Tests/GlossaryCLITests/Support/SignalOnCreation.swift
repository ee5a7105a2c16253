import Foundation

/// Sends a signal to a process the moment a name starting with a prefix appears in a folder: inotify read on a
/// thread of its own, so neither a busy machine nor a test pool held by other tests can make it late.
final class SignalOnCreation: @unchecked Sendable {
    private let descriptor: Int32
    private let lock = NSLock()
    private var target: pid_t = 0
    private var seen = false
    private var stopped = false
    private let signal: Int32

    /// Watches `folder` (which must exist) from now on.
    init(folder: URL, prefix: String, signal: Int32) throws {
        self.signal = signal
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0, inotify_add_watch(descriptor, folder.path, UInt32(IN_CREATE | IN_MOVED_TO)) >= 0 else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: folder.path])
        }
        Thread { [self] in watch(prefix: Array(prefix.utf8)) }.start()
    }

    /// The process to signal; if the name has already appeared, it is signalled at once.
    func arm(_ pid: pid_t) {
        let now = lock.withLock { () -> Bool in
            target = pid
            return seen
        }
        if now { kill(pid, signal) }
    }

    /// Whether the name appeared (and so the signal was sent once armed).
    var fired: Bool { lock.withLock { seen } }

    func stop() { lock.withLock { stopped = true } }

    private func watch(prefix: [UInt8]) {
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while !lock.withLock({ stopped }) {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 50) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { continue }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let (length, name) = buffer.withUnsafeBytes { bytes -> (Int, [UInt8]) in
                    let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    let start = offset + MemoryLayout<inotify_event>.size
                    let raw = bytes[start..<start + Int(event.len)]
                    return (Int(event.len), Array(raw.prefix { $0 != 0 }))
                }
                offset += MemoryLayout<inotify_event>.size + length
                guard name.starts(with: prefix) else { continue }
                let pid = lock.withLock { () -> pid_t in
                    seen = true
                    return target
                }
                if pid > 0 { kill(pid, signal) }
                return
            }
        }
    }
}
