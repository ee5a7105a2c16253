import Foundation

/// A site's read state kept between edits (the language server's): the last check of its files on disk, and what
/// checking one file again from its unsaved text needs — the auto-linking its pages were read with, the files a build
/// would make, a resolver that asks the team's entries, the cache and WordNet, never the network.
public struct LiveSite: Sendable {
    /// The folder holding `glossary.yml`.
    public let root: URL
    /// What `glossary check --offline` says of the files on disk.
    public let result: BuildResult
    /// The check's site; nil when `glossary.yml` has errors.
    public var site: BuiltSite? { result.site }
    let builder: SiteBuilder
    let pagesByOutput: [String: PageRecord]
    /// Each published file's index in the site's pages, by its path below `content/`.
    let pageIndex: [String: Int]

    /// Checks the site at `root` offline.
    public static func check(root: URL, dictionaries: Dictionaries? = nil) async -> LiveSite {
        var options = BuildOptions(source: root)
        options.offline = true
        let builder = SiteBuilder(options: options, makeFetcher: nil, dictionaries: dictionaries)
        let result = await builder.check()
        return LiveSite(root: root, result: result, builder: builder)
    }

    init(root: URL, result: BuildResult, builder: SiteBuilder) {
        self.root = root
        self.result = result
        self.builder = builder
        pagesByOutput = result.site?.contentPagesByOutput ?? [:]
        var index: [String: Int] = [:]
        for (position, record) in (result.site?.pages ?? []).enumerated() { index[record.page.contentPath] = position }
        pageIndex = index
    }

    /// The WordNet and failed-fetch state this site's checks share (pass it to the next `check`).
    public var dictionaries: Dictionaries { builder.dictionaries }

    /// The published record of the file at `contentPath` (below `content/`), as the check read it from disk.
    public func record(contentPath: String) -> PageRecord? {
        pageIndex[contentPath].flatMap { site?.pages[$0] }
    }

    /// The deprecated and forbidden names written in `text` (a line of the file at `contentPath`) as the check of the
    /// file's language finds them, with their UTF-8 ranges in it: where `deprecated-term` and `forbidden-term` point,
    /// and the term to write instead.
    public func discouragedNames(in text: String, contentPath: String) -> [TermStatusCheck.Hit] {
        let language = (result.config ?? SiteConfig()).siteLanguages.keyLanguage(ofContentPath: contentPath)
        guard let check = result.autolink?.statuses[language] else { return [] }
        var text = text
        return text.withUTF8 { check.hits(inUTF8: $0, entry: nil) }
    }

    /// The file at `contentPath` read from `text` as a build reads it: its record (nil when it can't be published),
    /// and the problems that kept it from being read.
    public func parse(text: String, contentPath: String) -> (record: PageRecord?, problems: [Diagnostic]) {
        let file = SiteSource.File(
            displayPath: "content/" + contentPath, contentPath: contentPath, url: root.appendingPathComponent("content/" + contentPath))
        let (parsed, problems) = PageParser.parse(
            text: text, hash: Fingerprint.of(bytes: Data(text.utf8)), file: file, drafts: builder.options.drafts, autolink: result.autolink,
            languages: (result.config ?? SiteConfig()).siteLanguages)
        return (parsed?.record, problems)
    }

    /// Every problem a check of the site reports in the file at `contentPath` were its text `text`: the file's own
    /// problems, its references', its links', and for a glossary entry those of the site's terms it takes part in
    /// (a duplicate term, an alias another entry holds).
    public func diagnostics(text: String, contentPath: String) async -> [Diagnostic] {
        await check(text: text, contentPath: contentPath).diagnostics
    }

    /// `diagnostics(text:contentPath:)`, and the record the text was read as.
    public func check(text: String, contentPath: String) async -> (diagnostics: [Diagnostic], record: PageRecord?) {
        let (record, problems) = parse(text: text, contentPath: contentPath)
        return (await diagnostics(record: record, problems: problems, contentPath: contentPath), record)
    }

    func diagnostics(record: PageRecord?, problems: [Diagnostic], contentPath: String) async -> [Diagnostic] {
        guard let record, var site else { return problems }
        guard record.hasBody else { return DiagnosticLog.capped(SiteBuilder.ordered(problems + record.diagnostics)) }
        var extra: [Diagnostic] = []
        if record.page.kind == .glossaryEntry {
            // The site's terms as they would be with this entry: the same stage the build collects them with.
            var pages = site.pages
            if let index = pageIndex[contentPath] { pages[index] = record } else { pages.append(record) }
            let (team, _, termProblems) = SiteBuilder.teamDefinitions(pages)
            site.pages = pages
            site.team = team
            extra = termProblems.filter { $0.location?.file == record.page.displayPath }
        }
        site.resolutions.merge(await resolutions(for: record.allReferences.map(\.key), in: site)) { old, _ in old }
        let diagnostics = site.pageDiagnostics(record, paths: result.outputPaths, pagesByOutput: pagesByOutput, offline: true)
        return DiagnosticLog.capped(SiteBuilder.ordered(problems + extra + diagnostics))
    }

    /// Definitions of the keys the check never looked up: from the team's entries, the cache and WordNet, each in
    /// its language.
    func resolutions(for keys: [TermKey], in site: BuiltSite) async -> [TermKey: Resolution] {
        let missing = keys.uniqued().filter { site.resolutions[$0] == nil && site.team[$0] == nil }
        guard !missing.isEmpty else { return [:] }
        var outcome = DefinitionResolver.Outcome()
        for part in SiteBuilder.byLanguage(missing, team: site.team, config: site.config) where !part.keys.isEmpty {
            outcome.add(await resolver(part.config).resolve(part.keys, team: part.team), language: part.language)
        }
        return outcome.resolutions
    }

    /// The definition of `key` a check would find: the site's, else the team's entries', the cache's or WordNet's.
    public func definition(for key: TermKey) async -> TermDefinition? {
        guard let site else { return nil }
        if let definition = site.definition(for: key) { return definition }
        if case .defined(let definition) = await resolutions(for: [key], in: site)[key] { return definition }
        return nil
    }

    func resolver(_ config: SiteConfig) -> DefinitionResolver {
        let cache = DefinitionCache(directory: root.appendingPathComponent(config.dictionary.cache, isDirectory: true))
        let (wordNet, _) = builder.dictionaries.wordNet(for: config, needed: true)
        var resolver = builder.definitionResolver(config, cache: cache, wordNet: wordNet, providers: config.dictionary.providers)
        resolver.storesAnswers = false
        return resolver
    }

    /// The cache file of `key`'s definition.
    public func cacheFile(for key: TermKey) -> URL? {
        guard let config = site?.config else { return nil }
        return DefinitionCache(directory: root.appendingPathComponent(config.dictionary.cache, isDirectory: true)).fileURL(for: key, language: config.language)
    }

    /// The words the cache holds definitions of, with their definitions.
    public func cachedDefinitions() -> [TermDefinition] {
        guard let config = site?.config else { return [] }
        let cache = DefinitionCache(directory: root.appendingPathComponent(config.dictionary.cache, isDirectory: true))
        return CacheInventory.scan(cache).items.compactMap { item -> TermDefinition? in
            guard item.language == config.language, case .entry(let entry) = item.contents else { return nil }
            if case .defined(let definition) = DefinitionResolver.resolution(entry.key, entry, fetched: false, stale: false) { return definition }
            return nil
        }
    }
}
