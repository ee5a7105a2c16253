import Foundation

/// Builds a site: scan → check against the last build → load → collect terms → resolve definitions → make the site
/// → plan → render and write.
///
/// Each step is a function from values to values that can be tested alone. The last build's `BuildState` lets a build
/// skip what hasn't changed: files whose bytes are the same keep their records, and a file made from the same value
/// as before is kept, not rendered (`RenderStep`). A build with nothing changed says again what the last one said; one
/// that changed only pages' text takes the text-edit shortcut (`TextEdit`). Either way the output is byte for byte
/// what a build from nothing gives.
public struct SiteBuilder: Sendable {
    public var options: BuildOptions
    /// Called once the configuration is read, so the client follows `glossary.yml` (never when offline).
    public var makeFetcher: FetcherFactory?
    public var progress: @Sendable (FetchProgress) -> Void
    /// WordNet and the failed fetches, shared by the builds of a session.
    public var dictionaries: Dictionaries

    public init(
        options: BuildOptions, makeFetcher: FetcherFactory?, dictionaries: Dictionaries? = nil, progress: @escaping @Sendable (FetchProgress) -> Void = { _ in }
    ) {
        self.options = options
        self.makeFetcher = makeFetcher
        self.progress = progress
        self.dictionaries = dictionaries ?? Dictionaries(options: options)
    }

    public init(options: BuildOptions, fetcher: (any DefinitionFetcher)? = nil, progress: @escaping @Sendable (FetchProgress) -> Void = { _ in }) {
        self.init(options: options, makeFetcher: Self.constant(fetcher), progress: progress)
    }

    /// A factory that always gives `fetcher` (nil for none).
    public static func constant(_ fetcher: (any DefinitionFetcher)?) -> FetcherFactory? {
        guard let fetcher else { return nil }
        return { @Sendable _ in fetcher }
    }

    /// Builds into `sink` from nothing; with no sink, only plans (what `glossary check` needs: every problem, nothing
    /// rendered). Cancelling the task stops the build at the next file (`BuildResult.interrupted`), with nothing written.
    public func build(into sink: (any OutputSink)?) async -> BuildResult {
        await build(into: sink, state: nil).result
    }

    /// Builds into `sink`, starting from `state` (the last build's into it: nil for none), and gives the state this
    /// build leaves (nil: the next starts from nothing, or nothing was done).
    public func build(into sink: (any OutputSink)?, state: BuildState?) async -> (result: BuildResult, state: BuildState?) {
        await build(into: sink) { state }
    }

    /// `build(into:state:)`, the state read by `load` while the site's folder is scanned.
    func build(into sink: (any OutputSink)?, loading load: @escaping @Sendable () -> BuildState?) async -> (result: BuildResult, state: BuildState?) {
        let (result, state, _) = await build(into: sink, known: nil, loading: load)
        return (result, state)
    }

    /// `build(into:loading:)` taking the inputs from `known` when given (a preview's: the site's folder is not scanned,
    /// and only its changed pages are looked at), and giving the inputs it read.
    func build(into sink: (any OutputSink)?, known: SiteInputs.Known?, loading load: @escaping @Sendable () -> BuildState?) async -> (
        result: BuildResult, state: BuildState?, inputs: SiteInputs
    ) {
        let cancellation = BuildCancellation()
        return await withTaskCancellationHandler {
            await run(into: sink, known: known, loading: load, cancellation: cancellation)
        } onCancel: {
            cancellation.cancel()
        }
    }

