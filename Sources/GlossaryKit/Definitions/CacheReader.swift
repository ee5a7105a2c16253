import Foundation

/// Cache lookups made once per build and shared: the parsing workers ask it whether a term has a definition
/// (to link it while rendering a page's HTML), and resolution takes the same answers afterwards instead of
/// reading the files again. Safe to use from several threads.
public final class CacheReader: @unchecked Sendable {
    public let cache: DefinitionCache
    public let language: String
    private let displayPath: @Sendable (URL) -> String
    private let lock = NSLock()
    private var lookups: [TermKey: DefinitionCache.Lookup] = [:]
    /// Each file looked at, with its signature before it was read (nil: there was none).
    private var signatures: [String: FileSignature?] = [:]

    /// Where earlier builds' lookups are remembered, and what changed since (paths below the site's folder).
    private let state: BuildState?
    private let changes: Set<String>?
    /// The language's folder of the cache, as a path ending in `/` and as shown (`.glossary/cache/en/`): a
    /// lookup joins a file name to them rather than building URLs (a preview rebuild looks up every term).
    private let folderPath: String
    private let shownFolder: String

    public init(
        cache: DefinitionCache, language: String, displayPath: @escaping @Sendable (URL) -> String, state: BuildState? = nil,
        changes: Set<String>? = nil
    ) {
        self.cache = cache
        self.language = language
        self.displayPath = displayPath
        self.state = state
        self.changes = changes
        let folder = cache.directory.appendingPathComponent(language, isDirectory: true)
        folderPath = folder.path.hasSuffix("/") ? folder.path : folder.path + "/"
        let shown = displayPath(folder)
        shownFolder = shown.isEmpty || shown.hasSuffix("/") ? shown : shown + "/"
    }

    public func lookup(_ key: TermKey) -> DefinitionCache.Lookup {
        if let known = lock.withLock({ lookups[key] }) { return known }
        let name = key.slug + ".json"
        let path = folderPath + name
        let found: DefinitionCache.Lookup
        var seen: FileSignature?
        if let state {
            let remembered = state.withLock { $0.cacheLookups[path] }
            if let remembered, let changes, !changes.contains(shownFolder + name) {
                found = remembered.lookup
                seen = remembered.signature
            } else {
                let signature = FileSignature(path: path)
                seen = signature
                if let remembered, let signature, remembered.signature == signature,
                    signature.isSettled(at: remembered.readAt, after: state.settleSeconds)
                {
                    found = remembered.lookup
                } else {
                    let readAt = Date().timeIntervalSince1970
                    found = cache.lookup(key, language: language, displayPath: displayPath)
                    state.withLock { $0.cacheLookups[path] = (signature, readAt, found) }
                }
            }
        } else {
            seen = FileSignature(path: path)
            found = cache.lookup(key, language: language, displayPath: displayPath)
        }
        lock.withLock {
            lookups[key] = found
            signatures[path] = .some(seen)
        }
        return found
    }

    /// When the first entry read so far is older than `maxAgeDays` (`.infinity` when none was read).
    func firstExpiry(maxAgeDays: Int) -> Double {
        let entries = lock.withLock { lookups.values }
        var first = Double.infinity
        for case .entry(let entry) in entries {
            first = min(first, entry.fetchedAt.timeIntervalSince1970 + Double(maxAgeDays) * 86_400)
        }
        return first
    }

    /// The files looked at so far, in path order, with their signatures from before they were read.
    var filesRead: [(path: String, signature: FileSignature?)] {
        lock.withLock { signatures.map { ($0.key, $0.value) } }.sorted { $0.path < $1.path }
    }
}
