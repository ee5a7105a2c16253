public enum FetchOutcome: Sendable {
    /// A usable answer: a 200 with entries, or a 404 meaning "no such word".
    case fetched(CacheEntry)
    /// Nothing usable; the diagnostic names the word and URL. `unreachable` marks network failures (exit 69).
    case failed(Diagnostic, unreachable: Bool)
}
