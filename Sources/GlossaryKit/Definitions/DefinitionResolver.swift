import Foundation

/// Resolves referenced terms: the team's own entries first, then the cache, then the providers in their order
/// (`dictionary.providers`: the API, fetched and cached; WordNet, read from local files); and a word none of them
/// defines stands for its base form when it is an English inflection (`keyboards` → keyboard).
///
/// A fresh cache entry is an answer; a stale one is asked again when the API's turn comes (and kept if that
/// fails). The API's "no such word", cached or fetched, passes the word on to the next provider, as does a fetch
/// that fails. Fetches happen together, in one batch, once every word has been walked up to the API.
public struct DefinitionResolver: Sendable {
    public struct Options: Sendable {
        public var language: String
        public var offline: Bool
        /// Refetch every dictionary term, ignoring fresh cache entries.
        public var refresh: Bool
        public var maxAgeDays: Int
        public var now: Date
        /// The sources after the team's entries and the cache, in order.
        public var providers: [DictionaryProvider]

        public init(
            language: String = "en", offline: Bool = false, refresh: Bool = false, maxAgeDays: Int = 30, now: Date = Date(),
            providers: [DictionaryProvider] = DictionaryProvider.defaultOrder
        ) {
            self.language = language
            self.offline = offline
            self.refresh = refresh
            self.maxAgeDays = maxAgeDays
            self.now = now
            self.providers = providers
        }
    }

    public struct Outcome: Sendable {
        public var resolutions: [TermKey: Resolution] = [:]
        public var diagnostics: [Diagnostic] = []
        public var local = 0
        public var cached = 0
        public var fetched = 0
        public var fromWordNet = 0
        /// A fetch failed because the API could not be reached (connection refused, timeouts, DNS).
        public var apiUnreachable = false
        /// The keys asked of the dictionary, base forms included (their cache files may have changed).
        public var fetchedKeys: Set<TermKey> = []
        /// The keys whose fetch failed (the preview server leaves them alone for a while).
        public var fetchFailures: Set<TermKey> = []
        /// Keys that resolved to their base form's definition, with that base's key (`keyboards` → keyboard).
        public var forms: [TermKey: TermKey] = [:]
    }

    public var cache: DefinitionCache
    /// Lookups already made this build (by the parsing workers); nil to read the cache directly.
    public var reader: CacheReader?
    /// Keys not to fetch now (a fetch of them failed a moment ago); they resolve from the cache or not at all.
    public var resting: Set<TermKey> = []
    public var fetcher: (any DefinitionFetcher)?
    /// Whether fetched answers go into the cache (false for a lookup outside any site, which has no cache).
    public var storesAnswers = true
    /// WordNet's data, for the `wordnet` provider and for word forms; nil when it is not at hand.
    public var wordNet: WordNetDictionary?
    public var options: Options
    /// How cache paths appear in diagnostics (relative to the site folder).
    public var displayPath: @Sendable (URL) -> String

    public init(
        cache: DefinitionCache, fetcher: (any DefinitionFetcher)?, wordNet: WordNetDictionary? = nil, options: Options,
        displayPath: @escaping @Sendable (URL) -> String = { $0.path }
    ) {
        self.cache = cache
        self.fetcher = fetcher
        self.wordNet = wordNet
        self.options = options
        self.displayPath = displayPath
    }

    /// What is known of the API's answer for a word once the cache (and perhaps a fetch) has been looked at.
    private enum APIAnswer {
        /// Not asked: offline, resting, or the API is not a provider.
        case notAsked
        /// The API knows no such word (its 404, cached or fetched).
        case notFound
        /// To be fetched when the walk reaches the API.
        case fetch
        /// The fetch failed; `unusable` when the API answered with something that can't be used.
        case failed(unusable: Bool)
    }

    /// The providers in order, each once.
    var providers: [DictionaryProvider] { options.providers.uniqued() }

    /// WordNet as a provider: listed, English, and at hand.
    var wordNetProvider: WordNetDictionary? {
        providers.contains(.wordNet) && WordFormResolver.isEnglish(options.language) ? wordNet : nil
    }

