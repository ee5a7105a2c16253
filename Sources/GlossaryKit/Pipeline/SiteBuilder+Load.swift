import Foundation

extension SiteBuilder {
    /// The link decisions a page's HTML is made with while it is parsed, before definitions are resolved: a
    /// term links to its page when the team defines it, the cache has a definition or WordNet has one (for it or
    /// its base form); `.md` links resolve against every markdown file found. After resolution the build keeps the
    /// HTML only if these were right.
    struct ParseTimeLinks: @unchecked Sendable {
        let rootPath: String
        /// Team terms and aliases → the slug of the entry's term.
        let teamSlugs: [TermKey: String]
        let reader: CacheReader
        let links: LinkRewriter
        /// The slug WordNet's answer would give a key the team and the cache don't define, if any.
        let wordNetSlug: @Sendable (TermKey) -> String?
        private let lock = NSLock()
        private let memo = Memo()

        final class Memo: @unchecked Sendable {
            var slugs: [TermKey: String?] = [:]
            let wrappers = TermMarkup.Cache()
        }

        init(
            rootPath: String, teamSlugs: [TermKey: String], reader: CacheReader, links: LinkRewriter,
            wordNetSlug: @escaping @Sendable (TermKey) -> String? = { _ in nil }
        ) {
            self.rootPath = rootPath
            self.teamSlugs = teamSlugs
            self.reader = reader
            self.links = links
            self.wordNetSlug = wordNetSlug
        }

        /// The slug a reference to `key` links to at parse time, if any.
        func linkedSlug(_ key: TermKey) -> String? {
            if let known = lock.withLock({ memo.slugs[key] }) { return known }
            var slug = teamSlugs[key]
            if slug == nil, case .entry(let entry) = reader.lookup(key), !entry.isNotFound, !entry.entries.isEmpty { slug = key.slug }
            if slug == nil { slug = wordNetSlug(key) }
            lock.withLock { memo.slugs[key] = .some(slug) }
            return slug
        }

        func fragment(_ record: PageRecord, _ document: MarkdownDocument) -> PageFragment {
            let wrappers = TermMarkup.wrappers(record.references, rootPath: rootPath, cache: memo.wrappers, linkedSlug: linkedSlug)
            let destinations = links.destinations(record)
            return PageFragment(html: document.renderHTML(wrappers: wrappers, destinations: destinations), destinations: destinations)
        }

        /// Every key a reference was linked for so far, with the slug it linked to.
        var slugsLinked: [TermKey: String?] {
            lock.withLock { memo.slugs }
        }
    }

