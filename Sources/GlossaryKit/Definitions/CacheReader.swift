import Foundation
import Synchronization

/// Cache lookups made once per build and shared between the steps that ask (every core may ask at once), with the
/// files they read, for the next build's state.
public final class CacheReader: Sendable {
    public let cache: DefinitionCache
    public let language: String
    private let displayPath: @Sendable (URL) -> String
    private let lookups = Mutex<[TermKey: DefinitionCache.Lookup]>([:])
    /// Each file looked at, with its signature before it was read and its bytes' fingerprint (nil: there was none).
    private let files = Mutex<[String: BuildState.StoredFile]>([:])

    public init(cache: DefinitionCache, language: String, displayPath: @escaping @Sendable (URL) -> String) {
        self.cache = cache
        self.language = language
        self.displayPath = displayPath
    }

    public func lookup(_ key: TermKey) -> DefinitionCache.Lookup {
        if let known = lookups.withLock({ $0[key] }) { return known }
        let path = cache.fileURL(for: key, language: language).path
        let signature = FileSignature(path: path)
        let (found, hash) = cache.read(key, language: language, displayPath: displayPath)
        lookups.withLock { $0[key] = found }
        files.withLock { $0[path] = .init(signature: signature, hash: hash) }
        return found
    }

    /// When the first entry read so far is older than `maxAgeDays` (`.infinity` when none was read).
    func firstExpiry(maxAgeDays: Int) -> Double {
        let entries = lookups.withLock { $0.values }
        var first = Double.infinity
        for case .entry(let entry) in entries {
            first = min(first, entry.fetchedAt.timeIntervalSince1970 + Double(maxAgeDays) * 86_400)
        }
        return first
    }

    /// The files looked at so far, by path.
    var filesRead: [String: BuildState.StoredFile] { files.withLock { $0 } }
}
