import Foundation

/// Resolves referenced terms: the team's own entries first, then the cache, then the API.
public struct DefinitionResolver: Sendable {
    public struct Options: Sendable {
        public var language: String
        public var offline: Bool
        /// Refetch every dictionary term, ignoring fresh cache entries.
        public var refresh: Bool
        public var maxAgeDays: Int
        public var now: Date

        public init(language: String = "en", offline: Bool = false, refresh: Bool = false, maxAgeDays: Int = 30, now: Date = Date()) {
            self.language = language
            self.offline = offline
            self.refresh = refresh
            self.maxAgeDays = maxAgeDays
            self.now = now
        }
    }

    public struct Outcome: Sendable {
        public var resolutions: [TermKey: Resolution] = [:]
        public var diagnostics: [Diagnostic] = []
        public var local = 0
        public var cached = 0
        public var fetched = 0
        /// A fetch failed because the API could not be reached (connection refused, timeouts, DNS).
        public var apiUnreachable = false
        /// The keys asked of the dictionary (their cache files may have changed).
        public var fetchedKeys: Set<TermKey> = []
    }

    public var cache: DefinitionCache
    /// Lookups already made this build (by the parsing workers); nil to read the cache directly.
    public var reader: CacheReader?
    /// Keys not to fetch now (a fetch of them failed a moment ago); they resolve from the cache or not at all.
    public var resting: Set<TermKey> = []
    public var fetcher: (any DefinitionFetcher)?
    public var options: Options
    /// How cache paths appear in diagnostics (relative to the site folder).
    public var displayPath: @Sendable (URL) -> String

    public init(cache: DefinitionCache, fetcher: (any DefinitionFetcher)?, options: Options, displayPath: @escaping @Sendable (URL) -> String = { $0.path }) {
        self.cache = cache
        self.fetcher = fetcher
        self.options = options
        self.displayPath = displayPath
    }

    /// Resolves `keys` (each once); `team` maps every team key and alias to its definition.
    public func resolve(_ keys: [TermKey], team: [TermKey: TermDefinition], progress: @escaping @Sendable (FetchProgress) -> Void = { _ in }) async -> Outcome {
        var outcome = Outcome()
        var toFetch: [TermKey] = []
        var fallbacks: [TermKey: CacheEntry] = [:]
        let maximumAge = TimeInterval(options.maxAgeDays) * 86_400
        let fetchable = !options.offline && fetcher != nil

        for key in Set(keys).sorted() {
            let canFetch = fetchable && !resting.contains(key)
            if let definition = team[key] {
                outcome.resolutions[key] = .defined(definition)
                outcome.local += 1
                continue
            }
            switch reader?.lookup(key) ?? cache.lookup(key, language: options.language, displayPath: displayPath) {
            case .entry(let entry):
                let isStale = options.now.timeIntervalSince(entry.fetchedAt) > maximumAge
                if canFetch && (options.refresh || isStale) {
                    fallbacks[key] = entry
                    toFetch.append(key)
                } else {
                    outcome.resolutions[key] = Self.resolution(key, entry, fetched: false, stale: false)
                    outcome.cached += 1
                }
            case .unreadable(let problem, let location):
                outcome.diagnostics.append(Diagnostic(problem.withFallback(canFetch ? .refetch : .ignoredOffline), at: location))
                if canFetch { toFetch.append(key) } else { outcome.resolutions[key] = .unavailable }
            case .missing:
                if canFetch { toFetch.append(key) } else { outcome.resolutions[key] = .unavailable }
            }
        }

        guard let fetcher, !toFetch.isEmpty, fetchable else { return outcome }
        outcome.fetchedKeys = Set(toFetch)
        // Each entry is stored as it arrives; a failed fetch stores nothing, so a good entry is never replaced.
        let writer = CacheWriter(cache: cache)
        let results = await fetcher.fetch(toFetch, language: options.language, progress: progress) { _, result in
            if case .fetched(let entry) = result { writer.store(entry) }
        }
        let writeFailures = await writer.finish()
        for key in toFetch {
            switch results[key] {
            case .fetched(let entry):
                if let problem = writeFailures[key] {
                    let file = displayPath(cache.fileURL(for: key, language: options.language))
                    outcome.diagnostics.append(Diagnostic(.cacheWrite(key: key.rawValue, reason: problem), subject: file))
                }
                outcome.resolutions[key] = Self.resolution(key, entry, fetched: true, stale: false)
                outcome.fetched += 1
            case .failed(let diagnostic, let unreachable):
                outcome.apiUnreachable = outcome.apiUnreachable || unreachable
                if let fallback = fallbacks[key] {
                    let problem = Problem.staleDefinition(
                        key: key.rawValue, notFound: fallback.isNotFound, fetched: Self.day(fallback.fetchedAt), cause: diagnostic.problem)
                    outcome.diagnostics.append(Diagnostic(problem, subject: diagnostic.subject))
                    outcome.resolutions[key] = Self.resolution(key, fallback, fetched: false, stale: true)
                    outcome.cached += 1
                } else {
                    outcome.diagnostics.append(diagnostic)
                    outcome.resolutions[key] = .unavailable
                }
            case nil:
                outcome.resolutions[key] = fallbacks[key].map { Self.resolution(key, $0, fetched: false, stale: true) } ?? .unavailable
            }
        }
        return outcome
    }

    static func resolution(_ key: TermKey, _ entry: CacheEntry, fetched: Bool, stale: Bool) -> Resolution {
        guard !entry.isNotFound, let first = entry.entries.first else { return .notFound }
        return .defined(TermDefinition(key: key, word: first.word, entries: entry.entries, origin: .dictionary(entry, fetched: fetched, stale: stale)))
    }

    private static func day(_ date: Date) -> String {
        String(CacheEntry.timestampFormatter.string(from: date).prefix(10))
    }
}
