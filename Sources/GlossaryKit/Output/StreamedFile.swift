import Foundation

/// A file handed to an output sink a piece at a time (`OutputSink.write(_:fingerprint:streaming:)`), so that it is
/// never whole in memory: its bytes go to the file a block at a time as they are appended (or are kept, for a sink
/// that keeps files in memory), and are fingerprinted as they pass. A file made of many records appends one record
/// at a time (`GlossaryJSONExport.write`, `GlossaryCSVExport.write`).
public struct StreamedFile: ~Copyable, TextOutput {
    /// The most bytes gathered before they are written to the file.
    static let blockSize = 1 << 16
    private var buffer = GrowingBytes(capacity: blockSize)
    /// Where the bytes go; nil keeps them.
    private let descriptor: Int32?
    private var fingerprint = StreamingFingerprint()
    /// The errno of the first write that failed; nothing more is written after it.
    private var failure: Int32 = 0
    /// How many bytes were appended so far.
    private(set) var byteCount = 0

    /// Bytes written to `descriptor`, which the caller opens and closes.
    init(descriptor: Int32) { self.descriptor = descriptor }

    /// Bytes kept in memory (`data()`).
    init() { descriptor = nil }

    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        byteCount += bytes.count
        fingerprint.combine(UnsafeRawBufferPointer(bytes))
        buffer.append(bytes)
        if buffer.count >= Self.blockSize { flush() }
    }

    /// Appends the bytes of `file` in `range` (which must lie within it), read a block at a time; a file cut short since
    /// it was opened fails the write (`EIO`).
    mutating func append(_ range: Range<Int>, of file: ReadOnlyFile) {
        var offset = range.lowerBound
        while offset < range.upperBound && failure == 0 {
            let block = file.bytes(offset..<min(offset + ReadOnlyFile.blockSize, range.upperBound))
            guard !block.isEmpty else {
                failure = EIO
                return
            }
            block.withUnsafeBufferPointer { append($0) }
            offset += block.count
        }
    }

    private mutating func flush() {
        guard let descriptor else { return }
        if failure == 0 { failure = buffer.withUnsafeBytes { FileContents.writeAll($0, to: descriptor) } }
        buffer.removeAll()
    }

    /// Writes what is left: the fingerprint of every byte (`Fingerprint.of(bytes:)` of the whole), and 0 or the errno of
    /// the write that failed.
    consuming func finish() -> (Fingerprint, failure: Int32) {
        flush()
        return (fingerprint.finish(), failure)
    }

    /// The bytes kept.
    consuming func data() -> Data {
        buffer.data()
    }
}

extension StreamingFingerprint: TextOutput {
    var byteCount: Int { Int(bytes) }

    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) { combine(UnsafeRawBufferPointer(bytes)) }
}
