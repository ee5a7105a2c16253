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
        directory.appendingPathComponent(language, isDirectory: true).appendingPathComponent("\(key.slug).json", isDirectory: false)
    }

    /// What the cache holds for a key.
    public enum Lookup: Sendable {
        case missing
        case entry(CacheEntry)
        /// The file exists but can't be used; the problem says why (its fallback is the resolver's to decide).
        /// Treated as missing by the resolver.
        case unreadable(Problem, at: SourceLocation)
    }

    public func lookup(_ key: TermKey, language: String, displayPath: (URL) -> String = { $0.path }) -> Lookup {
        read(key, language: language, displayPath: displayPath).lookup
    }

    /// `lookup`, with the fingerprint of the file's bytes (nil: there was no file, or it couldn't be read).
    func read(_ key: TermKey, language: String, displayPath: (URL) -> String) -> (lookup: Lookup, hash: Fingerprint?) {
        let url = fileURL(for: key, language: language)
        let data: Data
        switch FileContents.read(url.path) {
        case .success(let bytes): data = bytes
        case .failure(let failure) where failure.isMissing: return (.missing, nil)
        case .failure: return (.unreadable(.cacheUnreadable(key: key.rawValue, then: nil), at: .start(of: displayPath(url))), nil)
        }
        let hash = Fingerprint.of(bytes: data)
        do {
            let entry = try CacheEntry.decode(data)
            guard entry.key == key else {
                return (.unreadable(.cacheWrongKey(holds: entry.key.rawValue, expected: key.rawValue, then: nil), at: .start(of: displayPath(url))), hash)
            }
            return (.entry(entry), hash)
        } catch {
            return (.unreadable(.cacheCorrupt(key: key.rawValue, problem: error, then: nil), at: .start(of: displayPath(url))), hash)
        }
    }

    /// Stores an entry atomically; an existing entry is only replaced once the new one is completely on disk.
    public func store(_ entry: CacheEntry) throws(StoreFailure) {
        let url = fileURL(for: entry.key, language: entry.language)
        let folder = url.deletingLastPathComponent()
        try Self.makeFolder(folder)
        let temporary = folder.appendingPathComponent(
            ".\(entry.key.slug).\(ProcessInfo.processInfo.processIdentifier).\(UInt64.random(in: 0...UInt64.max)).tmp")
        // Written and synced before the rename: after a crash the entry's name must point at complete bytes.
        do {
            try FileContents.write(entry.encoded(), to: temporary.path, sync: true)
        } catch {
            unlink(temporary.path)
            throw StoreFailure(description: error.description)
        }
        guard rename(temporary.path, url.path) == 0 else {
            let reason = FileContents.reason(errno)
            unlink(temporary.path)
            throw StoreFailure(description: "can't rename \(temporary.path) to \(url.lastPathComponent): \(reason)")
        }
    }

    /// Why an entry could not be stored, in the system's words.
    public struct StoreFailure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// `mkdir -p` that names the folder it could not create.
    private static func makeFolder(_ folder: URL) throws(StoreFailure) {
        var path = ""
        for component in folder.standardizedFileURL.path.split(separator: "/") {
            path += "/" + component
            if mkdir(path, 0o755) != 0 && errno != EEXIST {
                throw StoreFailure(description: "can't create \(path): \(FileContents.reason(errno))")
            }
            var info = stat()
            if stat(path, &info) != 0 || info.st_mode & S_IFMT != S_IFDIR {
                throw StoreFailure(description: "can't create \(folder.path): \(FileContents.reason(ENOTDIR))")
            }
        }
    }
}
