/// Makes the dictionary client for a site's configuration (its `dictionary:` settings, the API URL already
/// overridden by `--api-url`); nil means terms are never fetched.
public typealias FetcherFactory = @Sendable (SiteConfig) -> (any DefinitionFetcher)?

/// Fetches definitions from the dictionary API; the build depends on this seam, not on libcurl.
public protocol DefinitionFetcher: Sendable {
    /// Fetches every key (each at most once), calling `progress` as transfers finish. Never throws: each key
    /// gets an outcome.
    func fetch(_ keys: [TermKey], language: String, progress: @escaping @Sendable (FetchProgress) -> Void) async -> [TermKey: FetchOutcome]

    /// The same, also handing each outcome to `received` the moment it is known, so the caller can store entries
    /// while other words are still in flight: a build stopped mid-fetch keeps every word that had arrived.
    func fetch(
        _ keys: [TermKey], language: String, progress: @escaping @Sendable (FetchProgress) -> Void,
        received: @escaping @Sendable (TermKey, FetchOutcome) -> Void
    ) async -> [TermKey: FetchOutcome]

    /// The same; when the API doesn't know a word (its 404), `baseForm` may name the word it is a form of
    /// (`keyboards` → `keyboard`), which is then asked for once. That answer is handed to `received` and returned
    /// under the base's own key, so it is cached as the base's.
    func fetch(
        _ keys: [TermKey], language: String, baseForm: @escaping @Sendable (TermKey) -> TermKey?,
        progress: @escaping @Sendable (FetchProgress) -> Void, received: @escaping @Sendable (TermKey, FetchOutcome) -> Void
    ) async -> [TermKey: FetchOutcome]
}

extension DefinitionFetcher {
    /// For fetchers that only answer at the end: every outcome is handed over once all are in.
    public func fetch(
        _ keys: [TermKey], language: String, progress: @escaping @Sendable (FetchProgress) -> Void,
        received: @escaping @Sendable (TermKey, FetchOutcome) -> Void
    ) async -> [TermKey: FetchOutcome] {
        let outcomes = await fetch(keys, language: language, progress: progress)
        for (key, outcome) in outcomes.sorted(by: { $0.key < $1.key }) { received(key, outcome) }
        return outcomes
    }

    /// For fetchers that know nothing of word forms: the words as they are.
    public func fetch(
        _ keys: [TermKey], language: String, baseForm: @escaping @Sendable (TermKey) -> TermKey?,
        progress: @escaping @Sendable (FetchProgress) -> Void, received: @escaping @Sendable (TermKey, FetchOutcome) -> Void
    ) async -> [TermKey: FetchOutcome] {
        await fetch(keys, language: language, progress: progress, received: received)
    }
}