    /// Stage: reads the configuration, the theme and every markdown file. A file unchanged since the state last
    /// saw it keeps its record unread; the others are parsed (on every core), glossary entries first so pages
    /// can link their terms while being rendered.
    ///
    /// Once `cancellation` is set the remaining files are skipped: the caller throws such a site away.
    func load(
        _ log: inout DiagnosticLog, _ stats: inout BuildStats, changes: Set<String>? = nil, scanned: (SiteSource, [Diagnostic])? = nil,
        cancellation: BuildCancellation
    ) -> LoadedSite? {
        let previous = state.withLock { $0.source }
        let (source, scanProblems) = timed("scan", &stats) {
            if let scanned { return scanned }
            if let changes, let previous { return previous.updated(with: changes) }
            return SiteSource.scan(root: options.source)
        }
        state.withLock { $0.source = source }
        log.add(contentsOf: scanProblems)
        // Told what changed, the build trusts every other file to be as the state knows it.
        let trusted = changes.flatMap { $0.contains("*") ? nil : $0 }
        guard let configText = source.configText else { return nil }
        var (config, configProblems) = SiteConfig.load(yaml: configText, file: "glossary.yml")
        log.add(contentsOf: configProblems)
        if let baseURL = options.baseURL { config.baseURL = baseURL.hasSuffix("/") ? baseURL : baseURL + "/" }
        if let apiURL = options.apiURL { config.dictionary.api = apiURL }
        let (theme, themeProblems) = timed("theme", &stats) {
            Theme.load(name: config.theme, siteRoot: options.source, location: config.locations["theme"], displayPath: displayPath)
        }
        log.add(contentsOf: themeProblems)

        // A site that auto-links inflects its terms once the entries are read, with WordNet's exception lists and
        // lemmas: read them meanwhile, on another core (every page waits for the matcher they go into).
        if config.autolink != .off {
            let builder = self
            let site = config
            DispatchQueue.global(qos: .userInitiated).async { builder.wordNetDictionary(for: site, needed: true).0?.prepareInflections() }
        }

        let start = Date()
        let entryFiles = source.markdownFiles.filter { Page.isEntry(contentPath: $0.contentPath) }
        let pageFiles = source.markdownFiles.filter { !Page.isEntry(contentPath: $0.contentPath) }

        // Entries first: their terms are what pages link to while they are rendered. An entry's terms don't depend
        // on auto-linking, so any record of its bytes gives them; it is read again below only if its own body
        // auto-links under other settings.
        let firstEntries = entryFiles.parallelMap(jobs: options.jobs) { loadRecord($0, unchangedUnless: trusted, anyAutolinking: true) }
        // As collecting terms will decide them (senses, aliases, the first entry of a name winning).
        let entryRecords = firstEntries.compactMap { $0.parsed?.record }.filter { $0.hasBody || !$0.page.metadata.draft }
        let team = SiteBuilder.teamDefinitions(entryRecords).0
        let teamSlugs = team.mapValues(\.slug)

        let rootPath = LinkRewriter.rootPath(baseURL: config.baseURL)
        let reader = cacheReader(config, changes: trusted)
        let provisional = LinkRewriter(rootPath: rootPath, pages: pageFiles.map { ($0.contentPath, Page.urlPath(forContentPath: $0.contentPath)) })
        let parseTime = ParseTimeLinks(
            rootPath: rootPath, teamSlugs: teamSlugs, reader: reader, links: provisional,
            wordNetSlug: parseTimeWordNetSlug(config, teamSlugs: teamSlugs, reader: reader))
        let fragments = FragmentStore(parseTime: parseTime)
        let siteMode = config.autolink
        /// A page read: its HTML made at once when it was parsed and its tree let go (a build never holds every
        /// page's tree). A first reading for the references only makes HTML only for a page that doesn't auto-link.
        let readPage = { @Sendable (file: SiteSource.File, autolink: AutolinkSettings?, anyAutolinking: Bool) -> LoadedRecord in
            var loaded = loadRecord(file, unchangedUnless: trusted, autolink: autolink, anyAutolinking: anyAutolinking)
            if let parsed = loaded.parsed, let document = parsed.document {
                if !anyAutolinking || (parsed.record.page.metadata.autolink ?? siteMode) == .off {
                    fragments.add(parseTime.fragment(parsed.record, document), for: file.contentPath)
                }
                loaded.parsed?.document = nil
                Self.letGo(document)
            }
            return loaded
        }

        let terms = Self.autolinkTerms(team: team, entries: entryRecords)
        var dictionaryTerms: [AutolinkSettings.Term] = []
        // With `autolink_dictionary`, plain text links every term the site references explicitly: those are known
        // once every page has been read (for its references, or from the state), so pages that auto-link are read
        // twice when their links change (a page that doesn't auto-link keeps its first reading).
        var firstReadings: [LoadedRecord]?
        if config.autolinkDictionary {
            let pages = pageFiles.parallelMap(jobs: options.jobs) { file -> LoadedRecord in
                if cancellation.isCancelled { return LoadedRecord() }
                return readPage(file, nil, true)
            }
            firstReadings = pages
            dictionaryTerms = dictionaryAutolinkTerms(team: team, records: entryRecords + pages.compactMap { $0.parsed?.record })
        }
        let firstPages = firstReadings
        let autolink =
            terms.isEmpty && dictionaryTerms.isEmpty
            ? nil : AutolinkSettings(mode: config.autolink, terms: terms, dictionaryTerms: dictionaryTerms, inflector: inflector(config))
        /// Whether a first reading holds under `autolink`: its automatic references were found with it (or it has none
        /// to find: a draft left out, a file that can't be read).
        let holds = { @Sendable (loaded: LoadedRecord) -> Bool in
            guard let record = loaded.parsed?.record, record.hasBody else { return true }
            return record.autolink == autolink?.fingerprint(for: record.page.metadata)
        }

        var stored: [String: BuildState.StoredRecord] = [:]
        stored.reserveCapacity(source.markdownFiles.count)
        var problems: [Diagnostic] = []
        var entryDocuments: [String: MarkdownDocument] = [:]
        let entries = Array(zip(entryFiles, firstEntries)).parallelMap(jobs: options.jobs) { file, first in
            holds(first) ? first : loadRecord(file, unchangedUnless: trusted, autolink: autolink)
        }
        for (file, loaded) in zip(entryFiles, entries) {
            problems += loaded.problems
            guard let parsed = loaded.parsed, let signature = loaded.signature else { continue }
            stored[file.contentPath] = .init(signature: signature, readAt: loaded.readAt, record: parsed.record)
            if let document = parsed.document { entryDocuments[file.contentPath] = document }
        }
        let pages = Array(pageFiles.enumerated()).parallelMap(jobs: options.jobs) { index, file -> LoadedRecord in
            if cancellation.isCancelled { return LoadedRecord() }
            if let first = firstPages?[index], holds(first) { return first }
            return readPage(file, autolink, false)
        }
        for (file, loaded) in zip(pageFiles, pages) {
            problems += loaded.problems
            guard let parsed = loaded.parsed, let signature = loaded.signature else { continue }
            stored[file.contentPath] = .init(signature: signature, readAt: loaded.readAt, record: parsed.record)
        }
        stats.stageTimes.append(("parse", Date().timeIntervalSince(start)))

        // Published: every file read whole (drafts without --drafts only had their front matter read), once per URL.
        var records: [PageRecord] = []
        records.reserveCapacity(source.markdownFiles.count)
        // Each URL's page, by its display path.
        var owners: [String: String] = [:]
        owners.reserveCapacity(pageFiles.count)
        for file in source.markdownFiles {
            guard let record = stored[file.contentPath]?.record else { continue }
            if !record.diagnostics.isEmpty { problems += record.diagnostics }
            guard record.hasBody, !record.page.metadata.draft || options.drafts else { continue }
            if record.page.kind == .page {
                let url = record.page.urlPath
                if let owner = owners[url] {
                    problems.append(
                        Diagnostic(
                            .duplicatePage(url: url, other: owner), at: .start(of: record.page.displayPath),
                            notes: [Problem.otherPageNote(at: .start(of: owner))]))
                    continue
                }
                if let reserved = Self.reservedPrefixes.first(where: { url.hasPrefix($0) }) {
                    problems.append(Diagnostic(.reservedPage(prefix: reserved), at: .start(of: record.page.displayPath)))
                    continue
                }
                owners[url] = record.page.displayPath
            }
            records.append(record)
        }
        for file in source.staticFiles where Self.isReservedStaticPath(file.contentPath) {
            problems.append(Diagnostic(.reservedFile(path: file.contentPath), at: .start(of: file.displayPath)))
        }
        log.add(contentsOf: problems)
        var loaded = LoadedSite(
            source: source, config: config, theme: theme, records: records, fragments: fragments, entryDocuments: entryDocuments,
            storedRecords: stored, reader: reader)
        loaded.configHasErrors = configProblems.contains { $0.severity == .error }
        loaded.autolink = autolink
        return loaded
    }

