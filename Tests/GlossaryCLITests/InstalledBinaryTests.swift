import Foundation
import GlossaryKit
import TestSupport
import Testing

@testable import GlossaryCLI

/// `make install` gives one binary that needs neither this repository nor a Swift toolchain: run from an empty
/// folder elsewhere with a clean environment, it creates a site, builds it with the built-in theme, honours a
/// site's overrides and ejects the theme without changing a byte of the output. Its manual pages go beside it.
///
/// The Makefile's `test` target builds the static binary first (`make static`), so the `make install` here only
/// copies it; run alone after a source change, it makes the release build itself (about two minutes here).
@Suite(.serialized) struct InstalledBinaryTests {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs a program with exactly `environment` (nothing inherited) in `folder`.
    static func run(_ executable: String, _ arguments: [String], in folder: URL, environment: [String: String]) throws -> Run {
        let process = Subprocess()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        nonisolated(unsafe) var errData = Data()
        let stderrRead = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            stderrRead.signal()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        stderrRead.wait()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Every file of the site's output with its bytes.
    static func snapshot(_ folder: URL) -> [String: Data] {
        var files: [String: Data] = [:]
        for path in (try? FileManager.default.subpathsOfDirectory(atPath: folder.path)) ?? [] {
            var isDirectory: ObjCBool = false
            let full = folder.appendingPathComponent(path).path
            if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[path] = FileManager.default.contents(atPath: full)
            }
        }
        return files
    }

    @Test func theInstalledBinaryWorksAloneFromAnEmptyFolder() throws {
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("glossary-install-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: temporary) }
        let destination = temporary.appendingPathComponent("dest")
        let work = temporary.appendingPathComponent("work", isDirectory: true)
        let home = temporary.appendingPathComponent("home", isDirectory: true)
        for folder in [work, home] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }

        let make = ["-C", TestSite.repositoryRoot.path, "DESTDIR=\(destination.path)", "PREFIX=/usr"]
        let installed = try Self.run("/usr/bin/make", make + ["install"], in: temporary, environment: ProcessInfo.processInfo.environment)
        try #require(installed.status == 0, "make install failed:\n\(installed.stdout)\(installed.stderr)")
        let binary = destination.appendingPathComponent("usr/bin/glossary").path
        #expect(FileManager.default.isExecutableFile(atPath: binary))
        let manFolder = destination.appendingPathComponent("usr/share/man/man1")
        let pages = ["glossary.1"] + GlossaryTool.commands.map { "glossary-\($0.name).1" }
        #expect(Set((try? FileManager.default.contentsOfDirectory(atPath: manFolder.path)) ?? []) == Set(pages))
        let manual = try Self.run(
            "/usr/bin/man", ["-l", manFolder.appendingPathComponent("glossary-build.1").path], in: temporary,
            environment: ["PATH": "/usr/bin:/bin", "MANWIDTH": "250", "MANPAGER": "cat"])
        #expect(manual.status == 0, "\(manual.stderr)")
        let shown = ManPageTests.flattened(manual.stdout)
        for option in BuildCommand.options { #expect(shown.contains(" \(option.synopsis) \(option.help) "), "man glossary-build shows \(option.name)") }

        // No Swift runtime library: everything it loads is a system library.
        let ldd = try Self.run("/usr/bin/ldd", [binary], in: temporary, environment: ["PATH": "/usr/bin:/bin"])
        #expect(ldd.status == 0)
        let libraries = ldd.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        // Debian's libxml2 links Debian's ICU (libicuuc.so.72 in /lib): a system library, unlike the toolchain's.
        let isSystemICU = { (line: String) in line.hasPrefix("libicu") && line.contains(" => /lib/x86_64-linux-gnu/") }
        for forbidden in ["libswift", "libFoundation", "lib_Foundation", "libdispatch", "libBlocksRuntime", "libicu", "not found"] {
            #expect(!libraries.contains { $0.contains(forbidden) && !isSystemICU($0) }, "ldd lists \(forbidden):\n\(ldd.stdout)")
        }
        for needed in ["libcmark.so.0.30.2", "libyaml-0.so.2", "libjemalloc.so.2"] {
            #expect(libraries.contains { $0.hasPrefix(needed + " => /") }, "\(needed) resolves to a system library")
        }
        // libcurl and libmicrohttpd are loaded when a transfer or a server first needs them, not linked: `--version`
        // loads them and names their versions.
        #expect(!libraries.contains { $0.hasPrefix("libcurl") }, "libcurl is not linked:\n\(ldd.stdout)")
        #expect(!libraries.contains { $0.hasPrefix("libmicrohttpd") || $0.hasPrefix("libgnutls") }, "libmicrohttpd is not linked:\n\(ldd.stdout)")
        // jemalloc is the allocator in use, ahead of glibc's malloc: asked to, it prints its statistics at exit.
        let statistics = try Self.run(binary, ["--version"], in: temporary, environment: ["PATH": "/usr/bin:/bin", "MALLOC_CONF": "stats_print:true"])
        #expect(statistics.status == 0)
        #expect(statistics.stdout.contains(/\nlibcurl \d+\.\d+\.\d+ \(/), "libcurl loaded from the system: \(statistics.stdout)")
        #expect(statistics.stdout.contains(/\nlibmicrohttpd \d+\.\d+\.\d+\n/), "libmicrohttpd loaded from the system: \(statistics.stdout)")
        #expect(statistics.stdout.contains("jemalloc statistics") || statistics.stderr.contains("jemalloc statistics"), "jemalloc is not the allocator")
        #expect(statistics.stdout.contains("arenas.dirty_decay_ms: 1000") || statistics.stderr.contains("arenas.dirty_decay_ms: 1000"), "the decay is not set")

        let environment = ["PATH": "/usr/bin:/bin", "HOME": home.path]
        let glossary = { (arguments: [String], folder: URL) throws -> Run in try Self.run(binary, arguments, in: folder, environment: environment) }
        let created = try glossary(["new", "docs"], work)
        #expect(created.status == 0, "\(created.stderr)")
        let site = work.appendingPathComponent("docs", isDirectory: true)
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("themes").path))

