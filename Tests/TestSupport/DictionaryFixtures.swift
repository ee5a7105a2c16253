import Foundation

/// The real API responses in `../shared/fixtures/dictionaryapi/` (beside the repository), read at run time.
///
/// They are third-party data (see SOURCES.md there), so they are never copied into the repository. They are
/// required: a test that needs them fails, naming the folder, when they are absent.
public enum DictionaryFixtures {
    public static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static let folder = repositoryRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/fixtures/dictionaryapi", isDirectory: true).standardizedFileURL

    public static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("keyboard.json").path)
    }

    public static let missingMessage = "the dictionary API fixtures are not at \(folder.path) (../shared beside the repository)"

    /// The fixture names without `.json` (`keyboard`, `not-found`, …), sorted; empty when the folder is absent.
    public static var names: [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    public static func data(_ name: String) -> Data? {
        FileManager.default.contents(atPath: folder.appendingPathComponent("\(name).json").path)
    }
}
