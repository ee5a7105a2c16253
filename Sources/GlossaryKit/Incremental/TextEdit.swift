import Foundation

/// The one shortcut of a build besides having nothing to do: after edits that changed the text of content pages and
/// nothing else any other file shows — each page's record has the linkage it had (`StateFile.linkage`: the same
/// title, front matter, headings, references and links), no problem points into it, and nothing else changed — only
/// those pages and the search index can differ. Each page is its old bytes with its new body in the slots its
/// template wrote the body in (`MustacheSlots`), the search index's files are patched for the new text
/// (`SearchIndex.patched`, from the old text the state keeps), the files for language models that hold the pages'
/// text are made of the new text too (each page's markdown whole, `llms-full.txt` its old bytes with each page's new
/// text in its slot, when what fits in it can be told from it: `patchedFull`), and every other file is kept; nothing
/// else is read, parsed or rendered. Glossary entries whose bodies alone changed are remade the same way
/// (`TextEdit+Entries`). `glossary build` and the preview server take it alike.
struct TextEdit {
    /// The most pages and entries one edit remakes this way; more go the long way.
    static let pageLimit = 64

    let state: BuildState
    let check: InputCheck
    let source: SiteSource
    let config: SiteConfig?
    let options: BuildOptions

    /// The build after the edit, and the state it leaves; nil when the edit is anything else (or fails before the sink
    /// is finished): the build then goes the long way.
    func run(into sink: SiteTransaction) -> (BuildResult, BuildState)? {
        guard !check.othersChanged, !check.changed.isEmpty, check.changed.count <= Self.pageLimit, let config else { return nil }
        let files = source.markdownFiles.filter { check.changed[$0.contentPath] != nil }
        let edited = Set(files.map(\.displayPath))
        guard !state.report.diagnostics.contains(where: { Self.points(into: edited, $0) }) else { return nil }
        var next = state
        next.verifiedAt = check.verifiedAt
        next.files = check.files
        next.pages = check.unchanged
        // Everything is made before anything is written: an edit found to be more than text leaves the sink untouched.
        var written: [(path: String, data: Data, slots: MustacheSlots?)] = []
        // The big files (the exports, `llms-full.txt`): their old bytes with parts replaced, written a block at a time.
        var patched: [(path: String, file: ReadOnlyFile, patch: MustacheSlots.Patch)] = []
        var search = SearchIndex.Patch()
        // Each page's text in `llms-full.txt`, by its slot.
        var full: [Int: String] = [:]
        // Each entry's definition as the exports showed it and show it now, by its term's place.
        var entries: [Int: (old: Exported, new: Exported)] = [:]
        for file in files {
            if Page.isEntry(contentPath: file.contentPath, languages: config.siteLanguages) {
                guard let entry = remakeEntry(file, config: config, sink: sink) else { return nil }
                next.pages[file.contentPath] = entry.page
                written.append((entry.path, entry.data, entry.slots))
                if entry.old != entry.new { entries[entry.place] = (entry.old, entry.new) }
                continue
            }
            guard let (path, page, data, slots, place, text, markdown) = remake(file, config: config, sink: sink) else { return nil }
            next.pages[file.contentPath] = page
            written.append((path, data, slots))
            if let markdown {
                full[place.document] = markdown.text.trimmingWhitespace
                if config.llms == .pages { written.append((markdown.path, markdown.page, nil)) }
            }
            // The search index's files (its language's), patched for each page's new text in turn.
            let files = { (path: String) in search.removed.contains(path) ? nil : search.written[path] ?? sink.bytes(path) }
            guard
                let patch = SearchIndex.patched(
                    document: place.search, old: text.old, new: text.new, folder: place.folder, sizes: options.searchShards, files: files)
            else { return nil }
            search.written.merge(patch.written) { _, new in new }
            search.removed.subtract(patch.written.keys)
            for path in patch.removed where patch.written[path] == nil {
                search.written[path] = nil
                search.removed.insert(path)
            }
        }
        written += search.written.map { ($0.key, $0.value, nil) }
        if !entries.isEmpty {
            for kind in [SiteExport.json, .csv, .tbx] where state.outputs[kind.path] != nil {
                guard let (file, patch) = Self.patchedExport(kind, entries, state: state, sink: sink) else { return nil }
                patched.append((kind.path, file, patch))
            }
        }
        if config.llms != .off && !source.staticFiles.contains(where: { $0.contentPath == SiteExport.llmsFull.path }) && (!full.isEmpty || !entries.isEmpty) {
            let texts = entries.mapValues { $0.new.text.trimmingWhitespace }
            guard let (file, patch) = patchedFull(full, entries: texts, limit: config.llmsFullMaxBytes, sink: sink) else { return nil }
            patched.append((SiteExport.llmsFull.path, file, patch))
        }
        do throws(OutputFailure) {
            // Every file side by side, the big ones first: each of those is its old bytes copied with a few parts
            // replaced, and fingerprinted, while the other cores write the rest.
            let failures = Array(0..<(patched.count + written.count)).parallelMap(jobs: options.jobs) { [written, patched] index -> OutputFailure? in
                do throws(OutputFailure) {
                    if index < patched.count {
                        let file = patched[index]
                        try sink.write(file.path, patching: file.file, with: file.patch)
                    } else {
                        let file = written[index - patched.count]
                        try sink.write(file.path, file.data, fingerprint: nil, slots: file.slots)
                    }
                    return nil
                } catch {
                    return error
                }
            }
            if let failure = failures.lazy.compactMap({ $0 }).first { throw failure }
            try sink.keepTheRest()
            let changed = try sink.finish(removing: search.removed)
            next.outputs = sink.outputs
            var result = BuildResult(diagnostics: state.report.diagnostics, stats: state.report.stats)
            let sameFiles = search.removed.isEmpty && search.written.keys.allSatisfy { state.outputs[$0] != nil }
            result.outputs = OutputChanges(changed: changed, sameFiles: sameFiles) { [outputs = next.outputs] in Set(outputs.keys) }
            result.rootPath = state.report.rootPath
            result.stats.written = written.count + patched.count
            result.stats.textEdit = true
            return (result, next)
        } catch {
            return nil
        }
    }

