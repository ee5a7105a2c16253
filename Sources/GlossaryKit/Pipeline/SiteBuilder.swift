import Foundation

/// Builds a site: load → collect terms → resolve definitions → plan → render → write.
///
/// Each stage is a function from values to values, so it can be tested alone; `build(into:)` runs them in
/// order, times each, collects every problem, and stops before rendering when an error was found. The build
/// state (`BuildState`) is what the stages know from earlier builds: with it a build reads, parses and renders
/// only what changed, and its output is byte for byte what a build from nothing gives.
public struct SiteBuilder: Sendable {
    public var options: BuildOptions
    public var state: BuildState
    /// Called once the configuration is read, so the client follows `glossary.yml` (never when offline).
    public var makeFetcher: FetcherFactory?
    public var progress: @Sendable (FetchProgress) -> Void

    public init(
        options: BuildOptions, state: BuildState = BuildState(), makeFetcher: FetcherFactory?,
        progress: @escaping @Sendable (FetchProgress) -> Void = { _ in }
    ) {
        self.options = options
        self.state = state
        self.makeFetcher = makeFetcher
        self.progress = progress
    }

    public init(options: BuildOptions, fetcher: (any DefinitionFetcher)? = nil, progress: @escaping @Sendable (FetchProgress) -> Void = { _ in }) {
        self.init(options: options, makeFetcher: Self.constant(fetcher), progress: progress)
    }

    /// A factory that always gives `fetcher` (nil for none).
    public static func constant(_ fetcher: (any DefinitionFetcher)?) -> FetcherFactory? {
        guard let fetcher else { return nil }
        return { @Sendable _ in fetcher }
    }

    /// Builds into `sink`; with no sink, only plans (what `glossary check` needs: every problem, nothing
    /// rendered). The state learns this build's records, and the outputs when the sink got them.
    ///
    /// `changes` are the paths below the site's folder that changed since the last build of this state (what
    /// the preview server's watcher saw; `*` for anything): then only those are looked at again. Without it,
    /// every file is checked.
    ///
    /// Cancelling the task stops the build at the next file (`BuildResult.interrupted`), with nothing written.
    public func build(into sink: (any OutputSink)?, changes: Set<String>? = nil) async -> BuildResult {
        await build(into: sink, changes: changes, scanned: nil)
    }

    /// `build(into:changes:)`, with the scan already made when `scanned` is given; `recordsLearned` is called once the
    /// state holds this build's records (before planning and rendering), `rendering` just before the render.
    func build(
        into sink: (any OutputSink)?, changes: Set<String>?, scanned: (SiteSource, [Diagnostic])?, recordsLearned: (() -> Void)? = nil,
        rendering: ((BuiltSite, SnapshotInputs) -> Void)? = nil
    ) async -> BuildResult {
        let cancellation = BuildCancellation()
        return await withTaskCancellationHandler {
            await build(
                into: sink, changes: changes, scanned: scanned, recordsLearned: recordsLearned, rendering: rendering, cancellation: cancellation)
        } onCancel: {
            cancellation.cancel()
        }
    }