    /// Resolves `keys` (each once); `team` maps every team key and alias to its definition.
    public func resolve(_ keys: [TermKey], team: [TermKey: TermDefinition], progress: @escaping @Sendable (FetchProgress) -> Void = { _ in }) async -> Outcome {
        var outcome = Outcome()
        var suspended: [TermKey: ArraySlice<DictionaryProvider>] = [:]
        var fallbacks: [TermKey: CacheEntry] = [:]
        let maximumAge = TimeInterval(options.maxAgeDays) * 86_400
        let fetchable = !options.offline && fetcher != nil && providers.contains(.api)
        let unique = Set(keys).sorted()

        for key in unique {
            if let definition = team[key] {
                outcome.resolutions[key] = .defined(definition)
                outcome.local += 1
                continue
            }
            let canFetch = fetchable && !resting.contains(key)
            var answer = APIAnswer.notAsked
            switch lookup(key) {
            case .entry(let entry):
                let isStale = options.now.timeIntervalSince(entry.fetchedAt) > maximumAge
                if canFetch && (options.refresh || isStale) {
                    fallbacks[key] = entry
                    answer = .fetch
                } else if case .defined(let definition) = Self.resolution(key, entry, fetched: false, stale: false) {
                    outcome.resolutions[key] = .defined(definition)
                    outcome.cached += 1
                    continue
                } else {
                    answer = .notFound
                }
            case .unreadable(let problem, let location):
                outcome.diagnostics.append(Diagnostic(problem.withFallback(canFetch ? .refetch : .ignoredOffline), at: location))
                if canFetch { answer = .fetch }
            case .missing:
                if canFetch { answer = .fetch }
            }
            if let rest = walk(key, providers[...], answer, &outcome) { suspended[key] = rest }
        }

        let toFetch = unique.filter { suspended[$0] != nil }
        var fetched: [TermKey: FetchOutcome] = [:]
        if let fetcher, !toFetch.isEmpty {
            fetched = await fetch(toFetch, with: fetcher, team: team, &outcome, progress: progress)
        }
        for key in toFetch {
            let answer: APIAnswer
            switch fetched[key] {
            case .fetched(let entry):
                if case .defined(let definition) = Self.resolution(key, entry, fetched: true, stale: false) {
                    outcome.resolutions[key] = .defined(definition)
                    outcome.fetched += 1
                    continue
                }
                answer = .notFound
            case .failed(let diagnostic, let unreachable):
                outcome.apiUnreachable = outcome.apiUnreachable || unreachable
                outcome.fetchFailures.insert(key)
                if let fallback = fallbacks[key] {
                    let problem = Problem.staleDefinition(
                        key: key.rawValue, notFound: fallback.isNotFound, fetched: Self.day(fallback.fetchedAt), cause: diagnostic.problem)
                    outcome.diagnostics.append(Diagnostic(problem, subject: diagnostic.subject))
                    if useStale(key, fallback, &outcome) { continue }
                    answer = .notFound
                } else {
                    // Words the client stopped asking for share one problem: it is reported once.
                    if !outcome.diagnostics.contains(diagnostic) { outcome.diagnostics.append(diagnostic) }
                    answer = .failed(unusable: diagnostic.code == .badResponse)
                }
            case nil:
                if let fallback = fallbacks[key] {
                    if useStale(key, fallback, &outcome) { continue }
                    answer = .notFound
                } else {
                    answer = .failed(unusable: false)
                }
            }
            _ = walk(key, suspended[key] ?? [], answer, &outcome)
        }

        resolveForms(unique, team: team, fetched: fetched, &outcome)
        return outcome
    }

    /// Asks the providers from `rest` on for `key`: WordNet answers at once; the API either needs a fetch (the
    /// providers after it are returned, to go on with once it is in) or has answered already. With nothing found,
    /// the key's resolution says why.
    private func walk(
        _ key: TermKey, _ rest: ArraySlice<DictionaryProvider>, _ answer: APIAnswer, _ outcome: inout Outcome
    ) -> ArraySlice<DictionaryProvider>? {
        for (index, provider) in zip(rest.indices, rest) {
            switch provider {
            case .wordNet:
                if let definition = wordNetProvider?.definition(for: key) {
                    outcome.resolutions[key] = .defined(definition)
                    outcome.fromWordNet += 1
                    return nil
                }
            case .api:
                if case .fetch = answer { return rest[(index + 1)...] }
            }
        }
        switch answer {
        case .notFound: outcome.resolutions[key] = .notFound
        case .failed(let unusable): outcome.resolutions[key] = unusable ? .unusable : .unavailable
        // Not asked: for want of a connection when the API is a provider, else because no source has the word.
        case .notAsked, .fetch: outcome.resolutions[key] = providers.contains(.api) ? .unavailable : .notFound
        }
        return nil
    }

    /// Fetches `keys` in one batch, storing each answer in the cache as it arrives; the API is asked once for the
    /// base form of a word it doesn't know, unless that base is defined elsewhere already.
    private func fetch(
        _ keys: [TermKey], with fetcher: any DefinitionFetcher, team: [TermKey: TermDefinition], _ outcome: inout Outcome,
        progress: @escaping @Sendable (FetchProgress) -> Void
    ) async -> [TermKey: FetchOutcome] {
        let forms = WordFormResolver(dictionary: wordNet, language: options.language)
        let wordNetFirst = (providers.firstIndex(of: .wordNet) ?? .max) < (providers.firstIndex(of: .api) ?? .max)
        let wordNetProvider = wordNetProvider
        let lookup = { @Sendable [self] (key: TermKey) in self.lookup(key) }
        let baseForm: @Sendable (TermKey) -> TermKey? = { key in
            forms.baseKeys(of: key).first { base in
                guard team[base] == nil else { return false }
                if case .entry = lookup(base) { return false }
                return !(wordNetFirst && wordNetProvider?.definition(for: base) != nil)
            }
        }
        // Each entry is stored as it arrives; a failed fetch stores nothing, so a good entry is never replaced.
        let writer = CacheWriter(cache: cache)
        let results = await fetcher.fetch(keys, language: options.language, baseForm: baseForm, progress: progress) { [storesAnswers] _, result in
            if storesAnswers, case .fetched(let entry) = result { writer.store(entry) }
        }
        let writeFailures = await writer.finish()
        outcome.fetchedKeys = Set(keys).union(results.keys)
        for (key, problem) in writeFailures.sorted(by: { $0.key < $1.key }) {
            let file = displayPath(cache.fileURL(for: key, language: options.language))
            outcome.diagnostics.append(Diagnostic(.cacheWrite(key: key.rawValue, reason: problem), subject: file))
        }
        return results
    }

