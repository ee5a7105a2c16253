import Foundation

/// A built site held in memory: rendered files, plus files copied from elsewhere (content and theme assets).
///
/// The build produces this value; writing it to disk is a separate step, so the preview server can serve a
/// build straight from memory and tests can assert on it without touching the disk.
public struct SiteOutput: Sendable {
    /// Rendered files by path below the site root (`guide/intro/index.html`).
    public var files: [String: Data] = [:]
    /// Copied files by path below the site root, with the file to copy.
    public var copies: [String: URL] = [:]

    public init() {}

    public var paths: Set<String> { Set(files.keys).union(copies.keys) }

    public mutating func add(_ path: String, _ text: String) {
        files[path] = Data(text.utf8)
    }
}
