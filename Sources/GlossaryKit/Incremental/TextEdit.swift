import Foundation

/// The one shortcut of a build besides having nothing to do: after edits that changed the text of content pages and
/// nothing else any other file shows — each page's record has the linkage it had (`StateFile.linkage`: the same
/// title, front matter, headings, references and links), no problem points into it, and nothing else changed — only
/// those pages and the search index can differ. Each page is its old bytes with its new body in the slots its
/// template wrote the body in (`MustacheSlots`), the search index's files are patched for the new text
/// (`SearchIndex.patched`), and every other file is kept (a site with `llms-full.txt` or pages as markdown, which
/// hold the text too, goes the long way); nothing else is read, parsed or rendered. `glossary build`
/// and the preview server take it alike.
struct TextEdit {
    /// The most pages one edit remakes this way; more go the long way.
    static let pageLimit = 64

    let state: BuildState
    let check: InputCheck
    let source: SiteSource
    let options: BuildOptions

    /// The build after the edit, and the state it leaves; nil when the edit is anything else (or fails before the sink
    /// is finished): the build then goes the long way.
    func run(into sink: SiteTransaction) -> (BuildResult, BuildState)? {
        guard !check.othersChanged, !check.changed.isEmpty, check.changed.count <= Self.pageLimit else { return nil }
        let files = source.markdownFiles.filter { check.changed[$0.contentPath] != nil }
        // `llms-full.txt` and the pages' markdown hold the pages' text: those builds go the long way.
        guard state.outputs[SiteExport.llmsFull.path] == nil,
            !files.contains(where: { state.outputs[Page.urlPath(forContentPath: $0.contentPath) + "index.md"] != nil })
        else { return nil }
        let edited = Set(files.map(\.displayPath))
        guard !state.report.diagnostics.contains(where: { Self.points(into: edited, $0) }) else { return nil }
        var next = state
        next.verifiedAt = check.verifiedAt
        next.files = check.files
        next.pages = check.unchanged
        // Everything is made before anything is written: an edit found to be more than text leaves the sink untouched.
        var written: [(path: String, data: Data, slots: MustacheSlots?)] = []
        var search: [String: Data] = [:]
        for file in files {
            guard let (path, page, data, slots, document, text) = remake(file, sink: sink) else { return nil }
            next.pages[file.contentPath] = page
            written.append((path, data, slots))
            // The search index's files, patched for each page's new text in turn.
            guard let changed = SearchIndex.patched(document: document, text: text, files: { search[$0] ?? sink.bytes($0) }) else { return nil }
            search.merge(changed) { _, new in new }
        }
        written += search.map { ($0.key, $0.value, nil) }
        do throws(OutputFailure) {
            for file in written { try sink.write(file.path, file.data, fingerprint: nil, slots: file.slots) }
            try sink.keepTheRest()
            let paths = Set(state.outputs.keys)
            let changed = try sink.finish(paths: paths)
            next.outputs = sink.outputs
            var result = BuildResult(diagnostics: state.report.diagnostics, stats: state.report.stats)
            result.outputs = OutputChanges(paths: paths, changed: changed)
            result.rootPath = state.report.rootPath
            result.stats.written = written.count
            result.stats.textEdit = true
            return (result, next)
        } catch {
            return nil
        }
    }

    /// One page remade: where it goes, what the state keeps of it, its new bytes and slots, its search document and its
    /// new text.
    private func remake(
        _ file: SiteSource.File, sink: SiteTransaction
    ) -> (String, BuildState.StoredPage, Data, MustacheSlots, Int, SearchTerms)? {
        guard !Page.isEntry(contentPath: file.contentPath), let signature = file.signature, let stored = state.pages[file.contentPath],
            let kit = stored.kit?.kit, let old = stored.record?.record(file: file.displayPath)
        else { return nil }
        let data: Data
        if case .some(.some(let bytes)) = check.changed[file.contentPath] {
            data = bytes
        } else {
            guard case .success(let bytes) = FileContents.read(file.path) else { return nil }
            data = bytes
        }
        let (parsed, problems) = PageParser.parse(data, file: file, drafts: options.drafts, autolink: nil)
        guard problems.isEmpty, let parsed, let document = parsed.document, parsed.record.diagnostics.isEmpty,
            StateFile.linkage(of: parsed.record) == StateFile.linkage(of: old)
        else { return nil }
        let record = parsed.record
        let keys = record.references.map(\.key).uniqued()
        guard keys.count == kit.slugs.count, record.links.count == kit.destinations.count else { return nil }
        let slugs = Dictionary(zip(keys, kit.slugs), uniquingKeysWith: { first, _ in first })
        let wrappers = TermMarkup.wrappers(record.references, rootPath: state.report.rootPath) { slugs[$0] ?? nil }
        let html = document.renderHTML(wrappers: wrappers, destinations: kit.destinations)
        let path = record.page.outputPath
        guard let output = state.outputs[path], let slots = output.slots, let bytes = sink.bytes(path), Fingerprint.of(bytes: bytes) == output.bytesHash,
            let (page, moved) = slots.refilled(bytes, with: SiteRenderer.bodyValues(record, html: html))
        else { return nil }
        let kept = BuildState.StoredPage(signature: signature, hash: record.contentHash, record: .parsed(record), kit: stored.kit)
        return (path, kept, page, moved, kit.document, record.searchText)
    }

    /// Whether a problem, or one of its notes, points into one of `files` (by display path).
    static func points(into files: Set<String>, _ diagnostic: Diagnostic) -> Bool {
        if let file = diagnostic.location?.file, files.contains(file) { return true }
        return diagnostic.notes.contains { $0.location.map { files.contains($0.file) } == true }
    }
}