    /// Uses a stale cache entry after its refetch failed; false when it says the API has no such word.
    private func useStale(_ key: TermKey, _ entry: CacheEntry, _ outcome: inout Outcome) -> Bool {
        guard case .defined(let definition) = Self.resolution(key, entry, fetched: false, stale: true) else { return false }
        outcome.resolutions[key] = .defined(definition)
        outcome.cached += 1
        return true
    }

    /// Stage of its own: a key no source defines resolves to its first base form that one does (English, by
    /// WordNet), quietly (a base is never fetched here: the client asked for it already, when the API didn't know the
    /// word); in a language Snowball stems, to a defined key of the same stem (`serveurs` → `serveur`).
    private func resolveForms(_ keys: [TermKey], team: [TermKey: TermDefinition], fetched: [TermKey: FetchOutcome], _ outcome: inout Outcome) {
        let forms = WordFormResolver(dictionary: wordNet, language: options.language)
        guard forms.isEnabled else {
            if let stemmer = SnowballStemmer(language: options.language) { resolveStems(keys, stemmer: stemmer, team: team, &outcome) }
            return
        }
        // Bases are looked up among the words' own resolutions, never among forms resolved here: no chains.
        let exact = outcome.resolutions
        var bases: [TermKey: TermDefinition?] = [:]
        func definition(of base: TermKey) -> TermDefinition? {
            if let known = bases[base] { return known }
            let found = baseDefinition(base, team: team, exact: exact[base], fetched: fetched[base])
            bases[base] = .some(found)
            return found
        }
        for key in keys {
            if case .defined = outcome.resolutions[key] { continue }
            guard let (base, found) = forms.baseKeys(of: key).lazy.compactMap({ base in definition(of: base).map { (base, $0) } }).first else { continue }
            outcome.resolutions[key] = .defined(found)
            outcome.forms[key] = base
        }
    }

    /// Each key no source defines resolves to the defined key of its stem: the team's first (in key order), else
    /// the first other word the site defines. Only words defined themselves count, never forms resolved here.
    private func resolveStems(_ keys: [TermKey], stemmer: SnowballStemmer, team: [TermKey: TermDefinition], _ outcome: inout Outcome) {
        var byStem: [String: TermDefinition] = [:]
        for key in team.keys.sorted() {
            guard let definition = team[key] else { continue }
            let stem = stemmer.stemKey(key)
            if byStem[stem] == nil { byStem[stem] = definition }
        }
        let exact = outcome.resolutions
        for key in exact.keys.sorted() {
            guard case .defined(let definition) = exact[key] else { continue }
            let stem = stemmer.stemKey(key)
            if byStem[stem] == nil { byStem[stem] = definition }
        }
        for key in keys {
            if case .defined = outcome.resolutions[key] { continue }
            guard let found = byStem[stemmer.stemKey(key)] else { continue }
            outcome.resolutions[key] = .defined(found)
            outcome.forms[key] = found.key
        }
    }

    /// The definition a base form has, asking its sources in order without a word of complaint.
    private func baseDefinition(_ base: TermKey, team: [TermKey: TermDefinition], exact: Resolution?, fetched: FetchOutcome?) -> TermDefinition? {
        if case .defined(let definition) = exact { return definition }
        if exact != nil { return nil }
        if let definition = team[base] { return definition }
        if case .entry(let entry) = lookup(base), case .defined(let definition) = Self.resolution(base, entry, fetched: false, stale: false) {
            return definition
        }
        for provider in providers {
            switch provider {
            case .api:
                if case .fetched(let entry) = fetched, case .defined(let definition) = Self.resolution(base, entry, fetched: true, stale: false) {
                    return definition
                }
            case .wordNet:
                if let definition = wordNetProvider?.definition(for: base) { return definition }
            }
        }
        return nil
    }

    private func lookup(_ key: TermKey) -> DefinitionCache.Lookup {
        reader?.lookup(key) ?? cache.lookup(key, language: options.language, displayPath: displayPath)
    }

    static func resolution(_ key: TermKey, _ entry: CacheEntry, fetched: Bool, stale: Bool) -> Resolution {
        guard !entry.isNotFound, let first = entry.entries.first else { return .notFound }
        return .defined(TermDefinition(key: key, word: first.word, entries: entry.entries, origin: .dictionary(entry, fetched: fetched, stale: stale)))
    }

    private static func day(_ date: Date) -> String {
        String(CacheEntry.timestamp(date).prefix(10))
    }
}