    private func build(
        into sink: (any OutputSink)?, changes: Set<String>?, scanned: (SiteSource, [Diagnostic])?, recordsLearned: (() -> Void)?,
        rendering: ((BuiltSite, SnapshotInputs) -> Void)? = nil, cancellation: BuildCancellation
    ) async -> BuildResult {
        let started = Date()
        var log = DiagnosticLog()
        var stats = BuildStats()
        state.begin(context: Self.context(options))
        var result = BuildResult(diagnostics: [], stats: stats)
        func finish() -> BuildResult {
            stats.totalSeconds = Date().timeIntervalSince(started)
            result.stats = stats
            result.diagnostics = DiagnosticLog.capped(Self.ordered(log.all))
            return result
        }
        func interrupted() -> BuildResult {
            result.interrupted = true
            result.outputs = nil
            return finish()
        }

        // Only pages' text changed: the last build, patched.
        if let changes, let sink, state.patchesTextEdits {
            if let patched = await Self.offPool({ [self] in patch(changes, into: sink, cancellation: cancellation) }) {
                var patched = patched
                patched.stats.totalSeconds = Date().timeIntervalSince(started)
                return patched
            }
        }
        // Until this build succeeds there is none to patch.
        state.withLock { $0.lastBuild = nil }

        // Load.
        let (loadedSite, loadLog, loadStats) = await Self.offPool { [self] () -> (LoadedSite?, DiagnosticLog, BuildStats) in
            var log = DiagnosticLog()
            var stats = BuildStats()
            return (load(&log, &stats, changes: changes, scanned: scanned, cancellation: cancellation), log, stats)
        }
        if cancellation.isCancelled { return interrupted() }
        log.add(contentsOf: loadLog.all)
        stats.stageTimes += loadStats.stageTimes
        guard let loaded = loadedSite else { return finish() }
        result.config = loaded.config
        // A configuration with errors says nothing reliable about the dictionary: nothing is fetched with it.
        guard !loaded.configHasErrors else { return finish() }

        // The navigation needs only the pages: made on another core from here.
        let published = Set(loaded.records.map(\.page.contentPath))
        let unpublished = Set(loaded.source.markdownFiles.map(\.contentPath).filter { !published.contains($0) })
        let navigation = BuiltSite.navigation(config: loaded.config, pages: loaded.records, unpublished: unpublished, memo: state.navigationMemo)

        // Collect terms.
        let (terms, termProblems) = timed("terms", &stats) { Self.collectTerms(loaded.records) }
        log.add(contentsOf: termProblems)

        // Resolve definitions.
        let resolveStart = Date()
        let resolved = await resolve(terms, loaded)
        stats.stageTimes.append(("resolve", Date().timeIntervalSince(resolveStart)))
        if cancellation.isCancelled { return interrupted() }
        log.add(contentsOf: resolved.diagnostics)
        result.apiUnreachable = resolved.apiUnreachable
        // The site: its term tables, navigation and link targets, and the checks on them.
        let siteStart = Date()
        let site = BuiltSite(
            config: loaded.config, pages: loaded.records, team: terms.team, resolutions: resolved.resolutions, usage: terms.usage, forms: resolved.forms,
            unpublished: unpublished, senses: terms.senses, navigationMemo: state.navigationMemo, navigation: navigation)
        result.site = site
        log.add(contentsOf: site.unresolvedDiagnostics(offline: options.offline))
        log.add(contentsOf: site.seeAlsoDiagnostics())
        log.add(contentsOf: site.navigation.diagnostics)
        log.add(contentsOf: site.ambiguityDiagnostics())
        count(site, into: &stats)
        state.learn(records: loaded.storedRecords)
        recordsLearned?()
        stats.stageTimes.append(("site", Date().timeIntervalSince(siteStart)))
        guard let theme = loaded.theme, !log.hasErrors else { return finish() }
        result.snapshotInputs = SnapshotInputs(
            source: loaded.source, theme: theme, cacheFiles: loaded.reader.filesRead,
            validUntil: loaded.reader.firstExpiry(maxAgeDays: loaded.config.dictionary.maxAgeDays),
            wantsNetwork: !options.offline && (!resolved.fetchedKeys.isEmpty || stats.unresolved > 0 || resolved.apiUnreachable))

        // Plan.
        let (plan, planProblems) = timed("plan", &stats) {
            OutputPlan.make(site: site, loaded: loaded, theme: theme, bodySuffix: options.bodySuffix, state: state, jobs: options.jobs)
        }
        state.learnFiles()
        log.add(contentsOf: planProblems)
        let linksStart = Date()
        log.add(contentsOf: site.brokenLinkDiagnostics(paths: plan.paths, jobs: options.jobs))
        log.add(contentsOf: site.seeAlsoLinkDiagnostics(paths: plan.paths))
        stats.stageTimes.append(("links", Date().timeIntervalSince(linksStart)))
        stats.files = plan.items.count
        let stopped = log.hasErrors || (options.strict && log.all.contains { $0.severity == .warning })
        guard let sink, !stopped else { return finish() }

        if cancellation.isCancelled { return interrupted() }

        // Render (unless the live site already is this build).
        if let inputs = result.snapshotInputs { rendering?(site, inputs) }
        if let transaction = sink as? SiteTransaction, transaction.isCurrent(plan.items.map { ($0.path, $0.fingerprint) }) {
            result.outputs = OutputChanges(paths: plan.paths, changed: [])
            return finish()
        }
        let renderStart = Date()
        let rendered = await Self.offPool { [self] in render(plan, site, loaded, theme, into: sink, cancellation: cancellation) }
        stats.stageTimes.append(("render", Date().timeIntervalSince(renderStart)))
        if cancellation.isCancelled { return interrupted() }
        if let failure = rendered.failures.first {
            log.add(contentsOf: [
                Diagnostic(.writeFailed(reason: failure.description), subject: Self.relativePath(options.outputDirectory, root: options.source))
            ])
            return finish()
        }
        stats.written = rendered.written
        result.outputs = OutputChanges(paths: plan.paths, changed: rendered.changed)
        if state.patchesTextEdits, let inputs = result.snapshotInputs {
            let last = LastBuild(
                loaded: loaded, site: site, plan: plan, theme: theme, inputs: inputs, diagnostics: DiagnosticLog.capped(Self.ordered(log.all)), stats: stats)
            state.withLock { $0.lastBuild = last }
        }
        if let memory = sink as? MemorySink { result.output = memory.output }
        return finish()
    }

