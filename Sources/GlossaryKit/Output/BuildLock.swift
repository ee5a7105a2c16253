import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Serialises builds of one site: an exclusive `flock` on `.glossary/build/lock`, held for the whole build
/// and released when the process ends, however it ends.
public final class BuildLock: @unchecked Sendable {
    private let descriptor: Int32

    public enum Failure: Error, Sendable, Equatable {
        /// Another build holds the lock and the caller chose not to wait; its pid when known.
        case busy(holder: Int32?)
        case cannotOpen(path: String, reason: String)
    }

    /// Takes the lock in `folder`, waiting for another build to finish unless `wait` is false; `waiting` hears
    /// once that it is waiting (with the other build's pid when known).
    public init(folder: URL, wait: Bool, waiting: (Int32?) -> Void = { _ in }) throws(Failure) {
        let path = folder.appendingPathComponent("lock").path
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .cannotOpen(path: path, reason: String(cString: strerror(errno)).lowercased()) }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let holder = Self.holder(descriptor)
            guard wait else {
                close(descriptor)
                throw .busy(holder: holder)
            }
            waiting(holder)
            while flock(descriptor, LOCK_EX) != 0 {
                guard errno == EINTR else {
                    let reason = String(cString: strerror(errno)).lowercased()
                    close(descriptor)
                    throw .cannotOpen(path: path, reason: reason)
                }
            }
        }
        self.descriptor = descriptor
        // Who holds it, for the message another build prints while it waits.
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pwrite(descriptor, pid, pid.count, 0)
    }

    deinit {
        _ = ftruncate(descriptor, 0)
        close(descriptor)
    }

    private static func holder(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = pread(descriptor, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        return Int32(String(decoding: buffer[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
