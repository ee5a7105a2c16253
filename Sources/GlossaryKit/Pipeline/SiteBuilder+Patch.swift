import Foundation

extension SiteBuilder {
    /// A good build as the next one may start from it (see `patch`): what it loaded, the site it made, its plan and
    /// what it reported. Kept by a state that patches text edits (the preview server's).
    struct LastBuild: @unchecked Sendable {
        var loaded: LoadedSite
        var site: BuiltSite
        var plan: OutputPlan
        var theme: Theme
        var inputs: SnapshotInputs
        /// The build's problems as it reported them, and its counts.
        var diagnostics: [Diagnostic]
        var stats: BuildStats

        init(loaded: LoadedSite, site: BuiltSite, plan: OutputPlan, theme: Theme, inputs: SnapshotInputs, diagnostics: [Diagnostic], stats: BuildStats) {
            var kept = loaded
            // What rendering took from them is made again when needed; the rest would only be held.
            kept.fragments = FragmentStore()
            kept.entryDocuments = [:]
            // The state holds the records; a patch tells it of each one it reads (`BuildState.learn(_:for:)`).
            kept.storedRecords = [:]
            self.loaded = kept
            self.site = site
            self.plan = plan
            self.theme = theme
            self.inputs = inputs
            self.diagnostics = diagnostics
            self.stats = stats
        }
    }

    /// The build after edits that changed only the text of content pages — not their front matter, title, first
    /// paragraph, headings, term references or links, and each still without a problem (`PageRecord.differsOnlyInText`)
    /// — made from the last good build: only those pages and the search index can differ, so only they are planned
    /// anew and rendered, and the build reports what the last one did. Nil when the changes are anything else (or
    /// the last build would ask the dictionary again, or its cached definitions have gone stale): then the build is
    /// an ordinary one.
    ///
    /// A patched page's fingerprint (and the search files') is its last one combined with the page's new bytes: the
    /// output is a function of the two, which is all a fingerprint has to be.
    func patch(_ changes: Set<String>, into sink: any OutputSink, cancellation: BuildCancellation) -> BuildResult? {
        guard state.patchesTextEdits, !changes.isEmpty, !changes.contains("*"), !options.refresh,
            // Taken from the state (an ordinary build follows when this one can't be made), so that what it holds is
            // changed in place, not copied.
            let last = state.withLock({ state in
                defer { state.lastBuild = nil }
                return state.lastBuild
            }), state.withLock({ $0.resolutions.isEmpty }),
            !last.inputs.wantsNetwork, options.offline || options.now().timeIntervalSince1970 < last.inputs.validUntil
        else { return nil }
        var site = last.site
        var loaded = last.loaded
        var plan = last.plan
        let (theme, lastInputs, lastDiagnostics) = (last.theme, last.inputs, last.diagnostics)
        var stats = last.stats
        _ = consume last
        stats.stageTimes = []
        let scanStart = Date()
        let previousSource = loaded.source
        let (source, scanProblems) = previousSource.updated(with: changes)
        guard scanProblems.isEmpty, source.markdownFiles.count == previousSource.markdownFiles.count,
            source.staticFiles.count == previousSource.staticFiles.count, source.skipped.count == previousSource.skipped.count
        else { return nil }
        stats.stageTimes.append(("scan", Date().timeIntervalSince(scanStart)))

        let parseStart = Date()
        loaded.source = source
        var patched: [Int: Fingerprint] = [:]
        for change in changes {
            guard let file = source.markdownFiles.first(where: { $0.displayPath == change }), !Page.isEntry(contentPath: file.contentPath),
                let index = site.pages.firstIndex(where: { $0.page.contentPath == file.contentPath }), site.pages[index].page.kind == .page
            else { return nil }
            let old = site.pages[index]
            let read = loadRecord(file, unchangedUnless: changes, autolink: loaded.autolink)
            guard read.problems.isEmpty, let parsed = read.parsed, let signature = read.signature, parsed.record.differsOnlyInText(from: old) else {
                return nil
            }
            let record = parsed.record
            if let document = parsed.document {
                let (wrappers, destinations) = (site.wrappers(record), site.links.destinations(record))
                loaded.fragments.add(
                    PageFragment(html: document.renderHTML(wrappers: wrappers, destinations: destinations), destinations: destinations),
                    for: record.page.contentPath)
                Self.letGo(document)
            }
            state.learn(.init(signature: signature, readAt: read.readAt, record: record), for: record.page.contentPath)
            guard record !== old else { continue }
            // The site's pages are the loaded records, published ones in order.
            site.pages[index] = record
            loaded.records[index] = record
            patched[index] = record.contentHash
        }
        stats.stageTimes.append(("parse", Date().timeIntervalSince(parseStart)))

        // What the patch changed. A folder sink holds the rest as the last build left it (it starts each build from
        // what it holds), so only these are offered to it.
        var renewed: [Int] = []
        if !patched.isEmpty {
            var search = FingerprintHasher()
            for (index, hash) in patched.sorted(by: { $0.key < $1.key }) {
                search.combine(site.pages[index].page.contentPath)
                search.combine(hash)
            }
            let searchChange = search.finish()
            for position in plan.items.indices {
                switch plan.items[position].content {
                case .page(let index):
                    if let hash = patched[index] {
                        plan.items[position].fingerprint = Self.combine(plan.items[position].fingerprint, hash)
                        renewed.append(position)
                    }
                case .searchIndex:
                    plan.items[position].fingerprint = Self.combine(plan.items[position].fingerprint, searchChange)
                    renewed.append(position)
                default:
                    break
                }
            }
        }
        state.withLock { $0.source = source }

        let renderStart = Date()
        let rendered = render(plan, site, loaded, theme, into: sink, only: sink is FolderSink ? renewed : nil, cancellation: cancellation)
        stats.stageTimes.append(("render", Date().timeIntervalSince(renderStart)))
        var result = BuildResult(diagnostics: lastDiagnostics, stats: stats)
        result.config = loaded.config
        result.site = site
        // Neither leaves a build to patch (it was taken from the state): what the sink holds is no longer what the last
        // build says.
        if cancellation.isCancelled {
            result.interrupted = true
            return result
        }
        if let failure = rendered.failures.first {
            result.diagnostics.append(
                Diagnostic(.writeFailed(reason: failure.description), subject: Self.relativePath(options.outputDirectory, root: options.source)))
            return result
        }
        result.stats.written = rendered.written
        result.stats.patched = true
        result.outputs = OutputChanges(paths: plan.paths, changed: rendered.changed)
        if let memory = sink as? MemorySink { result.output = memory.output }
        var inputs = lastInputs
        inputs.source = source
        state.withLock {
            $0.lastBuild = LastBuild(
                loaded: loaded, site: site, plan: plan, theme: theme, inputs: inputs, diagnostics: lastDiagnostics, stats: result.stats)
        }
        return result
    }

    private static func combine(_ fingerprint: Fingerprint, _ change: Fingerprint) -> Fingerprint {
        var hasher = FingerprintHasher()
        hasher.combine("patched")
        hasher.combine(fingerprint)
        hasher.combine(change)
        return hasher.finish()
    }
}
