import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A regular file open for reading, closed once the last reference goes: a state file, whose records are read where
/// they lie, and only those a build needs; a live output a text edit remakes (`SiteTransaction.file(_:as:)`).
///
/// Read with `pread`, not mapped: pages of a mapping once touched count as the process's memory until it is unmapped,
/// and a build reads most of its state's records once.
final class ReadOnlyFile: Sendable {
    let count: Int
    /// What `AtomicFile.copy` copies from.
    let descriptor: Int32
    /// The file's device and inode when it was opened.
    let identity: FileSignature.Identity

    init?(path: String) {
        // (Never waiting on a FIFO.)
        descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0 else {
            close(descriptor)
            return nil
        }
        count = Int(info.st_size)
        identity = FileSignature.Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    deinit { close(descriptor) }

    /// The bytes in `range` (which must lie within the file); fewer when the file was cut short since it was opened.
    func bytes(_ range: Range<Int>) -> [UInt8] {
        precondition(range.lowerBound >= 0 && range.upperBound <= count)
        return [UInt8](unsafeUninitializedCapacity: range.count) { buffer, initialized in
            initialized = 0
            while initialized < range.count {
                let read = pread(descriptor, buffer.baseAddress! + initialized, range.count - initialized, off_t(range.lowerBound + initialized))
                if read <= 0 { break }
                initialized += read
            }
        }
    }

    /// The fingerprint of its bytes (`Fingerprint.of(bytes:)`), read a block at a time; nil when it was cut short since
    /// it was opened.
    func fingerprint() -> Fingerprint? {
        var fingerprint = StreamingFingerprint()
        var offset = 0
        while offset < count {
            let block = bytes(offset..<min(offset + Self.blockSize, count))
            guard !block.isEmpty else { return nil }
            block.withUnsafeBytes { fingerprint.combine($0) }
            offset += block.count
        }
        return fingerprint.finish()
    }

    /// How many bytes `fingerprint` and `StreamedFile.append(_:of:)` read at a time.
    static let blockSize = 1 << 16
}
