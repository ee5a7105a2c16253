import Foundation
import Testing

/// A whole site written inline, Hugo-style: `-- path --` lines start each file.
///
/// The site lives in a fresh temporary folder; `run` executes the real `glossary` binary in it.
struct TestSite {
    let root: URL

    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The `glossary` binary built beside the test bundle.
    static let binary: URL = {
        let bundleFolder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [bundleFolder, bundleFolder.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent("glossary")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return repositoryRoot.appendingPathComponent(".build/debug/glossary")
    }()

    init(_ text: String, includeConfig: Bool = true) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("glossary-test-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        var files = Self.parse(text)
        if includeConfig && files["glossary.yml"] == nil {
            files["glossary.yml"] = "title: Test Site\n"
        }
        for (path, contents) in files { try write(path, contents) }
    }

    static func parse(_ text: String) -> [String: String] {
        var files: [String: String] = [:]
        var current: String?
        var lines: [Substring] = []
        func flush() {
            if let current { files[current] = lines.joined(separator: "\n") + (lines.isEmpty ? "" : "\n") }
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("-- "), line.hasSuffix(" --"), line.count > 6 {
                flush()
                current = String(line.dropFirst(3).dropLast(3))
                lines = []
            } else if current != nil {
                lines.append(line)
            }
        }
        flush()
        for (path, contents) in files where contents.hasSuffix("\n\n") {
            files[path] = String(contents.dropLast())
        }
        return files
    }

    func write(_ path: String, _ contents: String) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: url)
    }

    func read(_ path: String) -> String? {
        FileManager.default.contents(atPath: root.appendingPathComponent(path).path).map { String(decoding: $0, as: UTF8.self) }
    }

    func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path)
    }

    /// Every file below `folder`, relative to it, sorted.
    func files(under folder: String) -> [String] {
        let base = root.appendingPathComponent(folder)
        guard let enumerator = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        let prefix = base.standardizedFileURL.path + "/"
        return enumerator.compactMap { $0 as? URL }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .map { String($0.standardizedFileURL.path.dropFirst(prefix.count)) }
            .sorted()
    }

    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
        /// stderr lines in compiler form (`file:line:col: severity: …`), the summary excluded.
        var diagnostics: [String] {
            stderr.split(separator: "\n").map(String.init).filter { $0.contains(": warning: ") || $0.contains(": error: ") }
        }
    }

    /// Runs `glossary ARGS` in the site's folder. Offline unless the arguments say otherwise, so no test
    /// reaches for the network by accident.
    @discardableResult
    func run(_ arguments: [String], environment: [String: String] = [:], stdin: String? = nil) throws -> Output {
        try Self.run(arguments, in: root, environment: environment)
    }

    static func run(_ arguments: [String], in folder: URL, environment: [String: String] = [:]) throws -> Output {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = folder
        var env = ProcessInfo.processInfo.environment
        env["GLOSSARY_API_URL"] = "http://127.0.0.1:9/api/v2/entries/{lang}/{word}"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes before waiting, so a chatty child can't block on a full pipe.
        nonisolated(unsafe) var errData = Data()
        let stderrRead = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            stderrRead.signal()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        stderrRead.wait()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
    }

    func remove() {
        try? FileManager.default.removeItem(at: root)
    }
}
