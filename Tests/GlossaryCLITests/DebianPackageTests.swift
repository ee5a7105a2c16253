import Foundation
import GlossaryKit
import TestSupport
import Testing

@testable import GlossaryCLI

/// `make deb` makes a package lintian finds no error in, holding exactly the binary, its completions, its manual
/// pages and its documentation, depending on the libraries the binary loads; unpacked anywhere, its binary works
/// from an empty folder with a clean environment.
///
/// As with InstalledBinaryTests, `make test` builds the static binary first, so `make deb` here only packages it.
@Suite(
    .serialized,
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/dpkg-deb"), "dpkg-deb is not installed: this machine can't make Debian packages"))
struct DebianPackageTests {
    static let plainEnvironment = ["PATH": "/usr/bin:/bin"]

    static func run(_ executable: String, _ arguments: [String], in folder: URL, environment: [String: String]) async throws -> ChildProcess.Result {
        try await ChildProcess.run(URL(fileURLWithPath: executable), arguments, in: folder, environment: environment)
    }

    /// Every path the package holds, as `dpkg-deb -c` lists them.
    static var expectedPaths: [String] {
        let folders = [
            "./", "./usr/", "./usr/bin/", "./usr/share/", "./usr/share/bash-completion/", "./usr/share/bash-completion/completions/",
            "./usr/share/doc/", "./usr/share/doc/glossary/", "./usr/share/fish/", "./usr/share/fish/vendor_completions.d/", "./usr/share/man/",
            "./usr/share/man/man1/", "./usr/share/zsh/", "./usr/share/zsh/vendor-completions/",
        ]
        let files = [
            "./usr/bin/glossary", "./usr/share/bash-completion/completions/glossary", "./usr/share/doc/glossary/README.md.gz",
            "./usr/share/doc/glossary/changelog.gz", "./usr/share/doc/glossary/copyright", "./usr/share/fish/vendor_completions.d/glossary.fish",
            "./usr/share/man/man1/glossary.1.gz", "./usr/share/zsh/vendor-completions/_glossary",
        ]
        let pages = GlossaryTool.commands.map { "./usr/share/man/man1/glossary-\($0.name).1.gz" }
        return (folders + files + pages).sorted()
    }

    @Test func makeDebBuildsAPackageThatInstallsAndRuns() async throws {
        let temporary = try InlineSite.temporaryFolder("glossary-deb")
        defer { try? FileManager.default.removeItem(at: temporary) }
        let make = try await Self.run(
            "/usr/bin/make", ["-C", TestSite.repositoryRoot.path, "deb", "DEB_DIR=\(temporary.path)"], in: temporary,
            environment: ProcessInfo.processInfo.environment)
        try #require(make.status == 0, "make deb failed:\n\(make.stdout)\(make.stderr)")
        let package = temporary.appendingPathComponent("glossary_\(GlossaryVersion.current)_amd64.deb")
        try #require(FileManager.default.fileExists(atPath: package.path), "make deb wrote \(make.stdout)")

        // Contents: exactly these paths, all root's.
        let listing = try await Self.run("/usr/bin/dpkg-deb", ["-c", package.path], in: temporary, environment: Self.plainEnvironment)
        #expect(listing.status == 0, "\(listing.stderr)")
        let rows = listing.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        #expect(rows.map { $0.last.map(String.init) ?? "" }.sorted() == Self.expectedPaths)
        #expect(rows.allSatisfy { $0.count > 1 && $0[1] == "root/root" }, "every file is root's:\n\(listing.stdout)")
        #expect(rows.contains { $0.first == "-rwxr-xr-x" && $0.last == "./usr/bin/glossary" })

        // Control fields: the version in the source, Depends from the binary's libraries and WordNet's data.
        let fields = try await Self.run(
            "/usr/bin/dpkg-deb", ["-f", package.path, "Package", "Version", "Architecture", "Depends"], in: temporary, environment: Self.plainEnvironment)
        #expect(fields.status == 0, "\(fields.stderr)")
        let control = Dictionary(
            fields.stdout.split(separator: "\n").compactMap { line -> (String, String)? in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }, uniquingKeysWith: { first, _ in first })
        #expect(control["Package"] == "glossary")
        #expect(control["Version"] == GlossaryVersion.current)
        #expect(control["Architecture"] == "amd64")
        let depends = Set((control["Depends"] ?? "").split(separator: ",").map { $0.split(separator: " ").first.map(String.init) ?? "" })
        for needed in ["libc6", "libcmark0.30.2", "libcurl4", "libmicrohttpd12", "libyaml-0-2", "libjemalloc2", "wordnet", "wordnet-base"] {
            #expect(depends.contains(needed), "Depends names \(needed): \(control["Depends"] ?? "")")
        }
        #expect(!depends.contains { $0.hasPrefix("libswift") || $0.hasPrefix("libicu") }, "no Swift runtime: \(control["Depends"] ?? "")")

        // lintian: warnings may stay, errors may not.
        let lintian = try await Self.run("/usr/bin/env", ["lintian", package.path], in: temporary, environment: Self.plainEnvironment)
        try #require(lintian.status != 127, "lintian is not installed (make deps-test installs it)")
        let errors = lintian.stdout.split(separator: "\n").filter { $0.hasPrefix("E:") }
        #expect(errors.isEmpty, "lintian reports errors:\n\(lintian.stdout)\(lintian.stderr)")

        // Unpacked into a folder of its own and run from an empty folder with a clean environment.
        let root = temporary.appendingPathComponent("root", isDirectory: true)
        let work = temporary.appendingPathComponent("work", isDirectory: true)
        let home = temporary.appendingPathComponent("home", isDirectory: true)
        for folder in [root, work, home] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let extracted = try await Self.run("/usr/bin/dpkg-deb", ["-x", package.path, root.path], in: temporary, environment: Self.plainEnvironment)
        try #require(extracted.status == 0, "\(extracted.stderr)")
        let binary = root.appendingPathComponent("usr/bin/glossary").path
        let environment = ["PATH": "/usr/bin:/bin", "HOME": home.path]

        let version = try await Self.run(binary, ["--version"], in: work, environment: environment)
        #expect(version.status == 0, "\(version.stderr)")
        #expect(version.stdout.hasPrefix("glossary \(GlossaryVersion.current)\n"))

        let created = try await Self.run(binary, ["new", "docs"], in: work, environment: environment)
        #expect(created.status == 0, "\(created.stderr)")
        let site = work.appendingPathComponent("docs", isDirectory: true)
        let built = try await Self.run(binary, ["build", "--offline"], in: site, environment: environment)
        #expect(built.status == 0, "\(built.stderr)")
        #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("site/index.html").path))
        #expect(!built.stderr.contains("warning:") && !built.stderr.contains("error:"), "\(built.stderr)")

        // The completions are the binary's own; the manual shows every option of build.
        let bash = try await Self.run(binary, ["completion", "bash"], in: work, environment: environment)
        let packaged = try String(contentsOf: root.appendingPathComponent("usr/share/bash-completion/completions/glossary"), encoding: .utf8)
        #expect(packaged == bash.stdout)
        let page = root.appendingPathComponent("usr/share/man/man1/glossary-build.1.gz").path
        let manual = try await Self.run(
            "/usr/bin/man", ["-l", page], in: work, environment: environment.merging(["MANWIDTH": "250", "MANPAGER": "cat"]) { $1 })
        #expect(manual.status == 0, "\(manual.stderr)")
        let shown = ManPageTests.flattened(manual.stdout)
        #expect(shown.contains(" glossary-build - \(BuildCommand.abstract) "), "\(manual.stdout)")
        for option in BuildCommand.options {
            #expect(shown.contains(" \(option.synopsis) \(option.help) "), "man glossary-build shows \(option.name) and its help")
        }

        // The copyright file names the licences of what the binary holds.
        let copyright = try String(contentsOf: root.appendingPathComponent("usr/share/doc/glossary/copyright"), encoding: .utf8)
        #expect(copyright.hasPrefix("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"))
        for stanza in ["Files: *\nCopyright: The Glossary authors\nLicense: Expat", "Files: highlight.min.js", "Files: lunr.min.js", "License: BSD-3-clause\n"]
        {
            #expect(copyright.contains(stanza), "copyright has \(stanza)")
        }
    }
}
