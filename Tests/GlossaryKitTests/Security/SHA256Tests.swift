import Foundation
import TestSupport
import Testing

@testable import GlossaryKit

@Suite struct SHA256Tests {
    /// The examples of FIPS 180-4 (NIST's published vectors).
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ])
    func matchesTheKnownVectors(_ message: String, _ digest: String) {
        #expect(SHA256.hex(Array(message.utf8)) == digest)
    }

    @Test func aMillionAs() {
        #expect(SHA256.hex([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func base64IsTheFormCSPHashesTake() {
        #expect(SHA256.base64("") == "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")
        #expect(SHA256.base64("abc") == "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=")
    }

    /// Every length around the padding boundaries (55, 56, 63, 64 … bytes) and some longer ones, with bytes of
    /// every value, against the system's `sha256sum`.
    @Test func agreesWithSha256sum() throws {
        var generator = SeededRandom(seed: 0x5eed)
        let lengths = Array(0...130) + [191, 192, 193, 1000, 4095, 4096, 65_537]
        let samples = lengths.map { length in (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) } }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sha256-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var paths: [String] = []
        for (index, sample) in samples.enumerated() {
            let file = folder.appendingPathComponent("\(index)")
            try Data(sample).write(to: file)
            paths.append(file.path)
        }
        let lines = try Self.sha256sum(paths).split(separator: "\n")
        try #require(lines.count == samples.count)
        for (sample, line) in zip(samples, lines) {
            #expect(SHA256.hex(sample) == String(line.prefix(64)), "length \(sample.count)")
        }
    }

    @Test func hashingInPiecesEqualsHashingAtOnce() {
        let message = Array((0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        for split in [0, 1, 63, 64, 65, 128, 299] {
            var hasher = SHA256()
            hasher.update(message[..<split])
            hasher.update(message[split...])
            #expect(hasher.finalize() == SHA256.hash(message), "split at \(split)")
        }
    }

    static func sha256sum(_ paths: [String]) throws -> String {
        let process = Subprocess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = paths
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self)
    }
}
