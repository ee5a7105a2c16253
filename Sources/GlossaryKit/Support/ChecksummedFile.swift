import Foundation

/// A binary file with a checksum at its end (the fingerprint of the rest, padded to 32 bytes), written
/// atomically: the build manifest and the build snapshot. A file cut short, damaged or half-written reads as nil.
enum ChecksummedFile {
    /// The bytes before the checksum, when the file is at least `minimum` bytes plus the checksum and it matches.
    static func read(_ url: URL, minimum: Int) -> [UInt8]? {
        guard case .success(let data) = FileContents.read(url.path), data.count > minimum + 32 else { return nil }
        let bytes = [UInt8](data)
        let body = Array(bytes.dropLast(32))
        var tail = BinaryReader(Array(bytes.suffix(32)))
        guard let checksum = try? tail.fingerprint(), checksum == Fingerprint.of(bytes: body) else { return nil }
        return body
    }

    /// Writes `bytes` and their checksum to a temporary file beside `url`, then renames it into place; whether it
    /// is there.
    @discardableResult
    static func write(_ bytes: [UInt8], to url: URL) -> Bool {
        var tail = BinaryWriter(capacity: 32)
        tail.write(Fingerprint.of(bytes: bytes))
        // Fixed width for the checksum: pad the varints to 32 bytes.
        let file = bytes + tail.bytes + [UInt8](repeating: 0, count: 32 - tail.bytes.count)
        let folder = url.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        do throws(OutputFailure) {
            try SiteTransaction.writeFile(Data(file), to: temporary.path)
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
