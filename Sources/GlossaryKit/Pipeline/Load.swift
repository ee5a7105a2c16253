import Foundation

/// Step: every markdown file's record — the state's where the file is unchanged (`InputCheck`), else parsed on every
/// core — glossary entries first, since auto-linking links their terms; and the body of every file parsed, as markdown
/// made it (`PageBodies`).
struct Load: Sendable {
    let options: BuildOptions
    let source: SiteSource
    let config: SiteConfig
    let check: InputCheck
    let dictionaries: Dictionaries

    /// Once `cancellation` is set the remaining files are skipped: the caller throws such a site away.
    func run(cancellation: BuildCancellation) -> LoadedSite {
        // A site that auto-links inflects its terms once the entries are read, with WordNet's exception lists and
        // lemmas: read them meanwhile.
        let inflector = Self.inflector(config, options: options, dictionaries: dictionaries)
        let languages = config.siteLanguages
        let entryFiles = source.markdownFiles.filter { Page.isEntry(contentPath: $0.contentPath, languages: languages) }
        let pageFiles = source.markdownFiles.filter { !Page.isEntry(contentPath: $0.contentPath, languages: languages) }
        let contentFolder = options.source.appendingPathComponent("content", isDirectory: true)

        // Entries first: their terms are what pages link to. An unchanged entry is the state's record and body (which
        // its term page and the exports show); another is parsed. An entry's terms don't depend on auto-linking, so it is
        // read without it, and read again below only if its reading doesn't hold under the site's auto-linking.
        // Links to `.md` files are written while parsing as if every markdown file were published; the render step
        // parses a page again in the rare case its links lead elsewhere in the site it renders.
        let links = LinkRewriter(
            rootPath: LinkRewriter.rootPath(baseURL: config.baseURL), pages: pageFiles.map { ($0.contentPath, Page.urlPath(forContentPath: $0.contentPath)) })
        let firstEntries = entryFiles.parallelMap(jobs: options.jobs) { storedEntry($0, links: links) ?? parse($0, autolink: nil, links: links) }
        // As collecting terms will decide them (senses, aliases, the first entry of a name winning).
        let entryRecords = firstEntries.compactMap { $0.parsed?.record }.filter { $0.hasBody || !$0.page.metadata.draft }
        let team = SiteBuilder.teamDefinitions(entryRecords, jobs: options.jobs).0
        let terms = Self.autolinkTerms(team: team, entries: entryRecords)

        var dictionaryTerms: [AutolinkSettings.Term] = []
        // With `autolink_dictionary`, plain text links every term the site references explicitly: those are known once
        // every page has been read, so pages that auto-link are read twice (a page that doesn't keeps its first reading).
        let firstReadings: [Loaded]? =
            config.autolinkDictionary
            ? pageFiles.parallelMap(jobs: options.jobs) { file -> Loaded in
                if cancellation.isCancelled { return Loaded() }
                return record(file, autolink: nil, links: nil)
            } : nil
        if let firstReadings {
            dictionaryTerms = dictionaryAutolinkTerms(team: team, records: entryRecords + firstReadings.compactMap { $0.parsed?.record })
        }
        // Made once a build, for each language Snowball stems (by key language); the default one, when English, is
        // inflected by WordNet instead.
        var stemmers: [String: SnowballStemmer] = [:]
        var statuses: [String: TermStatusCheck] = [:]
        for code in languages.codes {
            let language = languages.keyLanguage(code)
            let stemmer = SnowballStemmer(language: code)
            stemmers[language] = stemmer
            let names = TermStatusCheck.names(team: team, entries: entryRecords, language: language)
            if !names.isEmpty { statuses[language] = TermStatusCheck(names: names, inflector: language.isEmpty ? inflector : nil, stemmer: stemmer) }
        }
        let autolink =
            terms.isEmpty && dictionaryTerms.isEmpty
            ? nil
            : AutolinkSettings(
                mode: config.autolink, terms: terms, dictionaryTerms: dictionaryTerms, inflector: inflector, statuses: statuses, stemmers: stemmers)
        let bodies = PageBodies(contentFolder: contentFolder, autolink: autolink, languages: languages)
        /// Whether a reading holds under `autolink`: its automatic references were found with it (or it has none to
        /// find: a draft left out, a file that can't be read).
        let holds = { @Sendable (loaded: Loaded) -> Bool in
            guard let record = loaded.parsed?.record, record.hasBody else { return true }
            return record.autolink == autolink?.fingerprint(for: record.page.metadata)
        }
        // The entries whose first reading doesn't hold are read again; the rest keep it.
        var entries = firstEntries
        let stale = Array(entries.indices).parallelMap(jobs: options.jobs) { !holds(firstEntries[$0]) }
        let again = entries.indices.filter { stale[$0] }
        for (index, read) in zip(again, again.parallelMap(jobs: options.jobs) { parse(entryFiles[$0], autolink: autolink, links: links) }) {
            entries[index] = read
        }
        let pages = Array(pageFiles.enumerated()).parallelMap(jobs: options.jobs) { index, file -> Loaded in
            if cancellation.isCancelled { return Loaded() }
            if let first = firstReadings?[index], holds(first) { return first }
            return record(file, autolink: autolink, links: links)
        }
        var loaded = LoadedSite(source: source, config: config, records: [], bodies: bodies, autolink: autolink)
        loaded.pages.reserveCapacity(source.markdownFiles.count)
        loaded.read.reserveCapacity(source.markdownFiles.count)
        for (file, read) in zip(entryFiles, entries) { Self.take(read, of: file, into: &loaded) }
        for (file, read) in zip(pageFiles, pages) { Self.take(read, of: file, into: &loaded) }
        loaded.publish(source: source, drafts: options.drafts)
        return loaded
    }

