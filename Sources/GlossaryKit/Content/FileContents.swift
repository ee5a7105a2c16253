import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads whole files with plain system calls, saying why when it can't: Foundation's readers give no
/// reason on Linux, and would block forever on a FIFO that slipped in.
public enum FileContents {
    /// The bytes of the regular file at `path`, or the reason they can't be had (the system's own words).
    public static func read(_ path: String) -> Result<Data, ReadFailure> {
        withRegularFile(path) { descriptor, size in readAll(descriptor, size: size) }
    }

    private static func readAll(_ descriptor: Int32, size: Int) -> Result<Data, ReadFailure> {
        // One byte more than the size, so the read that finds the end needs no bigger buffer.
        var data = Data(count: size + 1)
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

    /// `read(_:)` into an array of bytes (what the binary readers work on), without a copy through `Data`.
    public static func bytes(_ path: String) -> Result<[UInt8], ReadFailure> {
        withRegularFile(path) { descriptor, size in readAllBytes(descriptor, size: size) }
    }

    /// Opens `path` for reading when it is a regular file (never waiting on a FIFO), and gives `body` its
    /// descriptor and size.
    private static func withRegularFile<T>(_ path: String, _ body: (Int32, Int) -> Result<T, ReadFailure>) -> Result<T, ReadFailure> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return .failure(ReadFailure(errno: errno)) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failure(ReadFailure(errno: errno)) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure(ReadFailure(reason: "not a regular file")) }
        return body(descriptor, Int(info.st_size))
    }

    private static func readAllBytes(_ descriptor: Int32, size: Int) -> Result<[UInt8], ReadFailure> {
        var failure: Int32 = 0
        // One byte more than the size: a file that grew meanwhile fills it, and the rest is read below.
        let room = size + 1
        var bytes = [UInt8](unsafeUninitializedCapacity: room) { buffer, initialized in
            initialized = 0
            while initialized < buffer.count {
                let count = Glibc.read(descriptor, buffer.baseAddress! + initialized, buffer.count - initialized)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if count == 0 { return }
                initialized += count
            }
        }
        if bytes.count == room {
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while failure == 0 {
                let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress!, $0.count) }
                if count < 0 {
                    if errno != EINTR { failure = errno }
                    continue
                }
                if count == 0 { break }
                bytes.append(contentsOf: chunk[..<count])
            }
        }
        if failure != 0 { return .failure(ReadFailure(errno: failure)) }
        return .success(bytes)
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
            reason = FileContents.reason(code)
            self.code = code
        }

        /// Whether the file simply isn't there.
        public var isMissing: Bool { code == ENOENT || code == ENOTDIR }

        public var description: String { reason }
    }
}

extension FileContents {
    /// The system's words for an error number, as messages show them.
    static func reason(_ code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }

    /// Writes `data` to a new file at `path` with plain open/write/close (a caller that needs the file to appear whole
    /// writes it under another name and renames it, or makes a whole folder appear at once); `sync` flushes it to the
    /// disk first. Returns the file's signature once written.
    @discardableResult
    static func write(_ data: Data, to path: String, sync: Bool = false) throws(OutputFailure) -> FileSignature? {
        try write(to: path, sync: sync) { descriptor in data.withUnsafeBytes { writeAll($0, to: descriptor) } }
    }

    /// `write(_:to:sync:)` of the bytes `body` writes to the file's descriptor, a piece at a time (`StreamedFile`);
    /// `body` returns 0, or the errno of the write that failed.
    static func write(to path: String, sync: Bool = false, _ body: (Int32) -> Int32) throws(OutputFailure) -> FileSignature? {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .write(path: path, reason: FileContents.reason(errno)) }
        defer { close(descriptor) }
        var failure = body(descriptor)
        if failure == 0 && sync && fsync(descriptor) != 0 { failure = errno }
        if failure != 0 { throw .write(path: path, reason: FileContents.reason(failure)) }
        var info = stat()
        return fstat(descriptor, &info) == 0 ? FileSignature(info) : nil
    }

    /// Writes every byte to `descriptor`, retrying interrupted writes; 0, or the errno of the write that failed.
    static func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32 {
        var offset = 0
        while offset < buffer.count {
            let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return 0
    }
}
