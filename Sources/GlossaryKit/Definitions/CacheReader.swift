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

    /// Where earlier builds' lookups are remembered, and what changed since (paths below the site's folder).
    private let state: BuildState?
    private let changes: Set<String>?

    public init(
        cache: DefinitionCache, language: String, displayPath: @escaping @Sendable (URL) -> String, state: BuildState? = nil,
        changes: Set<String>? = nil
    ) {
        self.cache = cache
        self.language = language
        self.displayPath = displayPath
        self.state = state
        self.changes = changes
    }

    public func lookup(_ key: TermKey) -> DefinitionCache.Lookup {
        if let known = lock.withLock({ lookups[key] }) { return known }
        let path = cache.fileURL(for: key, language: language).path
        let found: DefinitionCache.Lookup
        if let state {
            let remembered = state.withLock { $0.cacheLookups[path] }
            let shown = displayPath(URL(fileURLWithPath: path))
            if let remembered, let changes, !changes.contains(shown) {
                found = remembered.lookup
            } else {
                let signature = FileSignature(path: path)
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
            found = cache.lookup(key, language: language, displayPath: displayPath)
        }
        lock.withLock { lookups[key] = found }
        return found
    }
}
