import Foundation
import TestSupport
import Testing

/// A whole site written inline, Hugo-style: `-- path --` lines start each file.
///
/// The site lives in a fresh temporary folder; `run` executes the real `glossary` binary in it.
struct TestSite {
    let root: URL

    static let repositoryRoot = GlossaryBinary.repositoryRoot

    init(_ text: String, includeConfig: Bool = true) throws {
        root = try InlineSite.temporaryFolder("glossary-test")
        var files = InlineSite.parse(text)
        if includeConfig && files["glossary.yml"] == nil {
            files["glossary.yml"] = "title: Test Site\n"
        }
        try InlineSite.write(files, into: root)
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
    func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> Output {
        try await Self.run(arguments, in: root, environment: environment)
    }

    static func run(_ arguments: [String], in folder: URL, environment: [String: String] = [:]) async throws -> Output {
        let result = try await ChildProcess.run(GlossaryBinary.url, arguments, in: folder, environment: GlossaryBinary.environment(environment))
        return Output(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    func remove() {
        try? FileManager.default.removeItem(at: root)
    }
}
