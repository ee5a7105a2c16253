import Foundation

extension SiteBuilder {
    /// Step: definitions for every key, each within its language (`TermKey.language`) — the language's team entries,
    /// then the cache and the providers asked in that language (`readers`, by key language), then base forms for
    /// what is left (WordNet's in English, Snowball's stems in the languages it has).
    func resolve(_ terms: CollectedTerms, config: SiteConfig, readers: [String: CacheReader]) async -> DefinitionResolver.Outcome {
        var outcome = DefinitionResolver.Outcome()
        for part in Self.byLanguage(terms.keys, team: terms.team, config: config) {
            guard let reader = readers[part.language] else { continue }
            // The default language is resolved even without keys: it says what WordNet lacks.
            guard part.language.isEmpty || !part.keys.isEmpty else { continue }
            outcome.add(await resolve(part.keys, team: part.team, config: part.config, reader: reader), language: part.language)
        }
        return outcome
    }

    /// `keys` and `team` split by language (a key language, in the site's order), each part keyed in no language
    /// with the configuration asking in its language: what a resolver, which knows one language, is given.
    static func byLanguage(
        _ keys: [TermKey], team: [TermKey: TermDefinition], config: SiteConfig
    ) -> [(language: String, config: SiteConfig, keys: [TermKey], team: [TermKey: TermDefinition])] {
        let languages = config.siteLanguages
        return languages.codes.map { code in
            let language = languages.keyLanguage(code)
            var own: [TermKey: TermDefinition] = [:]
            if language.isEmpty && team.keys.allSatisfy({ $0.language.isEmpty }) {
                // Every entry is already keyed in no language (a site in one language): the table as it is.
                own = team
            } else {
                for (key, definition) in team where key.language == language { own[key.inLanguage("")] = definition.inLanguage("") }
            }
            var asked = config
            asked.language = code
            return (language, asked, keys.filter { $0.language == language }.map { $0.inLanguage("") }, own)
        }
    }

    /// `resolve(_:config:readers:)` for one language's `keys` and `team`, keyed in no language.
    private func resolve(_ keys: [TermKey], team: [TermKey: TermDefinition], config: SiteConfig, reader: CacheReader) async -> DefinitionResolver.Outcome {
        let terms = CollectedTerms(team: team, usage: [:], keys: keys)
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

extension DefinitionResolver.Outcome {
    /// Adds a language's outcome, resolved with keys in no language, as terms of `language`.
    mutating func add(_ other: Self, language: String) {
        if language.isEmpty && resolutions.isEmpty {
            // Keyed in no language already, and nothing to merge with: taken as they are.
            resolutions = other.resolutions
        } else {
            for (key, resolution) in other.resolutions {
                if case .defined(let definition) = resolution {
                    resolutions[key.inLanguage(language)] = .defined(definition.inLanguage(language))
                } else {
                    resolutions[key.inLanguage(language)] = resolution
                }
            }
        }
        diagnostics += other.diagnostics
        local += other.local
        cached += other.cached
        fetched += other.fetched
        fromWordNet += other.fromWordNet
        apiUnreachable = apiUnreachable || other.apiUnreachable
        fetchedKeys.formUnion(other.fetchedKeys.map { $0.inLanguage(language) })
        fetchFailures.formUnion(other.fetchFailures.map { $0.inLanguage(language) })
        for (form, base) in other.forms { forms[form.inLanguage(language)] = base.inLanguage(language) }
    }
}

extension TermDefinition {
    /// The definition as a term of `language` (its key and aliases in it).
    func inLanguage(_ language: String) -> TermDefinition {
        guard key.language != language else { return self }
        var definition = self
        definition.key = key.inLanguage(language)
        definition.aliases = aliases.map { $0.inLanguage(language) }
        return definition
    }
}
