import Foundation

extension SiteBuilder {
    /// Step: definitions for every key — the team's, then the cache, then the providers (the dictionary for what is
    /// missing or stale, WordNet), then base forms for what is left.
    func resolve(_ terms: CollectedTerms, config: SiteConfig, reader: CacheReader) async -> DefinitionResolver.Outcome {
        let now = options.now()
        // Fetches that failed earlier in this session wait before being tried again.
        let context = "\(config.language)\n\(reader.cache.directory.path)\n\(config.dictionary.maxAgeDays)\n\(config.dictionary.api)"
        let resting = dictionaries.resting(context: context, now: now)
        let (wordNet, wordNetProblem) = dictionaries.wordNet(for: config, needed: !terms.keys.allSatisfy { terms.team[$0] != nil })
        var resolver = definitionResolver(config, cache: reader.cache, wordNet: wordNet, providers: config.dictionary.providers)
        resolver.reader = reader
        resolver.resting = resting
        // Cache entries read on every core first (the resolver asks for them one after another), then WordNet's
        // answers for the rest (libwordnet takes its turns behind one lock).
        let cached = terms.keys.filter { terms.team[$0] == nil }.parallelMap(jobs: options.jobs) { key in
            if case .entry(let entry) = reader.lookup(key), !entry.isNotFound { return (key, true) }
            return (key, false)
        }
        wordNet?.prepare(cached.filter { !$0.1 }.map(\.0))
        var outcome = await resolver.resolve(terms.keys, team: terms.team, progress: progress)
        if let wordNetProblem { outcome.diagnostics.append(wordNetProblem) }
        dictionaries.fetched(Array(outcome.fetchedKeys), failures: outcome.fetchFailures, now: now)
        return outcome
    }

    /// The resolver for `config` with this build's options: the dictionary client unless offline, WordNet as given.
    func definitionResolver(
        _ config: SiteConfig, cache: DefinitionCache, wordNet: WordNetDictionary?, providers: [DictionaryProvider]
    ) -> DefinitionResolver {
        DefinitionResolver(
            cache: cache, fetcher: options.offline ? nil : makeFetcher?(config), wordNet: wordNet,
            options: .init(
                language: config.language, offline: options.offline, refresh: options.refresh, maxAgeDays: config.dictionary.maxAgeDays,
                now: options.now(), providers: providers),
            displayPath: { [root = options.source] url in Self.relativePath(url, root: root) })
    }
}
