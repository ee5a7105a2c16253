import CSystem
import Foundation

/// A file written as it is made: what is written to `buffer` goes to a temporary file beside the destination a
/// megabyte at a time (`flushIfFull`), so the whole file is never in memory; `commit` renames it into place, so a
/// reader finds the old file or the new one, whole. A writer dropped without `commit` removes the temporary file.
final class AtomicFile {
    var buffer = BinaryWriter(capacity: AtomicFile.pieceSize + (64 << 10))
    static let pieceSize = 1 << 20
    /// How many bytes went to the file so far (the buffer's come after them).
    private(set) var written = 0
    private let url: URL
    private let temporary: String
    private var descriptor: Int32
    private var failed = false

    init?(_ url: URL) {
        let folder = url.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        self.url = url
        temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp").path
        descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return nil }
    }

    deinit {
        if descriptor >= 0 {
            close(descriptor)
            unlink(temporary)
        }
    }

    /// Writes out the buffer once it holds a piece's worth.
    func flushIfFull() {
        if buffer.bytes.count >= Self.pieceSize { flush() }
    }

    func flush() {
        buffer.withBytes { bytes in
            if !failed { failed = FileContents.writeAll(bytes, to: descriptor) != 0 }
            written += bytes.count
        }
        buffer.removeAll()
    }

    /// Appends `bytes` (after the buffer), written from where they are rather than copied into the buffer.
    func write(_ bytes: [UInt8]) {
        flush()
        bytes.withUnsafeBytes { if !failed { failed = FileContents.writeAll($0, to: descriptor) != 0 } }
        written += bytes.count
    }

    /// Appends `range` of `file` (after the buffer), copied by the kernel where it can.
    func copy(_ range: Range<Int>, of file: ReadOnlyFile) {
        flush()
        var done = 0
        while done < range.count && !failed {
            let copied = glossary_copy_range(file.descriptor, range.lowerBound + done, descriptor, range.count - done)
            if copied <= 0 { break }
            done += copied
        }
        if done < range.count && !failed {
            let rest = file.bytes(range.lowerBound + done..<range.upperBound)
            // A file cut short since it was opened: what is written would not be what the index says.
            if rest.count < range.count - done { failed = true }
            buffer.write(raw: rest)
            flush()
        }
        written += done
    }

    /// The file renamed into place once the rest is written; whether it is there.
    func commit() -> Bool {
        flush()
        close(descriptor)
        descriptor = -1
        guard !failed, rename(temporary, url.path) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }
}
