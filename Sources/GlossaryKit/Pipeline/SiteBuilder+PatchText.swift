import Foundation

extension SiteBuilder {
    /// The most pages' text edits a build remakes from the snapshot; more go the long way.
    static let patchedPagesLimit = 64

    /// `glossary build` after edits that changed only the text of content pages: each page's HTML is its old HTML with
    /// the new body in place (`BodySlots`), the search index's files are patched for the new text (`SearchIndex.patched`),
    /// and the new site is the previous folder brought up to date and swapped in (`SiteTransaction.patch`) — nothing
    /// else is read, parsed or rendered, so the build costs what changed. It reports what the last build did.
    ///
    /// It holds when, since the snapshot's build: every input but some pages' bytes is the same (`comparison`), the
    /// output folder is as it was left (checked by the caller) and so is the previous folder; each changed file is a
    /// content page the snapshot has a kit for, of the same shape (`PageRecord.shape`: nothing any other output reads
    /// changed), without problems, none of the build's problems points into it, and its HTML shows the body where its
    /// slots say. Nil otherwise, or when anything fails before the swap: the build then goes the long way (and finds
    /// the output as it was).
    func patchText(
        _ snapshot: BuildSnapshot, _ comparison: Comparison, outputsFile: BuildOutputs, snapshotURL: URL, started: Date
    ) -> BuildResult? {
        guard comparison.sameDigest, !comparison.changedMarkdown.isEmpty, comparison.changedMarkdown.count <= Self.patchedPagesLimit else { return nil }
        let files = comparison.changedMarkdown.map { comparison.source.markdownFiles[$0] }
        let edited = Set(files.map(\.displayPath))
        guard files.allSatisfy({ !Page.isEntry(contentPath: $0.contentPath) && $0.signature != nil }),
            !snapshot.diagnostics.contains(where: { Self.points(into: edited, $0) }),
            let kits = snapshot.kits(for: Set(files.map(\.contentPath))), kits.count == files.count
        else { return nil }
        let output = options.outputDirectory.standardizedFileURL
        let (live, liveFolders, previousFolders) = state.withLock { ($0.outputs, $0.outputFolders, $0.previousFolders) }
        guard previousIsIntact(output) else { return nil }

        // Each page's new HTML, from its old HTML and its new body.
        let checkSeconds = Date().timeIntervalSince(started)
        let patchStart = Date()
        var written: [(path: String, data: Data, output: BuildState.StoredOutput)] = []
        var texts: [(document: Int, text: SearchTerms)] = []
        var readAt: [Int: Double] = [:]
        for (index, file) in zip(comparison.changedMarkdown, files) {
            guard let kit = kits[file.contentPath], let old = live[kit.outputPath], let slots = old.slots else { return nil }
            readAt[index] = Date().timeIntervalSince1970
            guard case .success(let data) = FileContents.read(file.path) else { return nil }
            let (parsed, problems) = PageParser.parse(data, file: file, drafts: options.drafts, autolink: nil)
            guard problems.isEmpty, let parsed, let document = parsed.document, parsed.record.shape == kit.shape else { return nil }
            let record = parsed.record
            let keys = record.references.map(\.key).uniqued()
            guard keys.count == kit.slugs.count, record.links.count == kit.destinations.count else { return nil }
            let slugs = Dictionary(zip(keys, kit.slugs), uniquingKeysWith: { first, _ in first })
            let wrappers = TermMarkup.wrappers(record.references, rootPath: snapshot.rootPath) { slugs[$0] ?? nil }
            let html = document.renderHTML(wrappers: wrappers, destinations: kit.destinations)
            guard case .success(let bytes) = FileContents.read(output.path + "/" + kit.outputPath), Fingerprint.of(bytes: bytes) == old.bytesHash,
                let (page, moved) = slots.splice(bytes, SiteRenderer.bodyValues(record, html: html))
            else { return nil }
            written.append(
                (
                    kit.outputPath, page,
                    .init(fingerprint: Self.patched(old.fingerprint, record.contentHash), bytesHash: .of(bytes: page), signature: nil, slots: moved)
                ))
            texts.append((kit.document, record.searchText))
        }

        // The search index's files, patched for each page's new text in turn.
        var search: [String: Data] = [:]
        for (document, text) in texts {
            let changed = SearchIndex.patched(document: document, text: text) { path in
                if let patched = search[path] { return patched }
                guard case .success(let data) = FileContents.read(output.path + "/" + path) else { return nil }
                return data
            }
            guard let changed else { return nil }
            search.merge(changed) { _, new in new }
        }
        var textChange = FingerprintHasher()
        for (document, text) in texts.sorted(by: { $0.document < $1.document }) {
            textChange.combine(document)
            text.fingerprint(into: &textChange)
        }
        let searchChange = textChange.finish()
        for (path, data) in search.sorted(by: { $0.key < $1.key }) {
            guard let old = live[path] else { return nil }
            written.append((path, data, .init(fingerprint: Self.patched(old.fingerprint, searchChange), bytesHash: .of(bytes: data), signature: nil)))
        }

        // The previous folder brought up to date, and swapped in.
        let transaction: SiteTransaction
        let committed: SiteTransaction.Committed
        do {
            transaction = try SiteTransaction(output: options.outputDirectory, state: state)
            let touched = try transaction.patch(written, liveFolders: Set(liveFolders.keys), previousFolders: Set(previousFolders.keys))
            try transaction.commit()
            committed = transaction.committedAfterPatch(touched: touched, liveFolders: liveFolders, previousFolders: previousFolders)
        } catch {
            return nil
        }
        state.written(committed)
        outputsFile.save(state)
        // The snapshot again, with the pages' new signatures (when they can be trusted: see `FileSignature.isSettled`).
        var next = snapshot
        var settled = true
        for (index, file) in zip(comparison.changedMarkdown, files) {
            next.markdown[index] = file.signature
            if file.signature?.isSettled(at: readAt[index] ?? 0, after: state.settleSeconds) != true { settled = false }
        }
        if settled, let generation = state.withLock({ $0.outputsGeneration }) {
            next.generation = generation
            next.write(to: snapshotURL)
        } else {
            BuildSnapshot.remove(snapshotURL)
        }

        var result = BuildResult(diagnostics: snapshot.diagnostics, stats: snapshot.stats)
        result.config = comparison.config
        result.outputs = OutputChanges(paths: Set(committed.outputs.keys), changed: transaction.changedPaths)
        result.stats.written = written.count
        result.stats.patched = true
        result.stats.stageTimes = [("check", checkSeconds), ("patch", Date().timeIntervalSince(patchStart))]
        result.stats.totalSeconds = Date().timeIntervalSince(started)
        return result
    }