    private func run(
        into sink: (any OutputSink)?, known: SiteInputs.Known?, loading load: @escaping @Sendable () -> BuildState?, cancellation: BuildCancellation
    ) async -> (result: BuildResult, state: BuildState?, inputs: SiteInputs) {
        let started = Date()
        let context = Self.context(options)
        // Scan the site's folder, read the configuration and the theme it names; meanwhile, the last state, and the
        // sink's look at its files.
        async let scanned = known?.inputs ?? SiteInputs.read(options: options)
        var stats = BuildStats()
        let state = timed("state", &stats) { options.refresh ? nil : load().flatMap { $0.context == context ? $0 : nil } }
        // The last state, the inputs' check and the pages' records, whatever the build comes to, are freed beside what
        // comes after it.
        defer { FreedMemory.release(state) }
        let outputIntact = timed("output", &stats) { (sink as? SiteTransaction)?.start(from: state, jobs: options.jobs) ?? true }
        // (The scan's own time: what was left of it once the state was read.)
        let scanWait = Date()
        let inputs = await scanned
        stats.stageTimes.append(("scan", Date().timeIntervalSince(scanWait)))
        var log = DiagnosticLog()
        var result = BuildResult(diagnostics: [])
        func finish(_ next: BuildState? = nil) -> (result: BuildResult, state: BuildState?, inputs: SiteInputs) {
            stats.totalSeconds = Date().timeIntervalSince(started)
            result.stats = stats
            result.diagnostics = DiagnosticLog.capped(Self.ordered(log.all))
            if cancellation.isCancelled {
                result.interrupted = true
                result.outputs = nil
                return (result, nil, inputs)
            }
            return (result, next, inputs)
        }

        result.config = inputs.config
        // What changed since the state's build.
        let check = timed("changes", &stats) {
            InputCheck(
                source: inputs.source, theme: inputs.theme, state: state, known: known, verifiedAt: started.timeIntervalSince1970,
                jobs: options.jobs)
        }
        defer { FreedMemory.release(check) }
        // A build that will write: the previous folder, which staging starts from, looked at on one core beside the work
        // that comes before the first file (a text edit's remake runs on one).
        async let _ = check.nothingChanged ? nil : (sink as? SiteTransaction)?.lookAhead(jobs: 1)
        // Nothing, or pages' text alone: the shortcuts.
        // (A context hook is an input no check sees: a build with one takes no shortcut, and leaves a state whose digest
        // no build matches.)
        if let state, let sink = sink as? SiteTransaction, outputIntact, options.contextHook == nil,
            state.report.holds(at: options.now(), offline: options.offline)
        {
            if check.nothingChanged {
                result = BuildResult(diagnostics: state.report.diagnostics, stats: state.report.stats)
                result.config = inputs.config
                result.rootPath = state.report.rootPath
                result.outputs = OutputChanges(changed: [], sameFiles: true) { Set(state.outputs.keys) }
                result.stats.stageTimes = stats.stageTimes
                result.stats.written = 0
                result.stats.totalSeconds = Date().timeIntervalSince(started)
                return (result, nil, inputs)
            }
            let edit = timed("text edit", &stats) {
                TextEdit(state: state, check: check, source: inputs.source, config: inputs.config, options: options).run(into: sink)
            }
            if let (edited, next) = edit {
                result = edited
                result.config = inputs.config
                result.stats.stageTimes = stats.stageTimes
                result.stats.totalSeconds = Date().timeIntervalSince(started)
                return (result, next, inputs)
            }
        }
        log.add(contentsOf: inputs.problems)
        guard let config = inputs.config, !inputs.configHasErrors else { return finish() }

        // Load: a record for every markdown file.
        let loaded = timed("parse", &stats) {
            Load(options: options, source: inputs.source, config: config, check: check, dictionaries: dictionaries).run(cancellation: cancellation)
        }
        defer { FreedMemory.release(loaded) }
        if cancellation.isCancelled { return finish() }
        log.add(contentsOf: loaded.problems)

        // Collect terms; the navigation meanwhile (it needs only the pages).
        let published = Set(loaded.records.map(\.page.contentPath))
        let unpublished = Set(loaded.source.markdownFiles.map(\.contentPath).filter { !published.contains($0) })
        async let navigation = BuiltSite.navigation(config: config, pages: loaded.records, unpublished: unpublished)
        let (terms, termProblems) = timed("terms", &stats) { Self.collectTerms(loaded.records, jobs: options.jobs) }
        log.add(contentsOf: termProblems)

        // Resolve definitions.
        let resolveStart = Date()
        // The cache's entries of each language, read by one reader each (by key language).
        let cache = DefinitionCache(directory: options.source.appendingPathComponent(config.dictionary.cache, isDirectory: true))
        var readers: [String: CacheReader] = [:]
        for code in config.siteLanguages.codes {
            readers[config.siteLanguages.keyLanguage(code)] = CacheReader(
                cache: cache, language: code, displayPath: { [root = options.source] url in Self.relativePath(url, root: root) })
        }
        let resolved = await resolve(terms, config: config, readers: readers)
        stats.stageTimes.append(("resolve", Date().timeIntervalSince(resolveStart)))
        if cancellation.isCancelled { return finish() }
        log.add(contentsOf: resolved.diagnostics)
        result.apiUnreachable = resolved.apiUnreachable

        // The site: its term tables, navigation and link targets, and the checks on them.
        let siteStart = Date()
        let site = BuiltSite(
            config: config, pages: loaded.records, team: terms.team, resolutions: resolved.resolutions, usage: terms.usage, forms: resolved.forms,
            senses: terms.senses, navigation: await navigation)
        result.site = site
        result.rootPath = site.rootPath
        result.autolink = loaded.autolink
        log.add(contentsOf: site.unresolvedDiagnostics(offline: options.offline))
        log.add(contentsOf: site.seeAlsoDiagnostics())
        log.add(contentsOf: site.navigation.diagnostics)
        log.add(contentsOf: site.ambiguityDiagnostics())
        log.add(contentsOf: site.conceptDiagnostics())
        count(site, into: &stats)
        stats.stageTimes.append(("site", Date().timeIntervalSince(siteStart)))
        guard let theme = inputs.theme, !log.hasErrors else { return finish() }

        // Plan, check the links against it, and render. The plan (its files made while planning) and the renderer
        // (its tables) go once the files are made: they are the biggest values a dictionary-sized build holds.
        let rendered: RenderStep.Rendered
        let paths: Set<String>
        let definitions: [TermDefinition]
        let output: any OutputSink
        do {
            let renderer = SiteRenderer(site: site, theme: theme, bodySuffix: options.bodySuffix, jobs: options.jobs)
            let (plan, planProblems) = timed("plan", &stats) {
                OutputPlan.make(
                    site: site, source: inputs.source, theme: theme, sitemapLimit: options.sitemapLimit, termShards: options.termShards,
                    searchShards: options.searchShards, jobs: options.jobs, searchDocuments: sink == nil ? nil : { renderer.searchDocuments($0, in: $1) }
                ) { check.hashes[$0] }
            }
            log.add(contentsOf: planProblems)
            result.outputPaths = plan.paths
            timed("links", &stats) {
                log.add(contentsOf: site.brokenLinkDiagnostics(paths: plan.paths, jobs: options.jobs))
                log.add(contentsOf: site.seeAlsoLinkDiagnostics(paths: plan.paths))
            }
            stats.files = plan.items.count
            let stopped = log.hasErrors || (options.strict && log.all.contains { $0.severity == .warning })
            guard let sink, !stopped, !cancellation.isCancelled else { return finish() }

            // Render what the sink doesn't hold made from the same value.
            rendered = timed("render", &stats) {
                RenderStep(plan: plan, site: site, renderer: renderer, bodies: loaded.bodies, jobs: options.jobs, hook: options.contextHook)
                    .run(into: sink, cancellation: cancellation)
            }
            (paths, definitions, output) = (plan.paths, plan.definitions, sink)
        }
        if cancellation.isCancelled { return finish() }
        if let failure = rendered.failures.first {
            log.add(contentsOf: [
                Diagnostic(.writeFailed(reason: failure.description), subject: Self.relativePath(options.outputDirectory, root: options.source))
            ])
            return finish()
        }
        // A file gone or changed since its record was made left its page without the body the record says (an editor
        // saved it, a checkout replaced it, meanwhile): the build fails, and the next one reads the file as it is.
        let changedMeanwhile = loaded.bodies.problems
        if !changedMeanwhile.isEmpty {
            log.add(contentsOf: changedMeanwhile)
            return finish()
        }
        stats.written = rendered.written
        result.outputs = OutputChanges(paths: paths, changed: rendered.changed)
        if let memory = output as? MemorySink { result.output = memory.output }
        guard let incremental = output as? SiteTransaction else { return finish() }

        // What the next build starts from.
        var next = BuildState(context: context)
        next.verifiedAt = check.verifiedAt
        next.digest = options.contextHook == nil ? check.digest : .zero
        next.files = check.files.filter { check.hashes[$0.key] != nil }
        for reader in readers.values { next.files.merge(reader.filesRead) { $1 } }
        if WordFormResolver.isEnglish(config.language) {
            for name in WordNet.requiredFiles {
                let path = dictionaries.wordNetFolder + "/" + name
                next.files[path] = .init(signature: FileSignature(path: path), hash: nil)
            }
        }
        next.pages = loaded.pages
        let kits = Self.kits(site, definitions: definitions, jobs: options.jobs)
        for (path, kit) in kits.pages { next.pages[path]?.kit = .made(kit) }
        for (path, kit) in kits.entries { next.pages[path]?.kit = .made(kit) }
        next.outputs = incremental.outputs
        stats.totalSeconds = Date().timeIntervalSince(started)
        next.report = .init(
            diagnostics: DiagnosticLog.capped(Self.ordered(log.all)), stats: stats,
            validUntil: options.offline ? .infinity : readers.values.map { $0.firstExpiry(maxAgeDays: config.dictionary.maxAgeDays) }.min() ?? .infinity,
            wantsNetwork: !options.offline && (!resolved.fetchedKeys.isEmpty || stats.unresolved > 0 || resolved.apiUnreachable), rootPath: site.rootPath)
        next.report.stats.fetched = 0
        return finish(next)
    }