    /// Frees a big page's tree on another thread: the nodes of a 50 MB page take seconds to free, which the build
    /// need not wait for. A small page's tree is freed where it was used.
    static func letGo(_ document: MarkdownDocument) {
        guard document.markdownLength >= 1 << 20 else { return }
        DispatchQueue.global(qos: .utility).async { withExtendedLifetime(document) {} }
    }

    /// The parse-time guess for a key the team and the cache don't define: its own WordNet entry, else its first base
    /// form that the team, the cache or WordNet defines. WordNet is opened on the first question (and only then).
    func parseTimeWordNetSlug(_ config: SiteConfig, teamSlugs: [TermKey: String], reader: CacheReader) -> @Sendable (TermKey) -> String? {
        let asksWordNet = config.dictionary.providers.contains(.wordNet)
        let folder = wordNetFolder()
        return { [self] key in
            guard let wordNet = wordNetDictionary(for: config, needed: true, folder: folder).0 else { return nil }
            if asksWordNet && !wordNet.entries(for: key).isEmpty { return key.slug }
            for base in WordFormResolver(dictionary: wordNet, language: config.language).baseKeys(of: key) {
                if let slug = teamSlugs[base] { return slug }
                if case .entry(let entry) = reader.lookup(base), !entry.isNotFound, !entry.entries.isEmpty { return base.slug }
                if asksWordNet && !wordNet.entries(for: base).isEmpty { return base.slug }
            }
            return nil
        }
    }

