import Foundation

/// A binary file with a checksum at its end (the fingerprint of the rest, padded to 32 bytes), written
/// atomically: the build manifest and the build snapshot. A file cut short, damaged or half-written reads as nil.
enum ChecksummedFile {
    /// The bytes before the checksum, when the file is at least `minimum` bytes plus the checksum and it matches.
    static func read(_ url: URL, minimum: Int) -> [UInt8]? {
        guard case .success(var bytes) = FileContents.bytes(url.path), bytes.count > minimum + 32 else { return nil }
        let bodyCount = bytes.count - 32
        var tail = BinaryReader(Array(bytes[bodyCount...]))
        guard let checksum = try? tail.fingerprint(), checksum == Fingerprint.of(bytes: bytes[..<bodyCount]) else { return nil }
        // In place: the file's bytes are the body, without a copy of it.
        bytes.removeLast(32)
        return bytes
    }

    /// Writes `bytes` and their checksum to a temporary file beside `url`, then renames it into place; whether it
    /// is there.
    @discardableResult
    static func write(_ body: [UInt8], to url: URL) -> Bool {
        guard let file = Writer(url) else { return false }
        file.buffer.write(raw: body)
        return file.commit()
    }

    /// A checksummed file written as it is made: what is written to `buffer` goes to a temporary file beside
    /// the destination a megabyte at a time (`flushIfFull`), checksummed as it goes, so the whole file is never in
    /// memory (the manifest of a 10,000-page site is 14 MB). `commit` adds the checksum and renames the file into
    /// place; a writer dropped without it removes the temporary file.
    final class Writer {
        var buffer = BinaryWriter(capacity: Writer.pieceSize + (64 << 10))
        static let pieceSize = 1 << 20
        private let url: URL
        private let temporary: String
        private var descriptor: Int32
        private var checksum = StreamingFingerprint()
        private var failed = false

        /// `temporaryTag` tells apart two writers of one file in one process.
        init?(_ url: URL, temporaryTag: String = "") {
            let folder = url.deletingLastPathComponent()
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            self.url = url
            temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(getpid())\(temporaryTag).tmp").path
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

        private func flush() {
            buffer.withBytes { bytes in
                checksum.append(bytes)
                if !failed { failed = SiteTransaction.writeAll(bytes, to: descriptor) != 0 }
            }
            buffer.removeAll()
        }

        /// The checksum written after the rest, and the file renamed into place; whether it is there.
        func commit() -> Bool {
            flush()
            var tail = BinaryWriter(capacity: 32)
            tail.write(checksum.finish())
            // Fixed width for the checksum: the varints padded to 32 bytes.
            tail.write(raw: [UInt8](repeating: 0, count: 32 - tail.bytes.count))
            let written = !failed && tail.withBytes { SiteTransaction.writeAll($0, to: descriptor) } == 0
            close(descriptor)
            descriptor = -1
            guard written, rename(temporary, url.path) == 0 else {
                unlink(temporary)
                return false
            }
            return true
        }
    }
}