    /// Adds one file's reading to the site: its record, problems and body, and its page for the next state.
    private static func take(_ read: borrowing Loaded, of file: SiteSource.File, into loaded: inout LoadedSite) {
        loaded.problems += read.problems
        guard let parsed = read.parsed else { return }
        if let body = parsed.body { loaded.bodies.add(body.html, destinations: body.destinations, for: file.contentPath) }
        if let stored = read.stored {
            loaded.pages[file.contentPath] = stored
        } else if let signature = file.signature {
            let canStore = StateFile.canStore(parsed.record)
            let record = canStore ? BuildState.StoredRecord.parsed(parsed.record) : nil
            let isEntry = canStore && parsed.record.page.kind == .glossaryEntry
            let body = isEntry ? parsed.body.map { BuildState.StoredBody.made($0.html, destinations: $0.destinations) } : nil
            loaded.pages[file.contentPath] = BuildState.StoredPage(signature: signature, hash: parsed.record.contentHash, record: record, body: body)
        }
        loaded.read[file.contentPath] = parsed.record
    }

    /// A file's record as `run` found it: the state's, or parsed (with its body, when it was made).
    struct Loaded: Sendable {
        struct Parsed: Sendable {
            var record: PageRecord
            var body: (html: BodyHTML, destinations: [String?])?
        }
        var parsed: Parsed?
        var problems: [Diagnostic] = []
        /// The state's page, when the record is its.
        var stored: BuildState.StoredPage?
    }

    /// The state's record of `file` when its bytes are unchanged and it was read with the same auto-linking, else the
    /// file parsed. Without `links`, a first reading for a page's explicit references only: any auto-linking will do,
    /// and no body is made.
    private func record(_ file: SiteSource.File, autolink: AutolinkSettings?, links: LinkRewriter?) -> Loaded {
        if let stored = check.unchanged[file.contentPath], let record = stored.record?.record(file: file.displayPath),
            // `languages:` decides which files are entries.
            (record.page.kind == .glossaryEntry) == Page.isEntry(contentPath: file.contentPath, languages: config.siteLanguages),
            links == nil || record.autolink == autolink?.fingerprint(for: record.page.metadata),
            record.hasBody || (record.page.metadata.draft && !options.drafts)
        {
            // The state keeps keys without their language: the page's is given them again.
            let localized = record.localized(config.siteLanguages.keyLanguage(ofContentPath: file.contentPath))
            return Loaded(parsed: .init(record: localized, body: nil), stored: stored)
        }
        return parse(file, autolink: autolink, links: links)
    }

