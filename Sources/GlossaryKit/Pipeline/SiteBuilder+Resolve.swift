import Foundation

extension SiteBuilder {
    /// How long a term that could not be fetched (the API unreachable) is left alone before a rebuild of the same
    /// session asks again, so a dictionary that is down doesn't slow every keystroke of a preview.
    static let unavailableRetry: TimeInterval = 60

    /// Stage: definitions for every key — the team's, then the cache (the lookups made while parsing), then the
    /// providers (the dictionary for what is missing or stale, WordNet), then base forms for what is left.
    func resolve(_ terms: CollectedTerms, _ loaded: LoadedSite) async -> DefinitionResolver.Outcome {
        let config = loaded.config
        let now = options.now()
        // Fetches that failed earlier in this session wait before being tried again.
        let context = "\(config.language)\n\(loaded.reader.cache.directory.path)\n\(config.dictionary.maxAgeDays)\n\(config.dictionary.api)"
        let resting: Set<TermKey> = state.withLock { state in
            if state.resolutionContext != context {
                state.resolutions = [:]
                state.resolutionContext = context
            }
            return Set(state.resolutions.filter { now.timeIntervalSince($0.value.at) < Self.unavailableRetry }.keys)
        }
        let (wordNet, wordNetProblem) = wordNetDictionary(for: config, needed: !terms.keys.allSatisfy { terms.team[$0] != nil })
        var resolver = definitionResolver(config, cache: loaded.reader.cache, wordNet: wordNet, providers: config.dictionary.providers)
        resolver.reader = loaded.reader
        resolver.resting = resting
        // Cache entries read on every core first (the resolver asks for them one after another).
        let reader = loaded.reader
        let cached = terms.keys.filter { terms.team[$0] == nil }.parallelMap(jobs: options.jobs) { key in
            if case .entry(let entry) = reader.lookup(key), !entry.isNotFound { return (key, true) }
            return (key, false)
        }
        // WordNet's answers for the rest, off Swift's pool (libwordnet takes its turns behind one lock).
        if let wordNet {
            let uncached = cached.filter { !$0.1 }.map(\.0)
            await Self.offPool { wordNet.prepare(uncached) }
        }
        var outcome = await resolver.resolve(terms.keys, team: terms.team, progress: progress)
        if let wordNetProblem { outcome.diagnostics.append(wordNetProblem) }
        state.withLock { state in
            // What was fetched was stored: the remembered lookups of those files are out of date.
            for key in outcome.fetchedKeys {
                state.cacheLookups[loaded.reader.cache.fileURL(for: key, language: config.language).path] = nil
                if outcome.fetchFailures.contains(key) {
                    state.resolutions[key] = (.unavailable, now)
                } else {
                    state.resolutions[key] = nil
                }
            }
        }
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

    /// WordNet's data folder: the option's, else the environment's (`WNSEARCHDIR`, `WNHOME`), else Debian's.
    func wordNetFolder() -> String { Self.wordNetFolder(options) }

    static func wordNetFolder(_ options: BuildOptions) -> String {
        WordNet.normalisedFolder(options.wordNetFolder ?? WordNet.defaultDataFolder(ProcessInfo.processInfo.environment))
    }

    /// WordNet for a build of `config`, opened once per state: nil (and no problem) when the site doesn't use it
    /// or no key needs it; nil and one warning when its data can't be opened. `folder`: WordNet's data folder as `wordNetFolder()` gives it, when the caller has it (reading the environment
    /// costs more than a lookup: the inflections of 2,000 terms asked for it 8,000 times).
    func wordNetDictionary(for config: SiteConfig, needed: Bool, folder known: String? = nil) -> (WordNetDictionary?, Diagnostic?) {
        // Word forms use WordNet's Morphy even where WordNet is not asked for definitions; the warning is for sites
        // that asked for WordNet.
        guard needed, WordFormResolver.isEnglish(config.language) else { return (nil, nil) }
        let asked = config.dictionary.providers.contains(.wordNet)
        let folder = known ?? wordNetFolder()
        let opened = state.withLock { state -> Result<WordNetDictionary, WordNetError> in
            if let known = state.wordNet, known.folder == folder { return known.result }
            let result = Result(catching: { () throws(WordNetError) in WordNetDictionary(try WordNet.open(dataFolder: folder)) })
            state.wordNet = (folder, result)
            return result
        }
        switch opened {
        case .success(let dictionary): return (dictionary, nil)
        case .failure(let error): return (nil, asked ? Diagnostic(.wordNetUnavailable(reason: error.description)) : nil)
        }
    }
}
