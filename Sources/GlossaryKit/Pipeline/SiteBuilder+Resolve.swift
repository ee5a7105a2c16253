import Foundation

extension SiteBuilder {
    /// How long a term that could not be fetched (the API unreachable) is left alone before a rebuild of the same
    /// session asks again, so a dictionary that is down doesn't slow every keystroke of a preview.
    static let unavailableRetry: TimeInterval = 60

    /// Stage: definitions for every key — the team's, then the cache (the lookups made while parsing), then the
    /// dictionary for what is missing or stale.
    func resolve(_ terms: CollectedTerms, _ loaded: LoadedSite) async -> DefinitionResolver.Outcome {
        let config = loaded.config
        let now = Date()
        // Fetches that failed earlier in this session wait before being tried again.
        let context = "\(config.language)\n\(loaded.reader.cache.directory.path)\n\(config.dictionary.maxAgeDays)\n\(config.dictionary.api)"
        let resting: Set<TermKey> = state.withLock { state in
            if state.resolutionContext != context {
                state.resolutions = [:]
                state.resolutionContext = context
            }
            return Set(state.resolutions.filter { now.timeIntervalSince($0.value.at) < Self.unavailableRetry }.keys)
        }
        var resolver = DefinitionResolver(
            cache: loaded.reader.cache,
            fetcher: options.offline ? nil : makeFetcher?(config),
            options: .init(language: config.language, offline: options.offline, refresh: options.refresh, maxAgeDays: config.dictionary.maxAgeDays),
            displayPath: { [root = options.source] url in Self.relativePath(url, root: root) })
        resolver.reader = loaded.reader
        resolver.resting = resting
        // Cache entries read on every core first (the resolver asks for them one after another).
        let reader = loaded.reader
        _ = terms.keys.filter { terms.team[$0] == nil }.parallelMap(jobs: options.jobs) { key in
            if case .entry = reader.lookup(key) { return true }
            return false
        }
        let outcome = await resolver.resolve(terms.keys, team: terms.team, progress: progress)
        state.withLock { state in
            // What was fetched was stored: the remembered lookups of those files are out of date.
            for key in outcome.fetchedKeys {
                state.cacheLookups[loaded.reader.cache.fileURL(for: key, language: config.language).path] = nil
            }
            for (key, resolution) in outcome.resolutions where terms.team[key] == nil {
                if case .unavailable = resolution, !options.offline, !resting.contains(key) {
                    state.resolutions[key] = (resolution, now)
                } else if !resting.contains(key) {
                    state.resolutions[key] = nil
                }
            }
        }
        return outcome
    }
}
