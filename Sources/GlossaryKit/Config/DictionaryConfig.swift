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
    /// The sources asked after the team's entries and the cache, in order; empty means those two only.
    public var providers: [DictionaryProvider] = DictionaryProvider.defaultOrder

    public init() {}

    static let keys = [
        "api", "cache", "concurrency", "rate_limit", "timeout_seconds", "max_age_days", "live_lookup", "providers",
    ]
    static let concurrencyRange = 1...256
    /// A request may take up to ten minutes; more would hold a build that long per word, and far larger values
    /// overflow libcurl's milliseconds.
    static let maximumTimeout = 600.0
    /// Bounds that keep the pacer's arithmetic (milliseconds in 64 bits) far from overflowing: a million requests
    /// in a window of at most a day.
    static let maximumRateLimitRequests = 1_000_000
    static let maximumRateLimitWindow = 86_400
    /// 10,000 years: `max_age_days` becomes seconds in a `Double`, where this is still exact.
    static let maximumAgeDays = 3_650_000

    /// Whether `url` starts with an http or https scheme and a host.
    static func isHTTP(_ url: String) -> Bool {
        let lowered = url.lowercased()
        guard let scheme = ["http://", "https://"].first(where: { lowered.hasPrefix($0) }) else { return false }
        let host = url.dropFirst(scheme.count).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return !host.isEmpty
    }

    /// What a cache folder (below the site's folder, as builds take it: a leading `/` too) would overlap that builds
    /// or `glossary cache prune` must not touch — the site's folder or one holding it, `content/`, `themes/`,
    /// `glossary.yml`, the output folder `site/`, `.glossary/` or `.glossary/build/` — named as the message says it;
    /// nil when it overlaps none.
    static func overlap(_ cache: String) -> String? {
        var components: [Substring] = []
        var climbs = 0
        for component in cache.split(separator: "/") where component != "." {
            if component == ".." {
                if components.isEmpty { climbs += 1 } else { components.removeLast() }
            } else {
                components.append(component)
            }
        }
        if components.isEmpty { return climbs == 0 ? "the site's folder itself" : "a folder holding the site" }
        guard climbs == 0, let first = components.first else { return nil }
        if ["content", "themes", "glossary.yml", "site"].contains(first) { return "inside \(first)" + (first == "glossary.yml" ? "" : "/") }
        if first == ".glossary" && (components.count == 1 || components[1] == "build") {
            return components.count == 1 ? ".glossary/ itself" : "inside .glossary/build/"
        }
        return nil
    }

    /// Reads the section's mapping over the defaults; problems are collected, never thrown.
    static func decode(_ node: YAMLNode) -> (DictionaryConfig, [Diagnostic]) {
        var config = DictionaryConfig()
        guard let pairs = node.pairs else {
            return (config, [node.typeError("dictionary", "must be a mapping of keys to values")])
        }
        var fields = KeyedMapping(pairs, known: keys, context: "under 'dictionary' in glossary.yml")

        if let api = fields.string("api"), let node = fields["api"] {
            if !Self.isHTTP(api) {
                fields.report(node.valueError("api", "must be an http:// or https:// URL"))
            } else if api.contains("{word}") {
                config.api = api
            } else {
                fields.report(node.valueError("api", "must contain '{word}', where the looked-up word goes"))
            }
        }
        if let cache = fields.string("cache"), let node = fields["cache"] {
            if cache.isEmpty {
                fields.report(node.valueError("cache", "must be a folder path"))
            } else if let overlap = Self.overlap(cache) {
                fields.report(node.valueError("cache", "must be a folder of its own below the site's folder, not \(overlap)"))
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
                if limit.requests >= 1, limit.windowSeconds >= 1, limit.requests <= maximumRateLimitRequests,
                    limit.windowSeconds <= maximumRateLimitWindow
                {
                    config.rateLimit = limit
                } else {
                    fields.report(
                        node.valueError(
                            "rate_limit", "must allow from 1 to 1000000 requests in a window from 1 second to 24 hours"))
                }
            } else {
                fields.report(
                    node.typeError("rate_limit", "must be requests per window like 450/5m (window in s, m or h)"))
            }
        }
        if let timeout = fields.double("timeout_seconds"), let node = fields["timeout_seconds"] {
            if timeout > 0 && timeout <= maximumTimeout {
                config.timeoutSeconds = timeout
            } else {
                fields.report(node.valueError("timeout_seconds", "must be more than 0 and at most 600 (seconds)"))
            }
        }
        if let days = fields.int("max_age_days"), let node = fields["max_age_days"] {
            if days >= 0 && days <= maximumAgeDays {
                config.maxAgeDays = days
            } else {
                fields.report(node.valueError("max_age_days", "must be from 0 to 3650000 (days)"))
            }
        }
        if let liveLookup = fields.bool("live_lookup") {
            config.liveLookup = liveLookup
        }
        if let node = fields["providers"] {
            let (providers, problems) = decodeProviders(node)
            if let providers { config.providers = providers }
            for problem in problems { fields.report(problem) }
        }
        return (config, fields.diagnostics)
    }

    /// `providers: [api, wordnet]`: each a known name, once; nil (the default kept) when any item is wrong.
    static func decodeProviders(_ node: YAMLNode) -> ([DictionaryProvider]?, [Diagnostic]) {
        let names: [String]
        do {
            names = try node.stringList(named: "providers")
        } catch {
            return (nil, [error])
        }
        let items = node.items ?? [node]
        let known = DictionaryProvider.allCases.map { "'\($0.rawValue)'" }.joined(separator: " or ")
        var providers: [DictionaryProvider] = []
        var problems: [Diagnostic] = []
        for (index, name) in names.enumerated() {
            let item = index < items.count ? items[index] : node
            guard let provider = DictionaryProvider(rawValue: name) else {
                problems.append(item.valueError("providers", "lists the dictionaries to ask, each \(known)"))
                continue
            }
            guard !providers.contains(provider) else {
                problems.append(item.valueError("providers", "names each dictionary once"))
                continue
            }
            providers.append(provider)
        }
        return (problems.isEmpty ? providers : nil, problems)
    }
}
