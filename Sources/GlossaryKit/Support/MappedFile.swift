import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A file mapped into memory read-only, unmapped once the last reference goes: a state file's records are read where
/// they lie, and only those a build needs.
final class MappedFile: @unchecked Sendable {
    // @unchecked: the mapping is read-only and never changes while mapped.
    private let base: UnsafeRawPointer
    let count: Int
    /// The file, open for reading while it is mapped (what `AtomicFile.copy` copies from).
    let descriptor: Int32

    init?(path: String) {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0,
            let mapped = mmap(nil, Int(info.st_size), PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED
        else {
            close(descriptor)
            return nil
        }
        base = UnsafeRawPointer(mapped)
        count = Int(info.st_size)
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: base), count)
        close(descriptor)
    }

    /// A copy of the bytes in `range` (which must lie within the file).
    func bytes(_ range: Range<Int>) -> [UInt8] {
        withBytes(range) { Array($0) }
    }

    func withBytes<T>(_ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        precondition(range.lowerBound >= 0 && range.upperBound <= count)
        return try body(UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self) + range.lowerBound, count: range.count))
    }
}