    /// What a text edit of each content page and glossary entry needs (`TextEdit`): pages that auto-link are left out
    /// (their references follow every term's forms), as are pages with problems and entries of more than one term.
    static func kits(
        _ site: BuiltSite, definitions: [TermDefinition], jobs: Int
    ) -> (pages: [String: BuildState.PageKit], entries: [(path: String, kit: BuildState.PageKit)]) {
        var known: [TermKey: TermMarkup.Target?] = [:]
        for key in site.usage.keys { known[key] = .some(site.definition(for: key).map(TermMarkup.Target.init)) }
        let targets = known
        let root = site.exportRoot
        let contentPages = site.pages.filter { $0.page.kind == .page }
        // Each page's place among its language's (`SiteRenderer.searchSources`).
        let languages = site.config.siteLanguages
        var counts: [String: Int] = [:]
        let searchPlaces = contentPages.map { record in
            let language = languages.language(ofPath: record.page.urlPath)
            defer { counts[language, default: 0] += 1 }
            return counts[language, default: 0]
        }
        let pages = contentPages.enumerated().filter { $0.element.autolink == nil && $0.element.diagnostics.isEmpty }
        let kits = pages.parallelMap(jobs: jobs) { document, record -> (String, BuildState.PageKit) in
            let keys = record.references.map(\.key).uniqued()
            let kit = BuildState.PageKit(
                document: document, search: searchPlaces[document], destinations: site.links.destinations(record),
                targets: keys.map { targets[$0] ?? site.definition(for: $0).map(TermMarkup.Target.init) },
                llms: site.config.llms == .off ? nil : LLMsText.targets(record, site: site, root: root))
            return (record.page.contentPath, kit)
        }
        // Each entry of a term with a page, by its term's place in `definitions` (the exports' order).
        var terms: [Int: Int] = [:]
        for definition in definitions { if case .team(let index) = definition.origin { terms[index, default: 0] += 1 } }
        let entries = definitions.enumerated().compactMap { place, definition -> (place: Int, record: Int, key: TermKey)? in
            guard case .team(let index) = definition.origin, terms[index] == 1, site.pages[index].autolink == nil, site.pages[index].diagnostics.isEmpty
            else { return nil }
            return (place, index, definition.key)
        }
        let entryKits = entries.parallelMap(jobs: jobs) { entry -> (path: String, kit: BuildState.PageKit) in
            let record = site.pages[entry.record]
            let keys = record.references.map(\.key).uniqued()
            let kit = BuildState.PageKit(
                document: entry.place, search: -1, destinations: site.links.destinations(record),
                targets: keys.map { targets[$0] ?? site.definition(for: $0).map(TermMarkup.Target.init) },
                term: languages.termPath(entry.key))
            return (record.page.contentPath, kit)
        }
        return (Dictionary(kits, uniquingKeysWith: { first, _ in first }), entryKits)
    }

