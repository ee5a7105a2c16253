import Foundation
import GlossaryKit
import TestSupport
import Testing

/// `glossary --version` names the program's version and those of the C libraries it runs with.
@Suite struct VersionTests {
    /// What pkg-config says of an installed library (the Debian -dev package the binary was linked against).
    static func pkgConfigVersion(_ module: String) throws -> String {
        let process = Subprocess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["pkg-config", "--modversion", module]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func versionListsEveryCLibraryOnItsOwnLine() async throws {
        let result = try await TestSite.run(["--version"], in: FileManager.default.temporaryDirectory)
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 5, "\(result.stdout)")
        #expect(lines[0] == "glossary \(GlossaryVersion.current)", "the version written in GlossaryVersion.swift, as the package is named")
        #expect(GlossaryVersion.current.wholeMatch(of: /\d+\.\d+\.\d+/) != nil)
        #expect(lines[1] == "libcmark \(try Self.pkgConfigVersion("libcmark"))")
        #expect(lines[2].hasPrefix("libcurl \(try Self.pkgConfigVersion("libcurl")) ("), "with its TLS library: \(lines[2])")
        #expect(lines[3] == "libmicrohttpd \(try Self.pkgConfigVersion("libmicrohttpd"))")
        #expect(lines[4] == "libyaml \(try Self.pkgConfigVersion("yaml-0.1"))")
    }
}
