import Foundation

/// Every file a build produces, by path, with what it is made from (rendering fingerprints each from the value it is
/// made of: see `RenderStep`).
public struct OutputPlan: Sendable {
    public enum Content: Sendable {
        case page(recordIndex: Int)
        /// A content page as markdown, for language models (`llms: pages`).
        case pageMarkdown(recordIndex: Int)
        /// The generated page of a section without one of its own (a node of `SiteNavigation`).
        case section(node: Int)
        case term(TermKey)
        /// A language's A–Z index entry point, by code: its single page, or the overview of a paged one.
        case index(language: String)
        /// A page of a language's paged A–Z index, by its place in that language's `termIndexes` entry.
        case indexPage(language: String, Int)
        /// A file made while planning, since which files there are depends on what they hold: a file of a language's
        /// terms for cards and the dictionary page (`TermsJSON`), of the term API (`TermAPI`) or of a language's site
        /// search index (`SearchIndex`).
        case planned(Data)
        /// A language's dictionary page (by code).
        case search(language: String)
        case notFound
        /// An export of the glossary, or a file for crawlers.
        case export(SiteExport)
        /// A theme asset built into the binary.
        case data(Data)
        /// A file copied as it is (a theme asset on disk, a content file), with its bytes' fingerprint.
        case file(URL, Fingerprint)
    }

    public struct Item: Sendable {
        public var path: String
        public var content: Content
    }

    public var items: [Item]
    public var paths: Set<String>
    /// Term pages' definitions in key order, the default language's first (what the indexes and the terms JSON list).
    public var definitions: [TermDefinition]
    /// Each language's A–Z index pages, by language code.
    public var termIndexes: [String: TermIndexPages]
    /// The most URLs one sitemap file lists.
    var sitemapLimit: Int

    /// The definitions of `language`'s terms (a code), in key order.
    func definitions(of language: String, in languages: SiteLanguages) -> [TermDefinition] {
        Self.definitions(definitions, of: language, in: languages)
    }

    /// Those of `definitions` that are terms of `language` (a code).
    static func definitions(_ definitions: [TermDefinition], of language: String, in languages: SiteLanguages) -> [TermDefinition] {
        // One language's are all of them: the same array, not a copy.
        guard languages.isMultilingual else { return definitions }
        let keyLanguage = languages.keyLanguage(language)
        return definitions.filter { $0.key.language == keyLanguage }
    }