    /// Whether a problem, or one of its notes, points into one of `files` (by display path).
    static func points(into files: Set<String>, _ diagnostic: Diagnostic) -> Bool {
        if let file = diagnostic.location?.file, files.contains(file) { return true }
        return diagnostic.notes.contains { $0.location.map { files.contains($0.file) } == true }
    }

    /// Whether the previous folder beside the output is as the state says the last build left it: the same folder, and
    /// every folder below it untouched (so nothing was added to it or taken from it). Its files are the live folder's
    /// where the state says they are linked, which the check of the live folder covered; the others are replaced.
    func previousIsIntact(_ output: URL) -> Bool {
        let previous = output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).previous").path
        let (folder, outputs, folders) = state.withLock { ($0.previousFolder, $0.previousOutputs, $0.previousFolders) }
        guard let folder, !outputs.isEmpty, FileSignature(path: previous)?.isUnmodified(since: folder) == true,
            folders.count == SiteTransaction.folders(holding: outputs.keys).count
        else { return false }
        let entries = Array(folders)
        return !entries.parallelMap(jobs: options.jobs) { path, signature in
            FileSignature(path: previous + "/" + path)?.isUnmodified(since: signature) == true
        }.contains(false)
    }

    /// An output's fingerprint after a patch: a function of the one it had and of what changed, which is all a
    /// fingerprint needs to be (a later full build computes another, and makes the file again).
    static func patched(_ fingerprint: Fingerprint, _ change: Fingerprint) -> Fingerprint {
        var hasher = FingerprintHasher()
        hasher.combine("patched")
        hasher.combine(fingerprint)
        hasher.combine(change)
        return hasher.finish()
    }
}