    /// Builds and, when there are no errors, writes the site atomically to the output folder, keeping the
    /// build state in the manifest.
    ///
    /// Builds of one site take turns (`BuildLock`): `waiting` hears when this one waits for another, `locked`
    /// when its turn has come (a wait can only be ended by the process ending, which is safe until then).
    public func buildAndWrite(waiting: (Int32?) -> Void = { _ in }, locked: () -> Void = {}) async -> BuildResult {
        if let problem = outputFolderProblem() {
            return BuildResult(diagnostics: [problem])
        }
        let buildFolder = options.source.appendingPathComponent(".glossary/build", isDirectory: true)
        let lock: BuildLock?
        do {
            lock = try BuildLock(folder: buildFolder, wait: options.waitForOtherBuilds, waiting: waiting)
        } catch .busy(let holder) {
            return BuildResult(diagnostics: [Diagnostic(.buildLocked(holder: holder))])
        } catch {
            // A source folder we can't write to (a read-only checkout) still builds, unserialised.
            lock = nil
        }
        defer { withExtendedLifetime(lock) {} }
        locked()
        // Whatever way the build ends, while it holds the lock.
        defer { tidyStateFolder(buildFolder) }
        let started = Date()
        let context = Self.context(options)
        // What the output folders hold (what the last build wrote, in its outputs file).
        let outputsFile = BuildOutputs(folder: buildFolder, output: options.outputDirectory)
        let outputs = options.clean ? nil : outputsFile.reading(context: context)
        let snapshotURL = BuildSnapshot.url(folder: buildFolder, output: options.outputDirectory)
        var scanned: (SiteSource, [Diagnostic])?
        if let outputs {
            switch await shortcut(outputs: outputs, outputsFile: outputsFile, snapshotURL: snapshotURL, started: started) {
            case .done(let result): return result
            case .none(let scan): scanned = scan
            }
        }
        if let contents = outputs?.contents() {
            state.withLock { state in
                state.context = context
                state.adopt(contents)
            }
        }
        let manifest = BuildManifest(folder: buildFolder, output: options.outputDirectory)
        // A manifest lost or damaged means a full build: nothing the last build left is trusted then.
        if !options.clean && !manifest.load(into: state, context: context) { state.reset() }
        let shownOutput = Self.relativePath(options.outputDirectory, root: options.source)
        let transaction: SiteTransaction
        do {
            transaction = try SiteTransaction(output: options.outputDirectory, state: state)
        } catch {
            var failed = BuildResult(diagnostics: [Diagnostic(.writeFailed(reason: error.description), subject: shownOutput)])
            failed.stats = BuildStats()
            return failed
        }
        // The manifest's records are written beside the render, once the build has them; the snapshot's page kits are
        // made on a thread of their own while the site renders.
        nonisolated(unsafe) var draft: BuildManifest.Draft?
        nonisolated(unsafe) var kits: Meanwhile<[String: BuildSnapshot.PageKit]>?
        var result = await build(
            into: transaction, changes: nil, scanned: scanned, recordsLearned: { draft = manifest.draft(state) },
            rendering: { site, inputs in
                if wantsSnapshot(inputs) { kits = Meanwhile { Self.pageKits(site, jobs: 1) } }
            })
        guard result.succeeded else {
            transaction.abandon()
            manifest.save(state, draft: draft)
            return result
        }
        let start = Date()
        let buildDiagnostics = result.diagnostics
        // The manifest says what was read, which the commit and the outputs file leave alone: written on another core.
        let drafted = draft
        let manifestSaved = Meanwhile { manifest.save(state, draft: drafted) }
        do {
            try transaction.commit()
            var finished = result
            finished.diagnostics = buildDiagnostics
            let (done, madeKits) = (finished, kits)
            let snapshotOf = { @Sendable [self] (generation: Fingerprint, known: [String: BuildState.StoredFile]) -> BuildSnapshot? in
                guard let inputs = done.snapshotInputs, let madeKits else { return nil }
                return snapshot(of: done, inputs: inputs, generation: generation, kits: madeKits.value, known: known, started: started)
            }
            let made: BuildSnapshot?
            if transaction.isUnchanged {
                let (generation, known) = state.withLock { ($0.outputsGeneration, $0.files) }
                made = generation.flatMap { snapshotOf($0, known) }
            } else {
                state.written(transaction.committed(jobs: options.jobs))
                // The snapshot is made on another core while the outputs file is written, for the generation it will have,
                // and kept only if that file is.
                let generation = BuildOutputs.newGeneration()
                let known = state.withLock { $0.files }
                let snapshotMade = Meanwhile { snapshotOf(generation, known) }
                let saved = outputsFile.save(state, generation: generation)
                made = saved ? snapshotMade.value : nil
            }
            if let made {
                made.write(to: snapshotURL)
            } else {
                BuildSnapshot.remove(snapshotURL)
            }
            for (folder, names) in transaction.kept {
                result.diagnostics.append(
                    Diagnostic(.dotfilesKept(folder: Self.relativePath(folder, root: options.source), names: names), subject: shownOutput))
            }
        } catch {
            result.diagnostics.append(Diagnostic(.writeFailed(reason: error.description), subject: shownOutput))
            result.outputs = nil
            // What the folders hold is no longer what the outputs file says.
            BuildOutputs.remove(outputsFile.url)
            BuildSnapshot.remove(snapshotURL)
        }
        manifestSaved.value
        result.stats.stageTimes.append(("write", Date().timeIntervalSince(start)))
        result.stats.totalSeconds += Date().timeIntervalSince(start)
        return result
    }

