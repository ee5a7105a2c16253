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
    static func write(_ body: consuming [UInt8], to url: URL) -> Bool {
        var file = body
        var tail = BinaryWriter(capacity: 32)
        tail.write(Fingerprint.of(bytes: file))
        // Fixed width for the checksum: pad the varints to 32 bytes. Appended in place, so the file is never
        // in memory twice (the manifest of a 10,000-page site is tens of megabytes).
        file.append(contentsOf: tail.bytes)
        file.append(contentsOf: repeatElement(0, count: 32 - tail.bytes.count))
        let folder = url.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        do throws(OutputFailure) {
            try file.withUnsafeBytes { bytes in Result { () throws(OutputFailure) in try SiteTransaction.writeFile(bytes, to: temporary.path) } }.get()
            guard rename(temporary.path, url.path) == 0 else {
                unlink(temporary.path)
                return false
            }
            return true
        } catch {
            unlink(temporary.path)
            return false
        }
    }
}
