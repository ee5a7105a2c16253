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
        // Written and synced before the rename: after a crash the entry's name must point at complete bytes.
        do {
            try SiteWriter.writeFile(entry.encoded(), to: temporary.path, sync: true)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        guard rename(temporary.path, url.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
    }
}
