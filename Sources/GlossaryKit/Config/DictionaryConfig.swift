/// The `dictionary:` section of glossary.yml: where definitions come from and how politely.
public struct DictionaryConfig: Sendable, Equatable {
    /// URL template; `{lang}` and `{word}` are replaced per lookup.
    public var api: String = "https://api.dictionaryapi.dev/api/v2/entries/{lang}/{word}"
    /// Cache folder, relative to the site's source folder.
    public var cache: String = ".glossary/cache"
    /// Most API requests in flight at once.
    public var concurrency: Int = 8
    public var rateLimit = RateLimit(requests: 450, windowSeconds: 300)
    public var timeoutSeconds: Double = 10
    /// Cached entries older than this are refetched when online (and kept if the fetch fails).
    public var maxAgeDays: Int = 30
    /// Whether the dictionary page may query the API from the browser.
    public var liveLookup: Bool = true

    public init() {}

    static let keys = [
        "api", "cache", "concurrency", "rate_limit", "timeout_seconds", "max_age_days", "live_lookup",
    ]
    static let concurrencyRange = 1...256

    /// Reads the section's mapping over the defaults; problems are collected, never thrown.
    static func decode(_ node: YAMLNode) -> (DictionaryConfig, [Diagnostic]) {
        var config = DictionaryConfig()
        guard let pairs = node.pairs else {
            return (config, [node.typeError("dictionary", "must be a mapping of keys to values")])
        }
        var fields = KeyedMapping(pairs, known: keys, context: "under 'dictionary' in glossary.yml")

        if let api = fields.string("api"), let node = fields["api"] {
            if api.contains("{word}") {
                config.api = api
            } else {
                fields.report(node.valueError("api", "must contain '{word}', where the looked-up word goes"))
            }
        }
        if let cache = fields.string("cache"), let node = fields["cache"] {
            if cache.isEmpty {
                fields.report(node.valueError("cache", "must be a folder path"))
            } else {
                config.cache = cache
            }
        }
        if let concurrency = fields.int("concurrency"), let node = fields["concurrency"] {
            if concurrencyRange.contains(concurrency) {
                config.concurrency = concurrency
            } else {
                fields.report(
                    node.valueError(
                        "concurrency",
                        "must be between \(concurrencyRange.lowerBound) and \(concurrencyRange.upperBound)"))
            }
        }
        if let text = fields.string("rate_limit"), let node = fields["rate_limit"] {
            if let limit = RateLimit(parsing: text) {
                if limit.requests >= 1, limit.windowSeconds >= 1 {
                    config.rateLimit = limit
                } else {
                    fields.report(
                        node.valueError("rate_limit", "must allow at least 1 request in a window of at least 1 second"))
                }
            } else {
                fields.report(
                    node.typeError("rate_limit", "must be requests per window like 450/5m (window in s, m or h)"))
            }
        }
        if let timeout = fields.double("timeout_seconds"), let node = fields["timeout_seconds"] {
            if timeout > 0 {
                config.timeoutSeconds = timeout
            } else {
                fields.report(node.valueError("timeout_seconds", "must be more than 0"))
            }
        }
        if let days = fields.int("max_age_days"), let node = fields["max_age_days"] {
            if days >= 0 {
                config.maxAgeDays = days
            } else {
                fields.report(node.valueError("max_age_days", "must be 0 or more"))
            }
        }
        if let liveLookup = fields.bool("live_lookup") {
            config.liveLookup = liveLookup
        }
        return (config, fields.diagnostics)
    }
}
