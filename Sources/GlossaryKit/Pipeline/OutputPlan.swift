import Foundation

/// Every file a build produces, each with the fingerprint of exactly the inputs it is made from — the same
/// values its `SiteRenderer` context reads. An output whose fingerprint equals the one it was last written
/// with is not rendered again: that is what makes a rebuild cost what changed, and it is correct as long as
/// each fingerprint below covers what the matching context reads (the random-edit tests hold the two to
/// each other).
public struct OutputPlan: Sendable {
    public enum Content: Sendable {
        case page(recordIndex: Int)
        /// The generated page of a section without one of its own (a node of `SiteNavigation`).
        case section(node: Int)
        case term(TermKey)
        case index
        case termsJSON
        /// A file of the site search's index (see `SearchIndex`), by its path.
        case searchIndex
        case search
        case notFound
        /// An export of the glossary, or a file for crawlers.
        case export(SiteExport)
        /// A theme asset built into the binary.
        case data(Data)
        /// A file copied as it is (a theme asset on disk, a content file).
        case file(URL)
    }

    public struct Item: Sendable {
        public var path: String
        public var content: Content
        public var fingerprint: Fingerprint
        /// The bytes' fingerprint, known before rendering for copied files and built-in assets.
        public var bytesHash: Fingerprint?
    }

    public var items: [Item]
    public var paths: Set<String>
    /// Term pages' definitions in key order (what the index and the terms JSON list).
    public var definitions: [TermDefinition]