    /// What the state's contents were made under: this glossary binary (another version renders otherwise), the output
    /// folder and the options that change what a build makes or says.
    static func context(_ options: BuildOptions) -> Fingerprint {
        var hasher = FingerprintHasher()
        hasher.combine(EngineIdentity.current)
        hasher.combine(options.outputDirectory.standardizedFileURL.path)
        hasher.combine(options.offline)
        hasher.combine(options.drafts)
        hasher.combine(options.baseURL)
        hasher.combine(options.apiURL)
        hasher.combine(options.wordNetFolder)
        hasher.combine(options.bodySuffix)
        return hasher.finish()
    }

    /// The summary's counts: every term with a page once, by where its definition came from.
    func count(_ site: BuiltSite, into stats: inout BuildStats) {
        stats.pages = site.pages.filter { $0.page.kind == .page }.count
        stats.terms = site.termPages.count
        stats.local = 0
        stats.cached = 0
        stats.fetched = 0
        stats.fromWordNet = 0
        for definition in site.termPages.values {
            switch definition.origin {
            case .team: stats.local += 1
            case .dictionary(_, let fetched, _): if fetched { stats.fetched += 1 } else { stats.cached += 1 }
            case .wordNet: stats.fromWordNet += 1
            }
        }
        stats.unresolved = Set(site.unresolvedReferences.map(\.key)).count
    }