    /// The team's terms as auto-linking links them: terms and aliases (their inflected forms follow from them), in
    /// path order; a word of several senses is linked by its bare key, which the page's `senses:` can pick from. Made
    /// whenever the team has terms: a page may turn auto-linking on when the site leaves it off.
    static func autolinkTerms(team: [TermKey: TermDefinition], entries: [PageRecord]) -> [AutolinkSettings.Term] {
        var definitions: [Int: TermDefinition] = [:]
        for definition in team.values {
            if case .team(let index) = definition.origin { definitions[index] = definition }
        }
        return definitions.sorted(by: { $0.key < $1.key }).map { index, definition in
            var id = definition.key
            if definition.sense != nil, let wordKey = TermKey(definition.word), team[wordKey]?.sense != nil { id = wordKey }
            return .init(term: id, forms: [definition.word] + entries[index].page.metadata.aliases, caseSensitive: definition.caseSensitive)
        }
    }

    /// With `autolink_dictionary`: every key the published `records` reference explicitly (written or in `terms:`)
    /// that the team doesn't define, in key order (inflected forms follow). Each is looked up anyway, so linking
    /// its plain occurrences never makes the build fetch a word; one that turns out undefined stays plain text.
    func dictionaryAutolinkTerms(team: [TermKey: TermDefinition], records: [PageRecord]) -> [AutolinkSettings.Term] {
        var keys = Set<TermKey>()
        for record in records where record.hasBody && (!record.page.metadata.draft || options.drafts) {
            for reference in record.allReferences where !reference.isAutomatic && team[reference.key] == nil { keys.insert(reference.key) }
        }
        return keys.sorted().map { .init(term: $0, forms: [$0.rawValue], caseSensitive: false) }
    }

    /// The inflected forms of a term's form, by WordNet (see `WordNetDictionary.inflections(of:)`), opened when a
    /// page first auto-links; nil when the site is not English (then an inflection stands for nothing). The source
    /// is WordNet's folder and its files' signatures: other data could inflect otherwise.
    func inflector(_ config: SiteConfig) -> AutolinkSettings.Inflector? {
        guard WordFormResolver.isEnglish(config.language) else { return nil }
        let folder = wordNetFolder()
        var hasher = FingerprintHasher()
        hasher.combine(folder)
        for name in WordNet.requiredFiles {
            let signature = FileSignature(path: folder + "/" + name)
            hasher.combine(signature.map { "\($0.size) \($0.modifiedSeconds) \($0.modifiedNanoseconds)" })
        }
        return AutolinkSettings.Inflector(source: hasher.finish()) { [self] form in
            // Unavailable data is reported by resolving, where the site asked for WordNet.
            wordNetDictionary(for: config, needed: true, folder: folder).0?.inflections(of: form) ?? []
        }
    }

