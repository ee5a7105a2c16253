import Foundation

/// The `glossary` executable the tests run: the one built beside the test bundle.
public enum GlossaryBinary {
    public static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    public static let url: URL = {
        let bundleFolder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [bundleFolder, bundleFolder.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent("glossary")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return repositoryRoot.appendingPathComponent(".build/debug/glossary")
    }()

    /// The environment a test run of the binary starts from: this process's, with the dictionary API pointed
    /// at a closed loopback port, so no test reaches for the network by accident.
    public static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["GLOSSARY_API_URL"] = "http://127.0.0.1:9/api/v2/entries/{lang}/{word}"
        environment.merge(extra) { $1 }
        return environment
    }
}
