import Foundation

/// A whole site written inline, Hugo-style: each `-- path --` line starts a file, whose text is the lines
/// up to the next such line. A file's text ends with one newline; a blank line before the next file's
/// marker is there for readability and is dropped.
public enum InlineSite {
    public static func parse(_ text: String) -> [String: String] {
        var files: [String: String] = [:]
        var current: String?
        var lines: [Substring] = []
        func flush() {
            guard let current else { return }
            var contents = lines.joined(separator: "\n") + (lines.isEmpty ? "" : "\n")
            if contents.hasSuffix("\n\n") { contents.removeLast() }
            files[current] = contents
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
        return files
    }

    /// Writes `files` (path → text) below `folder`, making folders as needed.
    public static func write(_ files: [String: String], into folder: URL) throws {
        for (path, contents) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: url)
        }
    }

    /// A fresh, empty temporary folder whose name starts with `prefix`.
    public static func temporaryFolder(_ prefix: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