    /// `llms-full.txt` with each page's new text (`texts`, by slot) and each entry's (`entries`, by the term's place) in
    /// its slot, as a clean build cuts it at `limit` bytes; nil when that can't be told from the file and the first
    /// page left out of it. Uncut, it must still fit. Cut among the terms, no page's text can change
    /// (`entriesFit` says what entries can). Cut among the pages (after the last page's text that fit,
    /// `LLMsText.cutNote`), the pages in it must still fit, and the first page left out must still not fit after them:
    /// a clean build, which stops at the first page that doesn't fit, cuts it after the same page.
    func patchedFull(_ texts: [Int: String], entries: [Int: String], limit: Int, sink: SiteTransaction) -> (ReadOnlyFile, MustacheSlots.Patch)? {
        let path = SiteExport.llmsFull.path
        guard let output = state.outputs[path], let slots = output.slots, let file = sink.file(path, as: output) else { return nil }
        let pages = slots.shown.count
        guard texts.isEmpty || pagesFit(texts, slots: slots, file: file, limit: limit),
            let entriesCut = entries.isEmpty ? true : Self.entriesFit(entries, slots: slots, file: file),
            let patch = slots.patch(count: file.count, with: { $0 < pages ? texts[$0] : entries[$0 - pages] }),
            entriesCut || patch.count <= limit
        else { return nil }
        return (file, patch)
    }

    /// Whether `llms-full.txt` (`file`, its `slots`) with each page's new text (`texts`, by slot) is as a clean build
    /// would cut it at `limit` bytes (see `patchedFull`).
    private func pagesFit(_ texts: [Int: String], slots: MustacheSlots, file: ReadOnlyFile, limit: Int) -> Bool {
        guard let last = slots.written.last(where: { $0.slot < slots.shown.count }) else { return false }
        // Where the pages' text ends: the glossary's or the note's `---` follows.
        let pagesEnd = last.start + last.length + 2
        guard pagesEnd <= file.count else { return false }
        let tail = Data(file.bytes(pagesEnd..<file.count))
        let note = Data(LLMsText.cutNote.utf8)
        let cut = tail.starts(with: note)
        // Cut among the terms (or a definition that reads like the note): what fits depends on the pages' length.
        guard tail.count == file.count - pagesEnd, cut || tail.range(of: note) == nil else { return false }
        var lengths: [Int: Int] = [:]
        for slot in slots.written { lengths[slot.slot] = slot.length }
        var growth = 0
        for (slot, text) in texts {
            if let length = lengths[slot] { growth += text.utf8.count - length }
        }
        guard cut else { return file.count + growth <= limit }
        guard pagesEnd + growth <= limit else { return false }
        // The pages in it are the first ones in the clean build's order (the home page, then by place), so the first
        // left out is the lowest place not in it. Unless the pages shrank or it was edited, it still doesn't fit.
        guard let first = (0..<slots.shown.count).first(where: { lengths[$0] == nil }) else { return false }
        if growth < 0 || texts[first] != nil {
            guard let part = llmsPart(document: first, text: texts[first]), pagesEnd + growth + part > limit else { return false }
        }
        return true
    }

    /// How many bytes the part of the content page at `document` (its place among the content pages) takes in
    /// `llms-full.txt` (`LLMsText.pagePart`), with `text` as its text when it was edited, else its file's; nil when
    /// that can't be told (no such page, or its file is not the one its record was made from).
    private func llmsPart(document: Int, text edited: String?) -> Int? {
        guard let config,
            let (contentPath, stored, kit) = state.pages.lazy.compactMap({ path, page -> (String, BuildState.StoredPage, BuildState.PageKit)? in
                guard let kit = page.kit?.kit, kit.term == nil, kit.document == document else { return nil }
                return (path, page, kit)
            }).first,
            let file = source.markdownFiles.first(where: { $0.contentPath == contentPath }),
            let record = stored.record?.record(file: file.displayPath), let targets = kit.llms
        else { return nil }
        var text = edited
        if text == nil {
            guard case .success(let data) = FileContents.read(file.path), Fingerprint.of(bytes: data) == record.contentHash else { return nil }
            text = LLMsText.portable(PageBodies.markdown(of: data, file: file.displayPath), record: record, targets: targets).trimmingWhitespace
        }
        let root = BuiltSite.exportRoot(config: config, rootPath: state.report.rootPath)
        return LLMsText.pagePart(record, url: BuiltSite.exportURL(record.page.urlPath, root: root), text: text ?? "").part.utf8.count
    }