    /// Plans the site's outputs; problems are slug collisions and content files at generated paths. `searchDocuments`
    /// gives a language's search documents from the site's definitions in key order (`SiteRenderer.searchDocuments`),
    /// nil for a plan without the search index (a check, which writes nothing); `fileHash` a copied file's bytes'
    /// fingerprint (nil when it can't be read).
    static func make(
        site: BuiltSite, source: SiteSource, theme: Theme, sitemapLimit: Int = Sitemap.maximumURLs, termShards: TermShards.Limits = .standard,
        searchShards: SearchIndex.ShardSizes = .standard, jobs: Int = 1, searchDocuments: (([TermDefinition], String) -> [SearchDocument])?,
        fileHash: (String) -> Fingerprint?
    ) -> (OutputPlan, [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        let definitions = site.termPages.values.sorted { $0.key < $1.key }
        let languages = site.config.siteLanguages
        var slugOwners: [String: TermKey] = [:]
        for definition in definitions {
            let path = languages.termPath(definition.key)
            if let owner = slugOwners[path] {
                diagnostics.append(Diagnostic(.slugCollision(first: owner.rawValue, second: definition.key.rawValue, slug: definition.slug)))
            }
            slugOwners[path] = definition.key
        }
        var items: [Item] = []
        for (index, record) in site.pages.enumerated() where record.page.kind == .page {
            items.append(Item(path: record.page.outputPath, content: .page(recordIndex: index)))
            if site.config.llms == .pages { items.append(Item(path: record.page.markdownPath, content: .pageMarkdown(recordIndex: index))) }
        }
        let staticPaths = Set(source.staticFiles.map(\.contentPath))
        for node in site.navigation.generatedSections {
            let path = (site.navigation.nodes[node].urlPath ?? "") + "index.html"
            // A file of the site's own at that path is served instead.
            guard !staticPaths.contains(path) else { continue }
            items.append(Item(path: path, content: .section(node: node)))
        }
        for definition in definitions {
            items.append(Item(path: languages.termPath(definition.key) + "index.html", content: .term(definition.key)))
        }
        // Each language's A–Z index (one page, or an overview and its letter pages), terms JSON and dictionary page, in
        // its folder.
        var termIndexes: [String: TermIndexPages] = [:]
        for code in languages.codes {
            let termIndex = TermIndexPages(
                Self.definitions(definitions, of: code, in: languages), folder: languages.termsFolder(code), limit: site.config.termsPerPage)
            termIndexes[code] = termIndex
            items.append(Item(path: termIndex.indexPath, content: .index(language: code)))
            for (page, letterPage) in termIndex.pages.enumerated() {
                items.append(Item(path: letterPage.urlPath + "index.html", content: .indexPage(language: code, page)))
            }
            for file in TermsJSON.files(
                Self.definitions(definitions, of: code, in: languages), folder: languages.termsFolder(code), site: site, limits: termShards, jobs: jobs)
            {
                items.append(Item(path: file.path, content: .planned(file.data)))
            }
        }
        // The term API serves the default language's terms.
        for file in TermAPI.files(
            site: site, definitions: Self.definitions(definitions, of: site.config.language, in: languages), limits: termShards, jobs: jobs)
        {
            items.append(Item(path: file.path, content: .planned(file.data)))
        }
        for code in languages.codes {
            items.append(Item(path: languages.folder(code) + "search/index.html", content: .search(language: code)))
        }
        // One search index per language, in its folder.
        for language in languages.codes {
            guard let searchDocuments else { break }
            let index = SearchIndex(documents: searchDocuments(definitions, language), folder: languages.folder(language), sizes: searchShards, jobs: jobs)
            for (path, text) in index.files.sorted(by: { $0.key < $1.key }) { items.append(Item(path: path, content: .planned(Data(text.utf8)))) }
        }
        items.append(Item(path: "404.html", content: .notFound))
        // TBX needs at least one entry: a glossary without terms has no TBX file.
        for kind in [SiteExport.json, .csv, .tbx] where kind != .tbx || !definitions.isEmpty {
            items.append(Item(path: kind.path, content: .export(kind)))
        }

        // The parts of a sitemap index are glossary's unless the site has a sitemap.xml of its own.
        if !staticPaths.contains(SiteExport.sitemap.path) {
            let count = Sitemap.count(site: site, definitions: definitions, termIndexes: termIndexes)
            for path in Sitemap.paths(count: count, limit: sitemapLimit).dropFirst() { items.append(Item(path: path, content: .export(.sitemap))) }
        }
        var taken = Set(items.map(\.path))
        // A content file may replace a theme asset (that is how a site overrides one), never a generated file.
        for file in source.staticFiles {
            // Reported while loading (`Load.isReservedStaticPath`), and never copied.
            if Load.isReservedStaticPath(file.contentPath, languages: languages) { continue }
            if taken.contains(file.contentPath) {
                diagnostics.append(Diagnostic(.reservedFile(path: file.contentPath), at: .start(of: file.displayPath)))
                continue
            }
            guard let hash = fileHash(file.path) else { continue }
            taken.insert(file.contentPath)
            items.append(Item(path: file.contentPath, content: .file(file.url, hash)))
        }
        // The site's own robots.txt, sitemap.xml or llms files (copied above) are used instead of glossary's.
        for kind in SiteExport.allCases where kind.yieldsToContent && !taken.contains(kind.path) {
            if kind.isForLanguageModels && site.config.llms == .off { continue }
            taken.insert(kind.path)
            items.append(Item(path: kind.path, content: .export(kind)))
        }
        // The script and stylesheet other sites include (README, "Use your glossary from another docs site") are
        // served at the root.
        for (path, asset) in [("embed.css", "embed.css"), ("embed.js", "js/embed.js")] where !taken.contains(path) {
            switch theme.assets[asset] {
            case .data(let data):
                items.append(Item(path: path, content: .data(data)))
            case .file(let url):
                if let hash = fileHash(url.path) { items.append(Item(path: path, content: .file(url, hash))) }
            case nil:
                continue
            }
        }
        for (asset, source) in theme.assets.sorted(by: { $0.key < $1.key }) where !taken.contains("assets/" + asset) {
            switch source {
            case .data(let data):
                items.append(Item(path: "assets/" + asset, content: .data(data)))
            case .file(let url):
                guard let hash = fileHash(url.path) else { continue }
                items.append(Item(path: "assets/" + asset, content: .file(url, hash)))
            }
        }
        return (
            OutputPlan(items: items, paths: Set(items.map(\.path)), definitions: definitions, termIndexes: termIndexes, sitemapLimit: sitemapLimit), diagnostics
        )
    }
}
