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

    public init(cache: DefinitionCache, language: String, displayPath: @escaping @Sendable (URL) -> String) {
        self.cache = cache
        self.language = language
        self.displayPath = displayPath
    }

    public func lookup(_ key: TermKey) -> DefinitionCache.Lookup {
        if let known = lock.withLock({ lookups[key] }) { return known }
        let found = cache.lookup(key, language: language, displayPath: displayPath)
        lock.withLock { lookups[key] = found }
        return found
    }
}