    /// Notes which output folder this build's state files are for, and removes those of output folders that are gone.
    private func tidyStateFolder(_ buildFolder: URL) {
        BuildStateFolder.register(folder: buildFolder, output: options.outputDirectory)
        BuildStateFolder.prune(folder: buildFolder, keeping: options.outputDirectory)
    }

    /// What the snapshot's shortcuts came to: the build's result, or the long way (with the scan made, if one was).
    enum Shortcut {
        case done(BuildResult)
        case none((SiteSource, [Diagnostic])?)
    }

    /// The snapshot's shortcuts (`BuildSnapshot`): nothing to do when nothing the last build read changed and its
    /// output is as it left it (`replay`); little when only pages' text changed (`patchText`). The output folder, and
    /// the previous folder a patch starts from, are looked at on the other cores while the site's folder is scanned
    /// (a build with nothing changed has no use for the second look, which costs it less than waiting for it would
    /// cost a text edit's).
    func shortcut(outputs: BuildOutputs.Reading, outputsFile: BuildOutputs, snapshotURL: URL, started: Date) async -> Shortcut {
        guard !options.refresh, let snapshot = BuildSnapshot.read(snapshotURL), snapshot.generation == outputs.generation else { return .none(nil) }
        let (output, jobs) = (options.outputDirectory.standardizedFileURL, options.jobs)
        let previous = SiteTransaction.previousFolder(of: output)
        async let checked = Self.offPool { outputs.liveIsIntact(output, jobs: jobs) }
        async let previousChecked = Self.offPool { outputs.previousIsIntact(previous, jobs: jobs) }
        let scan = SiteSource.scan(root: options.source)
        let intact = await checked
        guard let comparison = compare(snapshot, scan: scan) else { return .none(scan) }
        if let replayed = replay(snapshot, comparison, intact: intact, paths: outputs.livePaths, started: started) { return .done(replayed) }
        if intact, await previousChecked,
            let patched = patchText(snapshot, comparison, outputs: outputs, outputsFile: outputsFile, snapshotURL: snapshotURL, started: started)
        {
            return .done(patched)
        }
        return .none(scan)
    }

