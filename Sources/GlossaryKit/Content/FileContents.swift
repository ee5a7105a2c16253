import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads whole files with plain system calls, saying why when it can't: Foundation's readers give no
/// reason on Linux, and would block forever on a FIFO that slipped in.
public enum FileContents {
    /// The bytes of the regular file at `path`, or the reason they can't be had (the system's own words).
    public static func read(_ path: String) -> Result<Data, ReadFailure> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return .failure(ReadFailure(errno: errno)) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failure(ReadFailure(errno: errno)) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure(ReadFailure(reason: "not a regular file")) }
        var data = Data(count: Int(info.st_size))
        var total = 0
        while true {
            if total == data.count { data.count += max(4096, data.count / 2) }
            let count = data.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress! + total, buffer.count - total)
            }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(ReadFailure(errno: errno))
            }
            if count == 0 { break }
            total += count
        }
        data.count = total
        return .success(data)
    }

    /// Why a file could not be read.
    public struct ReadFailure: Error, Sendable, CustomStringConvertible {
        public var reason: String
        /// The system's error number, when a system call failed.
        public var code: Int32?

        public init(reason: String) {
            self.reason = reason
        }

        init(errno code: Int32) {
            reason = String(cString: strerror(code)).lowercased()
            self.code = code
        }

        /// Whether the file simply isn't there.
        public var isMissing: Bool { code == ENOENT || code == ENOTDIR }

        public var description: String { reason }
    }
}