    /// Problems in file order (problems without a file last), otherwise as found.
    static func ordered(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.enumerated().sorted { lhs, rhs in
            switch (lhs.element.location, rhs.element.location) {
            case (let l?, let r?) where l != r: return l < r
            case (nil, _?): return false
            case (_?, nil): return true
            default: return lhs.offset < rhs.offset
            }
        }.map(\.element)
    }

    func timed<T>(_ name: String, _ stats: inout BuildStats, _ body: () throws -> T) rethrows -> T {
        let start = Date()
        defer { stats.stageTimes.append((name, Date().timeIntervalSince(start))) }
        return try body()
    }

    func displayPath(_ url: URL) -> String { Self.relativePath(url, root: options.source) }

    /// `url` relative to `root` when it lies below it (how paths appear in diagnostics), else its full path.
    public static func relativePath(_ url: URL, root: URL) -> String {
        let path = url.standardizedFileURL.path
        let rootPath = root.standardizedFileURL.path
        let prefix = rootPath.hasSuffix("/") ? rootPath : rootPath + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}

extension BuildState.Report {
    /// Whether the build this reports would be made again alike at `now`: it had no need of the network (or this build
    /// has none), and no cached definition it used has gone stale since.
    func holds(at now: Date, offline: Bool) -> Bool {
        offline || (!wantsNetwork && now.timeIntervalSince1970 < validUntil)
    }
}
