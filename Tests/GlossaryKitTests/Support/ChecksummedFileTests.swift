import Foundation
import TestSupport
import Testing

@testable import GlossaryKit

/// The checksummed files (manifest, snapshot) and the reads under them: whole files back byte for byte, anything
/// damaged or cut short as nothing.
@Suite struct ChecksummedFileTests {
    let folder: URL

    init() throws {
        folder = try InlineSite.temporaryFolder("glossary-checksummed")
    }

    static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var random = SeededRandom(seed: seed)
        return (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    }

    @Test(arguments: [0, 1, 4095, 4096, 65_537, 1 << 20])
    func filesReadBackAsTheyAreWhateverTheirSize(size: Int) throws {
        let url = folder.appendingPathComponent("file-\(size)")
        let written = Self.bytes(size, seed: UInt64(size))
        try Data(written).write(to: url)
        #expect(try FileContents.bytes(url.path).get() == written)
        #expect(try FileContents.read(url.path).get() == Data(written))
    }

    @Test func aFolderOrAMissingFileIsAReasonNotBytes() {
        guard case .failure(let folderFailure) = FileContents.bytes(folder.path) else {
            Issue.record("a folder read as bytes")
            return
        }
        #expect(folderFailure.description.contains("not a regular file"))
        guard case .failure = FileContents.bytes(folder.appendingPathComponent("missing").path) else {
            Issue.record("a missing file read as bytes")
            return
        }
    }

    @Test(arguments: [10, 100_000])
    func aWrittenBodyReadsBackAndDamageReadsAsNothing(size: Int) throws {
        let url = folder.appendingPathComponent("body")
        let body = Array("magic\n".utf8) + Self.bytes(size, seed: 9)
        #expect(ChecksummedFile.write(body, to: url))
        #expect(ChecksummedFile.read(url, minimum: 6) == body)
        #expect(ChecksummedFile.read(url, minimum: size + 6) == nil, "shorter than the caller's minimum")

        var file = try [UInt8](Data(contentsOf: url))
        #expect(file.count == body.count + 32, "the checksum takes 32 bytes")
        file[file.count / 2] ^= 0x01
        try Data(file).write(to: url)
        #expect(ChecksummedFile.read(url, minimum: 6) == nil, "one flipped bit")
        try Data(file.dropLast()).write(to: url)
        #expect(ChecksummedFile.read(url, minimum: 6) == nil, "cut short")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty, "the temporary file was renamed into place")
    }

    @Test(arguments: [0, 7, 8, 9, 1000, 65_541])
    func aFingerprintMadeInPiecesIsTheFingerprintOfTheWhole(size: Int) {
        let bytes = Self.bytes(size, seed: UInt64(size) + 3)
        var random = SeededRandom(seed: UInt64(size))
        for _ in 0..<20 {
            var stream = StreamingFingerprint()
            var offset = 0
            while offset < bytes.count {
                // Pieces of 0 to 20 bytes: words split across pieces at every offset, and empty pieces.
                let end = min(bytes.count, offset + Int(random.next() % 21))
                bytes[offset..<end].withUnsafeBytes { stream.append($0) }
                offset = end
            }
            #expect(stream.finish() == Fingerprint.of(bytes: bytes))
        }
    }

    @Test func aFileWrittenInPiecesReadsBackWhole() throws {
        let url = folder.appendingPathComponent("pieces")
        let piece = Self.bytes(300_007, seed: 5)
        var expected: [UInt8] = []
        let file = try #require(ChecksummedFile.Writer(url))
        // Well beyond a piece, so the buffer goes to the file several times before the end.
        for round in 0..<30 {
            let part = Array(piece.prefix(round * 9_001 + 1))
            file.buffer.write(raw: part)
            expected += part
            file.flushIfFull()
            #expect(file.buffer.bytes.count < ChecksummedFile.Writer.pieceSize, "a full buffer is written out")
        }
        #expect(expected.count > 3 * ChecksummedFile.Writer.pieceSize)
        #expect(!FileManager.default.fileExists(atPath: url.path), "nothing is in place before the commit")
        #expect(file.commit())
        #expect(ChecksummedFile.read(url, minimum: 0) == expected)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test func aWriterDroppedBeforeItsCommitLeavesTheOldFile() throws {
        let url = folder.appendingPathComponent("kept")
        let old = Array("old body".utf8)
        #expect(ChecksummedFile.write(old, to: url))
        do {
            let file = try #require(ChecksummedFile.Writer(url))
            file.buffer.write(raw: Self.bytes(3 << 20, seed: 1))
            file.flushIfFull()
        }
        #expect(ChecksummedFile.read(url, minimum: 0) == old)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty, "the temporary file is removed")
    }
}