        func build() throws -> [String: Data] {
            let result = try glossary(["build", "--offline", "--strict"], site)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!result.stderr.contains("warning:") && !result.stderr.contains("error:"), "\(result.stderr)")
            return Self.snapshot(site.appendingPathComponent("site", isDirectory: true))
        }
        let plain = try build()
        #expect(plain["index.html"] != nil && plain["terms/glossary/index.html"] != nil)
        for (path, bytes) in BuiltInTheme.files where path.hasPrefix("assets/") {
            #expect(plain[path] == bytes, "\(path) is the built-in theme's")
        }

        // Overriding only the header, in the site's themes/default/ and through a theme extending default.
        let header = "<header data-override>{{site.title}}</header>\n"
        let write = { (path: String, text: String) throws in
            let url = site.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let config = try #require(FileManager.default.contents(atPath: site.appendingPathComponent("glossary.yml").path))
        for (setUp, themeName) in [
            ({ try write("themes/default/templates/header.mustache", header) }, "default"),
            (
                {
                    try write("themes/brand/theme.yml", "extends: default\n")
                    try write("themes/brand/templates/header.mustache", header)
                    try write("glossary.yml", String(decoding: config, as: UTF8.self).replacingOccurrences(of: "theme: default", with: "theme: brand"))
                }, "brand"
            ),
        ] {
            try setUp()
            let overridden = try build()
            let home = String(decoding: try #require(overridden["index.html"]), as: UTF8.self)
            #expect(home.contains("<header data-override>My Glossary</header>"), "theme \(themeName): its header")
            #expect(!home.contains("data-theme-toggle"), "theme \(themeName): not the built-in header")
            #expect(home.contains("<footer"), "theme \(themeName): the built-in footer")
            #expect(Set(overridden.keys) == Set(plain.keys))
            #expect(overridden.filter { $0.key.hasPrefix("assets/") } == plain.filter { $0.key.hasPrefix("assets/") })
            try FileManager.default.removeItem(at: site.appendingPathComponent("themes"))
            try config.write(to: site.appendingPathComponent("glossary.yml"))
        }
        #expect(try build() == plain, "back to the built-in theme")

        let ejected = try glossary(["theme", "eject"], site)
        #expect(ejected.status == 0, "\(ejected.stderr)")
        #expect(ejected.stdout.hasPrefix("Copied \(BuiltInTheme.files.count) files of the built-in theme into themes/default/:"))
        #expect(try build() == plain, "an ejected theme builds byte for byte the same site")

        let removed = try Self.run("/usr/bin/make", make + ["uninstall"], in: temporary, environment: ProcessInfo.processInfo.environment)
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: binary))
        #expect((try? FileManager.default.contentsOfDirectory(atPath: manFolder.path)) == [], "make uninstall removes the manual pages")
    }
}