    /// An unchanged entry as the state has it: its record and its body, when the body's links were written as `links`
    /// writes them now.
    private func storedEntry(_ file: SiteSource.File, links: LinkRewriter) -> Loaded? {
        guard let stored = check.unchanged[file.contentPath], let record = stored.record?.record(file: file.displayPath),
            record.page.kind == .glossaryEntry, let body = stored.body?.body,
            body.html.slots.allSatisfy({ $0.reference < record.references.count })
        else { return nil }
        let localized = record.localized(config.siteLanguages.keyLanguage(ofContentPath: file.contentPath))
        guard links.destinations(localized) == body.destinations else { return nil }
        return Loaded(parsed: .init(record: localized, body: body), stored: stored)
    }

    /// The file read (unless the check read it already) and parsed; with `links`, its body's HTML made at once with
    /// its links written as they say, and the tree let go (a build never holds every page's tree).
    private func parse(_ file: SiteSource.File, autolink: AutolinkSettings?, links: LinkRewriter?) -> Loaded {
        let data: Data
        if case .some(.some(let bytes)) = check.changed[file.contentPath] {
            data = bytes
        } else {
            switch FileContents.read(file.path) {
            case .failure(let failure):
                return Loaded(problems: [Diagnostic(.readFailed(reason: failure.reason), at: .start(of: file.displayPath))])
            case .success(let bytes): data = bytes
            }
        }
        let (parsed, problems) = PageParser.parse(data, file: file, drafts: options.drafts, autolink: autolink, languages: config.siteLanguages)
        guard let parsed else { return Loaded(problems: problems) }
        var loaded = Loaded(parsed: .init(record: parsed.record, body: nil), problems: problems)
        if let links, let document = parsed.document {
            let destinations = links.destinations(parsed.record)
            loaded.parsed?.body = (document.renderBody(destinations: destinations), destinations)
        }
        return loaded
    }
}

extension Load {
    /// URL paths the build generates itself; no page may take them: besides the assets and the preview server's, each
    /// language's term pages and dictionary page (`terms/`, `fr/terms/`, `search/`, `fr/search/`).
    static func reservedPrefixes(_ languages: SiteLanguages) -> [String] {
        var prefixes = ["terms/", "search/", "assets/", "_glossary/"]
        for code in languages.codes where !languages.folder(code).isEmpty {
            prefixes += [languages.termsFolder(code), languages.folder(code) + "search/"]
        }
        return prefixes
    }

    /// Whether a static file's output path is one the build generates whatever the site holds: the preview server's
    /// own `_glossary/` folder, the fixed pages and exports, and a term page's name (which any term may take), in
    /// every language's folder. Checked while loading, so the error is there even when pages have errors too (the
    /// plan is then never made). A theme asset's path is not among them: a site overrides an asset with a file of its
    /// own.
    static func isReservedStaticPath(_ path: String, languages: SiteLanguages = .init(codes: [])) -> Bool {
        if path.hasPrefix("_glossary/") { return true }
        if path == "404.html" { return true }
        if SiteExport.allCases.contains(where: { !$0.yieldsToContent && $0 != .tbx && $0.path == path }) { return true }
        let folders = Set([""] + languages.codes.map { languages.folder($0) })
        for folder in folders where path.hasPrefix(folder) {
            let rest = path.dropFirst(folder.count)
            if ["terms/index.html", "terms/index.json", "search/index.html"].contains(rest) { return true }
            let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
            if parts.count == 3 && parts[0] == "terms" && parts[2] == "index.html" { return true }
        }
        return false
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
            if definition.sense != nil, let wordKey = TermKey(definition.word)?.inLanguage(definition.key.language), team[wordKey]?.sense != nil {
                id = wordKey
            }
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
    static func inflector(_ config: SiteConfig, options: BuildOptions, dictionaries: Dictionaries) -> AutolinkSettings.Inflector? {
        guard WordFormResolver.isEnglish(config.language) else { return nil }
        let folder = dictionaries.wordNetFolder
        var hasher = FingerprintHasher()
        hasher.combine(folder)
        for name in WordNet.requiredFiles {
            let signature = FileSignature(path: folder + "/" + name)
            hasher.combine(signature.map { "\($0.size) \($0.modifiedSeconds) \($0.modifiedNanoseconds)" })
        }
        return AutolinkSettings.Inflector(source: hasher.finish()) { form in
            // Unavailable data is reported by resolving, where the site asked for WordNet.
            dictionaries.wordNet(for: config, needed: true).0?.inflections(of: form) ?? []
        }
    }
}
