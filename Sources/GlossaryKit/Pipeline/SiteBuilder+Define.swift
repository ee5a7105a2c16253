import Foundation

extension SiteBuilder {
    /// The definition a build of the site would use for one word, and where it came from (`glossary define`).
    public struct WordLookup: Sendable {
        /// A source a lookup can ask, as messages name it.
        public enum Source: String, Sendable {
            case team = "the team's entries"
            case cache = "the cache"
            case api = "the dictionary API"
            case wordNet = "WordNet"
        }

        /// Why the dictionary API gave nothing, when it was one of the sources.
        public enum APIState: Sendable, Equatable {
            /// Asked, or it had its answer in the cache.
            case asked
            /// `--offline`: never asked.
            case offline
            /// It could not be asked (network trouble) or answered with nothing usable.
            case failed(unusable: Bool)
        }

        public var key: TermKey
        /// nil when no source has the word.
        public var definition: TermDefinition?
        /// Set when the word stands for this base form's definition (`keyboards` → keyboard).
        public var baseForm: TermKey?
        /// The sources asked, in order.
        public var sources: [Source]
        public var api: APIState
        /// The team entry's file (`content/glossary/kerning.md`) for a team definition.
        public var teamEntryPath: String?
        /// Problems met on the way: the configuration's, the cache's, the API's, WordNet's.
        public var diagnostics: [Diagnostic]
    }

    /// What a build would use for `word`: the team's entries, the cache and the providers in the site's order; with
    /// `only`, that one provider alone (the API with its cache). Without a glossary.yml in the source folder, there are
    /// no team entries and no cache (and nothing fetched is stored). Nil when `word` names no term key.
    public func lookUp(_ word: String, only: DictionaryProvider? = nil) async -> WordLookup? {
        guard let key = TermKey(word) else { return nil }
        var log = DiagnosticLog()
        let inputs = SiteInputs.read(options: options)
        var config = inputs.config ?? SiteConfig()
        if inputs.config == nil, let apiURL = options.apiURL { config.dictionary.api = apiURL }
        // Only what glossary.yml says matters to a lookup; the pages' own problems are the build's business.
        log.add(contentsOf: inputs.problems.filter { $0.location?.file == "glossary.yml" })
        var lookup = WordLookup(key: key, definition: nil, baseForm: nil, sources: [], api: .asked, teamEntryPath: nil, diagnostics: [])
        if inputs.configHasErrors {
            lookup.diagnostics = log.all
            return lookup
        }
        let site = inputs.config.map { config in
            let check = InputCheck(source: inputs.source, theme: nil, state: nil, verifiedAt: 0, jobs: options.jobs)
            return Load(options: options, source: inputs.source, config: config, check: check, dictionaries: dictionaries).run(
                cancellation: BuildCancellation())
        }

        let providers = only.map { [$0] } ?? config.dictionary.providers
        var team: [TermKey: TermDefinition] = [:]
        if let site, only == nil {
            team = Self.collectTerms(site.records).0.team
            lookup.sources.append(.team)
        }
        let usesCache = site != nil && (only == nil || only == .api)
        if usesCache { lookup.sources.append(.cache) }
        let (wordNet, wordNetProblem) = dictionaries.wordNet(for: config, needed: team[key] == nil)
        if let wordNetProblem, providers.contains(.wordNet) { log.add(contentsOf: [wordNetProblem]) }
        for provider in providers {
            switch provider {
            case .api: if !options.offline { lookup.sources.append(.api) }
            case .wordNet where wordNet != nil && WordFormResolver.isEnglish(config.language): lookup.sources.append(.wordNet)
            case .wordNet: break
            }
        }
        if providers.contains(.api) && options.offline { lookup.api = .offline }

        let cacheFolder = options.source.appendingPathComponent(usesCache ? config.dictionary.cache : ".glossary/no-cache-for-lookups", isDirectory: true)
        var resolver = definitionResolver(config, cache: DefinitionCache(directory: cacheFolder), wordNet: wordNet, providers: providers)
        resolver.storesAnswers = site != nil
        let outcome = await resolver.resolve([key], team: team, progress: progress)
        log.add(contentsOf: outcome.diagnostics)
        lookup.diagnostics = Self.ordered(log.all)
        switch outcome.resolutions[key] {
        case .defined(let definition):
            lookup.definition = definition
            lookup.baseForm = outcome.forms[key]
            if case .team(let index) = definition.origin, let site { lookup.teamEntryPath = site.records[index].page.displayPath }
        case .unavailable where lookup.api == .asked && providers.contains(.api):
            lookup.api = .failed(unusable: false)
        case .unusable:
            lookup.api = .failed(unusable: true)
        default:
            break
        }
        // A dictionary that gave no answer was not really asked: the message says why instead.
        if case .failed = lookup.api { lookup.sources.removeAll { $0 == .api } }
        return lookup
    }
}