    /// URL paths the build generates itself; no page may take them.
    static let reservedPrefixes = ["terms/", "search/", "assets/", "_glossary/"]

    /// Whether a static file's output path is one the build generates whatever the site holds: the preview server's
    /// own `_glossary/` folder, the fixed pages and exports, and a term page's name (which any term may take).
    /// Checked while loading, so the error is there even when pages have errors too (the plan is then never made).
    /// A theme asset's path is not among them: a site overrides an asset with a file of its own.
    static func isReservedStaticPath(_ path: String) -> Bool {
        if path.hasPrefix("_glossary/") { return true }
        if ["terms/index.html", "terms/index.json", "search/index.html", "404.html"].contains(path) { return true }
        if SiteExport.allCases.contains(where: { !$0.yieldsToContent && $0 != .tbx && $0.path == path }) { return true }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 3 && parts[0] == "terms" && parts[2] == "index.html"
    }

    /// One file's record: the state's when the file is unchanged (by its signature, or by its bytes when only
    /// touched), else parsed now.
    struct LoadedRecord: Sendable {
        var parsed: PageParser.Parsed?
        var signature: FileSignature?
        var readAt: Double = 0
        var problems: [Diagnostic] = []
    }

    /// With `anyAutolinking`, a record of the file's bytes is reused whatever auto-linking it was made with, and
    /// one parsed now is parsed without (for what doesn't depend on it: its terms, its explicit references).
    func loadRecord(
        _ file: SiteSource.File, unchangedUnless changes: Set<String>? = nil, autolink: AutolinkSettings? = nil, anyAutolinking: Bool = false
    ) -> LoadedRecord {
        // A record's automatic references hold only under the auto-linking they were found with.
        let linkedAlike = { (record: PageRecord) in
            anyAutolinking || record.autolink == autolink?.fingerprint(for: record.page.metadata)
        }
        let wantedNow = { (record: PageRecord) in
            linkedAlike(record) && (record.hasBody || (record.page.metadata.draft && !options.drafts))
        }
        if let changes, !changes.contains(file.displayPath), let stored = state.storedRecord(for: file), wantedNow(stored.record) {
            return LoadedRecord(parsed: .init(record: stored.record, document: nil), signature: stored.signature, readAt: stored.readAt)
        }
        let signature = file.signature ?? FileSignature(path: file.path)
        // A record read without its body (a draft) does only while drafts are left out.
        let wanted = { (record: PageRecord) in
            linkedAlike(record) && (record.hasBody || (record.page.metadata.draft && !options.drafts)) ? record : nil
        }
        if let stored = state.record(for: file, signature: signature), let record = wanted(stored.record) {
            return LoadedRecord(parsed: .init(record: record, document: nil), signature: signature, readAt: stored.readAt)
        }
        let readAt = Date().timeIntervalSince1970
        let data: Data
        switch FileContents.read(file.path) {
        case .failure(let failure):
            return LoadedRecord(parsed: nil, signature: nil, problems: [Diagnostic(.readFailed(reason: failure.reason), at: .start(of: file.displayPath))])
        case .success(let bytes): data = bytes
        }
        let hash = Fingerprint.of(bytes: data)
        if let record = state.record(for: file, hash: hash).flatMap(wanted) {
            return LoadedRecord(parsed: .init(record: record, document: nil), signature: signature, readAt: readAt)
        }
        let (parsed, problems) = PageParser.parse(data, file: file, drafts: options.drafts, autolink: autolink)
        return LoadedRecord(parsed: parsed, signature: signature, readAt: readAt, problems: problems)
    }
}