    /// Plans the site's outputs; problems are slug collisions and content files at generated paths.
    static func make(
        site: BuiltSite, loaded: LoadedSite, theme: Theme, bodySuffix: String?, state: BuildState, jobs: Int = 1
    ) -> (OutputPlan, [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        let definitions = site.termPages.values.sorted { $0.key < $1.key }
        var slugOwners: [String: TermKey] = [:]
        for definition in definitions {
            if let owner = slugOwners[definition.slug] {
                diagnostics.append(Diagnostic(.slugCollision(first: owner.rawValue, second: definition.key.rawValue, slug: definition.slug)))
            }
            slugOwners[definition.slug] = definition.key
        }
        let inputs = Inputs(site: site, theme: theme, bodySuffix: bodySuffix)
        var items: [Item] = []
        // Pages' and terms' fingerprints on every core: most of a plan, and all of it is reading.
        let pageIndices = site.pages.indices.filter { site.pages[$0].page.kind == .page }
        // A page's fingerprint is a function of its record and the plan's context for pages: while that context
        // holds, the last plan's fingerprint of the same record is its fingerprint (a preview rebuild after one
        // edit fingerprints one page, not all of them).
        let pageContext = inputs.pageContext()
        let previous = state.withLock { $0.pageContext == pageContext ? $0.pagePrints : [:] }
        let pagePrints = pageIndices.parallelMap(jobs: jobs) { index in
            let record = site.pages[index]
            if let known = previous[record.page.contentPath], known.record === record { return known.fingerprint }
            return inputs.page(record)
        }
        var prints: [String: (record: PageRecord, fingerprint: Fingerprint)] = [:]
        prints.reserveCapacity(pageIndices.count)
        for (index, fingerprint) in zip(pageIndices, pagePrints) {
            items.append(Item(path: site.pages[index].page.outputPath, content: .page(recordIndex: index), fingerprint: fingerprint))
            prints[site.pages[index].page.contentPath] = (site.pages[index], fingerprint)
        }
        state.withLock { state in
            state.pageContext = pageContext
            state.pagePrints = prints
        }
        let staticPaths = Set(loaded.source.staticFiles.map(\.contentPath))
        for node in site.navigation.generatedSections {
            let path = (site.navigation.nodes[node].urlPath ?? "") + "index.html"
            // A file of the site's own at that path is served instead.
            guard !staticPaths.contains(path) else { continue }
            items.append(Item(path: path, content: .section(node: node), fingerprint: inputs.section(node)))
        }
        // The exports' hashes of each term too, which they would otherwise make one after another.
        let termPrints = definitions.parallelMap(jobs: jobs) { definition in
            _ = inputs.exportedHashes(definition)
            return inputs.term(definition)
        }
        for (definition, fingerprint) in zip(definitions, termPrints) {
            items.append(Item(path: "terms/\(definition.slug)/index.html", content: .term(definition.key), fingerprint: fingerprint))
        }
        items.append(Item(path: "terms/index.html", content: .index, fingerprint: inputs.index(definitions)))
        items.append(Item(path: "terms/index.json", content: .termsJSON, fingerprint: inputs.termsJSON(definitions)))
        items.append(Item(path: "search/index.html", content: .search, fingerprint: inputs.plain("search")))
        let searchDocuments = site.pages.filter { $0.page.kind == .page }.count + site.navigation.generatedSections.count + definitions.count
        let searchInputs = inputs.search(definitions)
        for path in SearchIndex.paths(documents: searchDocuments) {
            items.append(Item(path: path, content: .searchIndex, fingerprint: Inputs.file(path, of: searchInputs)))
        }
        items.append(Item(path: "404.html", content: .notFound, fingerprint: inputs.plain("404")))
        // TBX needs at least one entry: a glossary without terms has no TBX file.
        for kind in [SiteExport.json, .csv, .tbx] where kind != .tbx || !definitions.isEmpty {
            items.append(Item(path: kind.path, content: .export(kind), fingerprint: inputs.export(kind, definitions)))
        }

        var taken = Set(items.map(\.path))
        // A content file may replace a theme asset (that is how a site overrides one), never a generated file.
        for file in loaded.source.staticFiles {
            // Reported while loading (`SiteBuilder.isReservedStaticPath`), and never copied.
            if SiteBuilder.isReservedStaticPath(file.contentPath) { continue }
            if taken.contains(file.contentPath) {
                diagnostics.append(Diagnostic(.reservedFile(path: file.contentPath), at: .start(of: file.displayPath)))
                continue
            }
            guard let hash = state.fileHash(file.path, signature: file.signature ?? FileSignature(path: file.path)) else {
                diagnostics.append(Diagnostic(.readFailed(reason: "it disappeared or can't be read"), at: .start(of: file.displayPath)))
                continue
            }
            taken.insert(file.contentPath)
            items.append(Item(path: file.contentPath, content: .file(file.url), fingerprint: Inputs.copy(hash), bytesHash: hash))
        }
        // The site's own robots.txt or sitemap.xml (copied above) is used instead of glossary's.
        for kind in SiteExport.allCases where kind.yieldsToContent && !taken.contains(kind.path) {
            taken.insert(kind.path)
            items.append(Item(path: kind.path, content: .export(kind), fingerprint: inputs.export(kind, definitions)))
        }
        for (asset, source) in theme.assets.sorted(by: { $0.key < $1.key }) where !taken.contains("assets/" + asset) {
            switch source {
            case .data(let data):
                let hash = Fingerprint.of(bytes: data)
                items.append(Item(path: "assets/" + asset, content: .data(data), fingerprint: Inputs.copy(hash), bytesHash: hash))
            case .file(let url):
                guard let hash = state.fileHash(url.path, signature: FileSignature(path: url.path)) else { continue }
                items.append(Item(path: "assets/" + asset, content: .file(url), fingerprint: Inputs.copy(hash), bytesHash: hash))
            }
        }
        return (OutputPlan(items: items, paths: Set(items.map(\.path)), definitions: definitions), diagnostics)
    }

    /// The fingerprints of each kind of output's inputs, memoised per build where many outputs share one. Used
    /// from several threads at once: the memos take a lock.
    struct Inputs: @unchecked Sendable {
        let site: BuiltSite
        let theme: Theme
        let common: Fingerprint
        private let templates: [String: Fingerprint]
        private let summaries: [TermKey: Fingerprint]
        /// Every referenced key's link (its fingerprint with the slug it links to) and the summary a term list
        /// shows for it, looked up once per build rather than once per reference of every page.
        private let referenced: [TermKey: (link: Fingerprint, summary: Fingerprint)]
        private let undefined = Fingerprint.of(bytes: Array("undefined".utf8))
        /// The term page each word links to, looked up once per word (synonyms repeat across thousands of terms).
        private let linkedURLs = LinkedURLs()

        final class LinkedURLs {
            let lock = NSLock()
            var byWord: [String: String?] = [:]
        }

        /// What the exports and term pages read of each term, hashed once for all of them (three exports and the
        /// term's page read every term).
        private let exportedTerms = ExportedTerms()

        final class ExportedTerms {
            let lock = NSLock()
            var byKey: [TermKey: (term: Fingerprint, users: Fingerprint)] = [:]
            var users: [TermKey: Fingerprint] = [:]
        }

        func linkedURL(_ word: String) -> String? {
            if let known = linkedURLs.lock.withLock({ linkedURLs.byWord[word] }) { return known }
            let url = SiteRenderer.linkedURL(word, in: site)
            linkedURLs.lock.withLock { linkedURLs.byWord[word] = .some(url) }
            return url
        }

        /// Bumped whenever what a context reads changes, so old manifests don't match.
        static let version = 5

        init(site: BuiltSite, theme: Theme, bodySuffix: String?) {
            self.site = site
            self.theme = theme
            var hasher = FingerprintHasher()
            hasher.combine(Self.version)
            let config = site.config
            hasher.combine(config.title)
            hasher.combine(config.description)
            hasher.combine(config.language)
            hasher.combine(config.dictionary.liveLookup)
            hasher.combine(config.dictionary.api)
            hasher.combine(SiteRenderer.generator)
            hasher.combine(site.rootPath)
            hasher.combine(config.address?.origin)
            hasher.combine(bodySuffix)
            common = hasher.finish()
            var templates: [String: Fingerprint] = [:]
            for name in Theme.requiredTemplates {
                var template = FingerprintHasher()
                for dependency in theme.dependencyClosure(of: name) {
                    template.combine(dependency)
                    template.combine(theme.templateSources[dependency])
                }
                templates[name] = template.finish()
            }
            self.templates = templates
            var summaries: [TermKey: Fingerprint] = [:]
            for definition in site.termPages.values {
                var summary = FingerprintHasher()
                summary.combine(definition.word)
                summary.combine(definition.sense)
                summary.combine(definition.slug)
                summary.combine(definition.summary)
                summary.combine(definition.partOfSpeech)
                summary.combine(definition.phonetic)
                summaries[definition.key] = summary.finish()
            }
            self.summaries = summaries
            var referenced: [TermKey: (link: Fingerprint, summary: Fingerprint)] = [:]
            referenced.reserveCapacity(site.usage.count)
            for key in site.usage.keys {
                let definition = site.definition(for: key)
                referenced[key] = (Self.link(key, slug: definition?.slug), definition.flatMap { summaries[$0.key] } ?? undefined)
            }
            self.referenced = referenced
        }

        private func start(_ kind: String, template: String) -> FingerprintHasher {
            var hasher = FingerprintHasher()
            hasher.combine(kind)
            hasher.combine(templates[template] ?? .zero)
            hasher.combine(common)
            return hasher
        }

        /// Everything a content page's fingerprint reads besides its own record (see `page`): the template, the
        /// site-wide values, the navigation's and the link rewriter's inputs, and every referenced key's link
        /// and summary.
        func pageContext() -> Fingerprint {
            var hasher = start("page", template: "page")
            hasher.combine(site.navigationInputs)
            hasher.combineCount(referenced.count)
            for key in referenced.keys.sorted() {
                let known = referenced[key]!
                hasher.combine(key.rawValue)
                hasher.combine(known.link)
                hasher.combine(known.summary)
            }
            return hasher.finish()
        }

        /// A definition's summary as a term list shows it (or the mark of no definition).
        func summary(_ key: TermKey) -> Fingerprint {
            if let known = referenced[key] { return known.summary }
            guard let definition = site.definition(for: key) else { return undefined }
            return summaries[definition.key] ?? undefined
        }

        /// A record: its bytes and where it is (the record is a function of both).
        static func combine(_ record: PageRecord, into hasher: inout FingerprintHasher) {
            hasher.combine(record.contentHash)
            hasher.combine(record.page.contentPath)
        }

        /// A page's body HTML: its record, the markup of each reference (`TermMarkup.wrapper` of its key and the
        /// slug it links to; the root is in `common`) and each link's destination.
        func body(_ record: PageRecord, into hasher: inout FingerprintHasher) {
            Self.combine(record, into: &hasher)
            hasher.combineCount(record.references.count)
            let references = record.references
            for index in references.indices {
                let key = references[index].key
                hasher.combine(referenced[key]?.link ?? Self.link(key, slug: site.definition(for: key)?.slug))
                hasher.combine(references[index].isAutomatic)
            }
            let destinations = site.links.destinations(record)
            hasher.combineCount(destinations.count)
            for destination in destinations { hasher.combine(destination) }
        }

        /// A reference's key with the slug it links to (nil: no definition), as `referenced` holds it.
        static func link(_ key: TermKey, slug: String?) -> Fingerprint {
            var link = FingerprintHasher()
            link.combine(key.rawValue)
            link.combine(slug)
            return link.finish()
        }

        func page(_ record: PageRecord) -> Fingerprint {
            var hasher = start("page", template: "page")
            body(record, into: &hasher)
            let keys = record.allReferences.map(\.key).uniqued()
            hasher.combineCount(keys.count)
            for key in keys { hasher.combine(summary(key)) }
            let contents = record.tableOfContents
            hasher.combineCount(contents.count)
            for heading in contents {
                hasher.combine(heading.id)
                hasher.combine(heading.text)
                hasher.combine(heading.level)
            }
            site.navigation.view(forURL: record.page.urlPath).fingerprint(into: &hasher)
            return hasher.finish()
        }

        /// A generated section page: its title and what it shows of the navigation.
        func section(_ node: Int) -> Fingerprint {
            var hasher = start("section", template: "page")
            let section = site.navigation.nodes[node]
            hasher.combine(section.title)
            hasher.combine(section.urlPath)
            site.navigation.view(forURL: section.urlPath ?? "").fingerprint(into: &hasher)
            return hasher.finish()
        }

        func term(_ definition: TermDefinition) -> Fingerprint {
            var hasher = start("term", template: "term")
            hasher.combine(summaries[definition.key] ?? undefined)
            hasher.combine(definition.key.rawValue)
            hasher.combineCount(definition.aliases.count)
            for alias in definition.aliases { hasher.combine(alias.rawValue) }
            var words: [String] = []
            switch definition.origin {
            case .team(let index):
                hasher.combine("team")
                body(site.pages[index], into: &hasher)
                // See-also items in order: a term's page, or a link's text and href.
                hasher.combineCount(definition.seeAlso.count)
                for item in definition.seeAlso {
                    hasher.combine(item)
                    if SeeAlso.isLink(item) {
                        let link = site.seeAlsoLink(item, from: site.pages[index].page)
                        hasher.combine(link.text)
                        hasher.combine(link.url)
                    } else {
                        hasher.combine(linkedURL(item))
                    }
                }
                words += definition.entries.flatMap(\.meanings).flatMap { $0.synonyms + $0.antonyms }
            case .dictionary(let entry, _, let stale):
                hasher.combine("dictionary")
                hasher.combine(entry.bodyFingerprint)
                hasher.combine(Int(entry.fetchedAt.timeIntervalSince1970))
                hasher.combine(entry.sampleNote)
                hasher.combine(stale)
                words += Self.linkedWords(definition.entries)
            case .wordNet:
                // Not cached, so there is no body to hash: the entries as converted are the input.
                hasher.combine("wordnet")
                Self.combine(definition.entries, into: &hasher)
                words += Self.linkedWords(definition.entries)
            }
            let forms = site.formsUsed[definition.key] ?? []
            hasher.combineCount(forms.count)
            for form in forms { hasher.combine(form.rawValue) }
            hasher.combineCount(words.count)
            for word in words {
                hasher.combine(word)
                hasher.combine(linkedURL(word))
            }
            hasher.combine(usersHash(definition))
            return hasher.finish()
        }

        func index(_ definitions: [TermDefinition]) -> Fingerprint {
            var hasher = start("terms", template: "terms")
            hasher.combineCount(definitions.count)
            for definition in definitions { hasher.combine(summaries[definition.key] ?? undefined) }
            return hasher.finish()
        }

        func termsJSON(_ definitions: [TermDefinition]) -> Fingerprint {
            var hasher = FingerprintHasher()
            hasher.combine("json")
            hasher.combine(Self.version)
            hasher.combine(site.rootPath)
            hasher.combineCount(definitions.count)
            for definition in definitions {
                hasher.combine(summaries[definition.key] ?? undefined)
                hasher.combine(definition.sourceName)
                hasher.combine(definition.summaryHTML)
                hasher.combineCount(definition.aliases.count)
                for alias in definition.aliases { hasher.combine(alias.rawValue) }
            }
            return hasher.finish()
        }

        /// Everything the search index holds: each page's record (its text, headings, title and description come
        /// from its bytes), URL and trail; each generated section's title, URL and trail; each term's word, URL,
        /// summary, aliases and definitions.
        func search(_ definitions: [TermDefinition]) -> Fingerprint {
            var hasher = FingerprintHasher()
            hasher.combine("search")
            hasher.combine(Self.version)
            hasher.combine(SearchIndex.version)
            for record in site.pages where record.page.kind == .page {
                Self.combine(record, into: &hasher)
                hasher.combine(record.title)
                hasher.combineCount(site.navigation.trail(forURL: record.page.urlPath).count)
                for title in site.navigation.trail(forURL: record.page.urlPath) { hasher.combine(title) }
            }
            for node in site.navigation.generatedSections {
                let section = site.navigation.nodes[node]
                hasher.combine(section.title)
                hasher.combine(section.urlPath)
                for title in site.navigation.trail(forURL: section.urlPath ?? "") { hasher.combine(title) }
            }
            hasher.combineCount(definitions.count)
            for definition in definitions {
                hasher.combine(summaries[definition.key] ?? undefined)
                hasher.combineCount(definition.aliases.count)
                for alias in definition.aliases { hasher.combine(alias.rawValue) }
                hasher.combine(SiteRenderer.definitionText(definition))
            }
            return hasher.finish()
        }

        /// The synonyms and antonyms of dictionary entries, which the term page links when the glossary has them.
        static func linkedWords(_ entries: [DictionaryEntry]) -> [String] {
            var words: [String] = []
            for meaning in entries.flatMap(\.meanings) {
                words += meaning.synonyms + meaning.antonyms
                for sense in meaning.definitions { words += sense.synonyms + sense.antonyms }
            }
            return words
        }

        /// Every field of `entries` a term page shows.
        static func combine(_ entries: [DictionaryEntry], into hasher: inout FingerprintHasher) {
            func strings(_ list: [String]) {
                hasher.combineCount(list.count)
                for item in list { hasher.combine(item) }
            }
            func license(_ license: DictionaryEntry.License?) {
                hasher.combine(license?.name)
                hasher.combine(license?.url)
            }
            hasher.combineCount(entries.count)
            for entry in entries {
                hasher.combine(entry.word)
                hasher.combine(entry.phonetic)
                hasher.combineCount(entry.phonetics.count)
                for phonetic in entry.phonetics {
                    hasher.combine(phonetic.text)
                    hasher.combine(phonetic.audio)
                    hasher.combine(phonetic.sourceUrl)
                    license(phonetic.license)
                }
                hasher.combineCount(entry.meanings.count)
                for meaning in entry.meanings {
                    hasher.combine(meaning.partOfSpeech)
                    hasher.combineCount(meaning.definitions.count)
                    for sense in meaning.definitions {
                        hasher.combine(sense.definition)
                        strings(sense.examples)
                        strings(sense.synonyms)
                        strings(sense.antonyms)
                    }
                    strings(meaning.synonyms)
                    strings(meaning.antonyms)
                }
                license(entry.license)
                strings(entry.sourceUrls)
            }
        }

        /// An export: the site's names and address, and what the file says of each term (`GlossaryExport`): the
        /// glossary exports read each term's definition, names and forms, and (JSON and CSV) the pages using it; the
        /// sitemap reads the pages' paths and dates and the terms' slugs; robots.txt only the address.
        func export(_ kind: SiteExport, _ definitions: [TermDefinition]) -> Fingerprint {
            var hasher = FingerprintHasher()
            hasher.combine("export")
            hasher.combine(kind.path)
            hasher.combine(Self.version)
            hasher.combine(site.rootPath)
            hasher.combine(site.config.address?.origin)
            switch kind {
            case .robots:
                break
            case .sitemap:
                let pages = site.pages.filter { $0.page.kind == .page }
                hasher.combineCount(pages.count)
                for record in pages {
                    hasher.combine(record.page.urlPath)
                    hasher.combine(record.page.metadata.date)
                }
                let sections = site.navigation.generatedSections.map { site.navigation.nodes[$0].urlPath }
                hasher.combineCount(sections.count)
                for path in sections { hasher.combine(path) }
                hasher.combineCount(definitions.count)
                for definition in definitions { hasher.combine(definition.slug) }
            case .json, .csv, .tbx:
                // The JSON's header names the site; the TBX's its title and language; the CSV is rows only.
                if kind != .csv {
                    hasher.combine(site.config.title)
                    hasher.combine(site.config.language)
                }
                if kind == .json { hasher.combine(site.config.description) }
                hasher.combineCount(definitions.count)
                for definition in definitions {
                    let hashes = exportedHashes(definition)
                    hasher.combine(hashes.term)
                    if kind != .tbx { hasher.combine(hashes.users) }
                }
            }
            return hasher.finish()
        }

        /// One of several files made from the same inputs.
        static func file(_ path: String, of inputs: Fingerprint) -> Fingerprint {
            var hasher = FingerprintHasher()
            hasher.combine(path)
            hasher.combine(inputs)
            return hasher.finish()
        }

        /// `exported(_:into:)` of a term and the pages using it, each hashed once per plan.
        func exportedHashes(_ definition: TermDefinition) -> (term: Fingerprint, users: Fingerprint) {
            if let known = exportedTerms.lock.withLock({ exportedTerms.byKey[definition.key] }) { return known }
            var term = FingerprintHasher()
            exported(definition, into: &term)
            let hashes = (term.finish(), usersHash(definition))
            exportedTerms.lock.withLock { exportedTerms.byKey[definition.key] = hashes }
            return hashes
        }

        /// The pages using a term (titles and paths), as its page and the exports show them: hashed once per plan.
        private func usersHash(_ definition: TermDefinition) -> Fingerprint {
            if let known = exportedTerms.lock.withLock({ exportedTerms.users[definition.key] }) { return known }
            var users = FingerprintHasher()
            let indexes = site.usedOnIndexes(definition)
            users.combineCount(indexes.count)
            for index in indexes {
                users.combine(site.pages[index].title)
                users.combine(site.pages[index].page.urlPath)
            }
            let hash = users.finish()
            exportedTerms.lock.withLock { exportedTerms.users[definition.key] = hash }
            return hash
        }

        /// What a glossary export says of one term besides the pages using it: its names, the spellings references
        /// wrote, and its definition — a team entry's body as rendered (its record and link decisions), or the
        /// dictionary's answer and when it was fetched.
        private func exported(_ definition: TermDefinition, into hasher: inout FingerprintHasher) {
            hasher.combine(definition.key.rawValue)
            hasher.combine(definition.word)
            hasher.combine(definition.sense)
            hasher.combineCount(definition.aliases.count)
            for alias in definition.aliases { hasher.combine(alias.rawValue) }
            let forms = GlossaryExport.forms(definition, site: site)
            hasher.combineCount(forms.count)
            for form in forms { hasher.combine(form) }
            switch definition.origin {
            case .team(let index):
                hasher.combine("team")
                body(site.pages[index], into: &hasher)
            case .dictionary(let entry, _, _):
                hasher.combine("dictionary")
                hasher.combine(entry.bodyFingerprint)
                hasher.combine(Int(entry.fetchedAt.timeIntervalSince1970))
            case .wordNet:
                hasher.combine("wordnet")
                Self.combine(definition.entries, into: &hasher)
            }
        }

        func plain(_ template: String) -> Fingerprint {
            start(template, template: template).finish()
        }

        static func copy(_ hash: Fingerprint) -> Fingerprint {
            var hasher = FingerprintHasher()
            hasher.combine("copy")
            hasher.combine(hash)
            return hasher.finish()
        }
    }
}
