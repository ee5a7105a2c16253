import Foundation

/// A markdown source's lines as cmark reads them, so node positions index into them: LF, CRLF or a lone CR end a
/// line (the ending is not part of it), and a NUL byte is U+FFFD. Element `k` is line `k + 1`.
///
/// All lines share one buffer: a page of a million lines made a million arrays, a tenth of its build in allocating
/// and freeing them. A line is a view into the buffer, valid while the `SourceLines` that gave it is alive.
final class SourceLines: RandomAccessCollection, @unchecked Sendable {
    private let storage: UnsafeMutableBufferPointer<UInt8>
    /// Where line `k` starts in `storage` (`bounds[2k]`) and ends (`bounds[2k + 1]`).
    private let bounds: [Int]

    init(_ source: String) {
        var source = source
        (storage, bounds) = source.withUTF8 { bytes in
            if let plain = Self.plainLines(bytes) { return plain }
            var nuls = 0
            for byte in bytes where byte == 0 { nuls += 1 }
            // Each NUL becomes three bytes.
            let storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count + 2 * nuls)
            var bounds: [Int] = [0]
            var length = 0
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if byte == 0 {
                    storage[length] = 0xEF
                    storage[length + 1] = 0xBF
                    storage[length + 2] = 0xBD
                    length += 3
                    continue
                }
                storage[length] = byte
                length += 1
                guard byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") else { continue }
                // The line ends before its ending; a CR followed by a LF is one ending.
                bounds.append(length - 1)
                if byte == UInt8(ascii: "\r"), index < bytes.count, bytes[index] == UInt8(ascii: "\n") {
                    storage[length] = UInt8(ascii: "\n")
                    length += 1
                    index += 1
                }
                bounds.append(length)
            }
            bounds.append(length)
            return (storage, bounds)
        }
    }

    /// The lines of a source with no NUL and no CR, the usual kind: the bytes copied whole and the line feeds found
    /// by `memchr` (nil for any other source).
    private static func plainLines(_ bytes: UnsafeBufferPointer<UInt8>) -> (UnsafeMutableBufferPointer<UInt8>, [Int])? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        guard memchr(base, 0, count) == nil, memchr(base, Int32(UInt8(ascii: "\r")), count) == nil else { return nil }
        let storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: count)
        storage.baseAddress!.initialize(from: base, count: count)
        var bounds: [Int] = [0]
        bounds.reserveCapacity(count / 24)
        var start = 0
        while start < count, let found = memchr(base + start, Int32(UInt8(ascii: "\n")), count - start) {
            let end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            bounds.append(end)
            bounds.append(end + 1)
            start = end + 1
        }
        bounds.append(count)
        return (storage, bounds)
    }

    deinit {
        storage.deallocate()
    }

    var startIndex: Int { 0 }
    var endIndex: Int { bounds.count / 2 }

    subscript(index: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: storage[bounds[2 * index]..<bounds[2 * index + 1]])
    }

    /// 1-based `line`, empty when there is no such line.
    func line(_ line: Int) -> UnsafeBufferPointer<UInt8> {
        line >= 1 && line <= count ? self[line - 1] : UnsafeBufferPointer(start: nil, count: 0)
    }
}
