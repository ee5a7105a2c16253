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
}
