import Foundation

/// The on-disk cache: `<folder>/<language>/<slug>.json`, one file per language and term key.
///
/// Writes are atomic (a temporary file in the same folder, then `rename`), so a reader — or a second build
/// running at the same time — sees either the old entry or the new one, never half of one.
public struct DefinitionCache: Sendable {
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    public func fileURL(for key: TermKey, language: String) -> URL {
        directory.appendingPathComponent(language, isDirectory: true).appendingPathComponent("\(key.slug).json")
    }

    /// What the cache holds for a key.
    public enum Lookup: Sendable {
        case missing
        case entry(CacheEntry)
        /// The file exists but can't be used; the diagnostic says why. Treated as missing by the resolver.
        case unreadable(Diagnostic)
    }

    public func lookup(_ key: TermKey, language: String, displayPath: (URL) -> String = { $0.path }) -> Lookup {
        let url = fileURL(for: key, language: language)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            return FileManager.default.fileExists(atPath: url.path)
                ? .unreadable(.warning("cache-unreadable", "cache entry for '\(key)' can't be read", at: SourceLocation(file: displayPath(url), line: 1, column: 1)))
                : .missing
        }
        do {
            let entry = try CacheEntry.decode(data)
            guard entry.key == key else {
                return .unreadable(.warning("cache-corrupt", "cache entry holds '\(entry.key)', expected '\(key)'", at: SourceLocation(file: displayPath(url), line: 1, column: 1)))
            }
            return .entry(entry)
        } catch {
            return .unreadable(.warning("cache-corrupt", "cache entry for '\(key)' \(error)", at: SourceLocation(file: displayPath(url), line: 1, column: 1)))
        }
    }

    /// Stores an entry atomically; an existing entry is only replaced once the new one is completely on disk.
    public func store(_ entry: CacheEntry) throws {
        let url = fileURL(for: entry.key, language: entry.language)
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = folder.appendingPathComponent(".\(entry.key.slug).\(ProcessInfo.processInfo.processIdentifier).\(UInt64.random(in: 0...UInt64.max)).tmp")
        let data = entry.encoded()
        guard FileManager.default.createFile(atPath: temporary.path, contents: data) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
        }
        // fsync before rename: after a crash the new name must point at complete bytes.
        if let handle = FileHandle(forWritingAtPath: temporary.path) {
            try? handle.synchronize()
            try? handle.close()
        }
        guard rename(temporary.path, url.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
    }

    /// Every entry file in the cache, for `glossary cache list|verify|prune`.
    public func allFiles() -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { return [] }
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "json" && !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.path < $1.path }
    }
}