    /// What the state's contents were made under: this glossary binary (another version renders otherwise)
    /// and the output folder.
    static func context(_ options: BuildOptions) -> Fingerprint {
        var hasher = FingerprintHasher()
        hasher.combine(EngineIdentity.current)
        hasher.combine(options.outputDirectory.standardizedFileURL.path)
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

    /// Runs CPU-bound work (parsing and rendering on every core) on a thread of its own, so it never holds a
    /// thread of Swift's cooperative pool — which is as wide as the machine has cores, and which the preview
    /// server's requests and timers need meanwhile.
    static func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: body()) }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    func timed<T>(_ name: String, _ stats: inout BuildStats, _ body: () throws -> T) rethrows -> T {
        let start = Date()
        defer { stats.stageTimes.append((name, Date().timeIntervalSince(start))) }
        return try body()
    }

    /// The cache of the site's dictionary definitions, read once per build; entries the state has read before
    /// are read again only when their file changed (or, with `changes`, when the watcher saw it change).
    func cacheReader(_ config: SiteConfig, changes: Set<String>? = nil) -> CacheReader {
        let cache = DefinitionCache(directory: options.source.appendingPathComponent(config.dictionary.cache, isDirectory: true))
        if let changes { forgetCacheLookups(below: cache.directory, changed: changes) }
        return CacheReader(
            cache: cache, language: config.language, displayPath: { [root = options.source] url in Self.relativePath(url, root: root) },
            state: state, changes: changes)
    }

    /// Drops the remembered lookups of cache files the watcher saw change (or whose folder it did): a lookup is
    /// trusted unread while its file is not among a build's changes, so a file changed during a build that didn't
    /// look at it must not be trusted later.
    private func forgetCacheLookups(below folder: URL, changed changes: Set<String>) {
        let cachePath = Self.relativePath(folder, root: options.source)
        let inCache = changes.filter { $0 == "*" || $0 == cachePath || $0.hasPrefix(cachePath + "/") || cachePath.hasPrefix($0 + "/") }
        guard !inCache.isEmpty else { return }
        // The lookups' paths are made as `cache.fileURL` makes them: below the source folder as given.
        let absolute = inCache.map { options.source.appendingPathComponent($0).path }
        state.withLock { state in
            if inCache.contains("*") {
                state.cacheLookups = [:]
                return
            }
            for path in state.cacheLookups.keys where absolute.contains(where: { path == $0 || path.hasPrefix($0 + "/") }) {
                state.cacheLookups[path] = nil
            }
        }
    }

    /// Why the output folder must not be written, if it mustn't: the swap replaces the folder whole, so an
    /// output that is the site itself, holds it, or lies inside its sources would delete the user's files.
    func outputFolderProblem() -> Diagnostic? {
        func real(_ url: URL) -> String {
            var path = url.standardizedFileURL.path
            var missing: [String] = []
            // Resolve symlinks through the part of the path that exists (the output may not exist yet).
            while !FileManager.default.fileExists(atPath: path), path != "/" {
                missing.insert((path as NSString).lastPathComponent, at: 0)
                path = (path as NSString).deletingLastPathComponent
            }
            let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            return ([resolved == "/" ? "" : resolved] + missing).joined(separator: "/")
        }
        let output = real(options.outputDirectory)
        let source = real(options.source)
        let protected = ["content", "themes", ".glossary"].map { source + "/" + $0 } + ["glossary.yml"].map { source + "/" + $0 }
        let inside = { (path: String, folder: String) in path == folder || path.hasPrefix(folder + "/") }
        guard inside(source, output) || protected.contains(where: { inside(output, $0) }) else { return nil }
        return Diagnostic(.outputPath, subject: options.outputDirectory.path)
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
