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
    /// output folder is as it was left and so is the previous folder (both checked by the caller); each changed file is a
    /// content page the snapshot has a kit for, of the same shape (`PageRecord.shape`: nothing any other output reads
    /// changed), without problems, none of the build's problems points into it, and its HTML shows the body where its
    /// slots say. Nil otherwise, or when anything fails before the swap: the build then goes the long way (and finds
    /// the output as it was).
    ///
    /// It reads and writes the outputs file (`outputs`) without decoding its tables into the state: the few entries it
    /// changes are found in it and the next file is made from its bytes (`BuildOutputs.Reading.afterPatch`).
    func patchText(
        _ snapshot: BuildSnapshot, _ comparison: Comparison, outputs: BuildOutputs.Reading, outputsFile: BuildOutputs, snapshotURL: URL,
        started: Date
    ) -> BuildResult? {
        guard comparison.sameDigest, !comparison.changedMarkdown.isEmpty, comparison.changedMarkdown.count <= Self.patchedPagesLimit else { return nil }
        let files = comparison.changedMarkdown.map { comparison.source.markdownFiles[$0] }
        let edited = Set(files.map(\.displayPath))
        guard files.allSatisfy({ !Page.isEntry(contentPath: $0.contentPath) && $0.signature != nil }),
            !snapshot.diagnostics.contains(where: { Self.points(into: edited, $0) }),
            let kits = snapshot.kits(for: Set(files.map(\.contentPath))), kits.count == files.count
        else { return nil }
        let output = options.outputDirectory.standardizedFileURL
        let previous = SiteTransaction.previousFolder(of: output)
        let live = outputs.stored(Set(kits.values.map(\.outputPath)))

        // Each page's new HTML, from its old HTML and its new body.
        let checkSeconds = Date().timeIntervalSince(started)
        let patchStart = Date()
        var written: [String: (data: Data, output: BuildState.StoredOutput)] = [:]
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
            written[kit.outputPath] = (
                page, .init(fingerprint: Self.patched(old.fingerprint, record.contentHash), bytesHash: .of(bytes: page), signature: nil, slots: moved)
            )
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
        let searchFiles = outputs.stored(Set(search.keys))
        for (path, data) in search {
            guard let old = searchFiles[path] else { return nil }
            written[path] = (data, .init(fingerprint: Self.patched(old.fingerprint, searchChange), bytesHash: .of(bytes: data), signature: nil))
        }

        // The previous folder brought up to date, and swapped in.
        let transaction = SiteTransaction(patching: output)
        let patched: SiteTransaction.Patched
        do {
            patched = try transaction.patch(written.map { ($0.key, $0.value.data) }, differences: outputs.differences)
            try transaction.commit()
        } catch {
            return nil
        }
        // The next outputs file, from this one's bytes: the folders the patch changed looked at again.
        var changed: [String: BuildState.StoredOutput] = [:]
        for (path, file) in written {
            var output = file.output
            output.signature = patched.signatures[path]
            changed[path] = output
        }
        var folders: [String: FileSignature?] = [:]
        for folder in patched.touched { folders[folder] = .some(FileSignature(path: output.path + "/" + folder)) }
        for folder in patched.removed { folders[folder] = .some(nil) }
        let generation = BuildOutputs.newGeneration()
        guard
            let next = outputs.afterPatch(
                generation: generation, outputFolder: FileSignature(path: output.path), previousFolder: FileSignature(path: previous.path), changed: changed,
                folders: folders),
            outputsFile.write(next)
        else {
            BuildSnapshot.remove(snapshotURL)
            return nil
        }
        // The snapshot again, with the pages' new signatures (when they can be trusted: see `FileSignature.isSettled`).
        var nextSnapshot = snapshot
        var settled = true
        for (index, file) in zip(comparison.changedMarkdown, files) {
            nextSnapshot.markdown[index] = file.signature
            if file.signature?.isSettled(at: readAt[index] ?? 0, after: state.settleSeconds) != true { settled = false }
        }
        if settled {
            nextSnapshot.generation = generation
            nextSnapshot.write(to: snapshotURL)
        } else {
            BuildSnapshot.remove(snapshotURL)
        }

        var result = BuildResult(diagnostics: snapshot.diagnostics, stats: snapshot.stats)
        result.config = comparison.config
        result.outputs = OutputChanges(
            paths: outputs.livePaths(),
            changed: Set(written.keys.filter { path in (live[path] ?? searchFiles[path])?.bytesHash != written[path]?.output.bytesHash }))
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