    /// A page's text for language models after the edit: where its markdown goes (`llms: pages`), that file's
    /// bytes, and its text as `llms-full.txt` shows it.
    struct Markdown {
        var path: String
        var page: Data
        var text: String
    }

    /// One page remade: where it goes, what the state keeps of it, its new bytes and slots, its places (among the
    /// content pages, and in the search index in `folder`), its old and new text and, when the site has files for
    /// language models, its text for them.
    private func remake(
        _ file: SiteSource.File, config: SiteConfig, sink: SiteTransaction
    ) -> (String, BuildState.StoredPage, Data, MustacheSlots, (document: Int, search: Int, folder: String), (old: SearchTerms, new: SearchTerms), Markdown?)? {
        guard !Page.isEntry(contentPath: file.contentPath, languages: config.siteLanguages), let signature = file.signature,
            let stored = state.pages[file.contentPath],
            let kit = stored.kit?.kit, let old = stored.record?.record(file: file.displayPath)
        else { return nil }
        guard let (data, record, document, wrappers) = reparsed(file, old: old, kit: kit, config: config) else { return nil }
        let html = document.renderHTML(wrappers: wrappers, destinations: kit.destinations)
        let path = record.page.outputPath
        guard let output = state.outputs[path], let slots = output.slots, let bytes = sink.bytes(path, as: output),
            let (page, moved) = slots.refilled(bytes, with: SiteRenderer.bodyValues(record, html: html))
        else { return nil }
        var markdown: Markdown?
        if config.llms != .off {
            guard let targets = kit.llms, targets.links.count == record.links.count, targets.terms.count == kit.targets.count else { return nil }
            let text = LLMsText.portable(PageBodies.markdown(of: data, file: file.displayPath), record: record, targets: targets)
            let path = record.page.markdownPath
            guard config.llms != .pages || state.outputs[path] != nil else { return nil }
            markdown = Markdown(path: path, page: Data(LLMsText.page(record, markdown: text).utf8), text: text)
        }
        let kept = BuildState.StoredPage(signature: signature, hash: record.contentHash, record: .parsed(record), kit: stored.kit)
        let folder = config.siteLanguages.folder(config.siteLanguages.language(ofPath: record.page.urlPath))
        return (path, kept, page, moved, (kit.document, kit.search, folder), (old.searchText, record.searchText), markdown)
    }

    /// The edited file (a page or an entry) parsed again: its bytes, record and tree, and the markup of its references
    /// (each linked as the kit says); nil when it has a problem, or its record's linkage (`StateFile.linkage`) or its
    /// references and links are not those the state's record and kit have.
    func reparsed(
        _ file: SiteSource.File, old: PageRecord, kit: BuildState.PageKit, config: SiteConfig
    ) -> (data: Data, record: PageRecord, document: MarkdownDocument, wrappers: [MarkdownDocument.Wrapper])? {
        let data: Data
        if case .some(.some(let bytes)) = check.changed[file.contentPath] {
            data = bytes
        } else {
            guard case .success(let bytes) = FileContents.read(file.path) else { return nil }
            data = bytes
        }
        let (parsed, problems) = PageParser.parse(data, file: file, drafts: options.drafts, autolink: nil, languages: config.siteLanguages)
        guard problems.isEmpty, let parsed, let document = parsed.document, parsed.record.diagnostics.isEmpty,
            StateFile.linkage(of: parsed.record) == StateFile.linkage(of: old.localized(parsed.record.page.language))
        else { return nil }
        let record = parsed.record
        let keys = record.references.map(\.key).uniqued()
        guard keys.count == kit.targets.count, record.links.count == kit.destinations.count else { return nil }
        let targets = Dictionary(zip(keys, kit.targets), uniquingKeysWith: { first, _ in first })
        // Its references link its language's term pages.
        let termRoot = state.report.rootPath + config.siteLanguages.folder(ofKey: record.page.language)
        return (data, record, document, TermMarkup.wrappers(record.references, rootPath: termRoot) { targets[$0] ?? nil })
    }

    /// Whether a problem, or one of its notes, points into one of `files` (by display path).
    static func points(into files: Set<String>, _ diagnostic: Diagnostic) -> Bool {
        if let file = diagnostic.location?.file, files.contains(file) { return true }
        return diagnostic.notes.contains { $0.location.map { files.contains($0.file) } == true }
    }
}
