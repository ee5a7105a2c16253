import Foundation

/// Builds a site: load content → collect terms → resolve definitions → render → (the caller) write.
///
/// Each stage is a function from values to values, so it can be tested alone; `build()` runs them in order,
/// times each, collects every problem, and stops before rendering when an error was found.
public struct SiteBuilder: Sendable {
    public var options: BuildOptions
    /// Called once the configuration is read, so the client follows `glossary.yml` (never when offline).
    public var makeFetcher: FetcherFactory?
    public var progress: @Sendable (FetchProgress) -> Void
    /// Results of earlier builds to reuse (the preview server's incremental rebuilds); nil for a plain build.
    public var memo: BuildMemo?

    public init(options: BuildOptions, fetcher: (any DefinitionFetcher)? = nil, progress: @escaping @Sendable (FetchProgress) -> Void = { _ in }) {
        self.options = options
        self.makeFetcher = Self.constant(fetcher)
        self.progress = progress
    }

    /// A factory that always gives `fetcher` (nil for none).
    public static func constant(_ fetcher: (any DefinitionFetcher)?) -> FetcherFactory? {
        guard let fetcher else { return nil }
        return { @Sendable _ in fetcher }
    }

    public init(options: BuildOptions, makeFetcher: FetcherFactory?, progress: @escaping @Sendable (FetchProgress) -> Void = { _ in }) {
        self.options = options
        self.makeFetcher = makeFetcher
        self.progress = progress
    }

    public func build() async -> BuildResult {
        let started = Date()
        var log = DiagnosticLog()
        var stats = BuildStats()
        func timed<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
            let start = Date()
            defer { stats.stageTimes.append((name, Date().timeIntervalSince(start))) }
            return try body()
        }
        func finish(output: SiteOutput?, config: SiteConfig?, site: BuiltSite?, unreachable: Bool = false) -> BuildResult {
            stats.totalSeconds = Date().timeIntervalSince(started)
            let sorted = log.all.enumerated().sorted { lhs, rhs in
                switch (lhs.element.location, rhs.element.location) {
                case let (l?, r?) where l != r: return l < r
                case (nil, _?): return false
                case (_?, nil): return true
                default: return lhs.offset < rhs.offset
                }
            }.map(\.element)
            return BuildResult(diagnostics: sorted, output: log.hasErrors ? nil : output, stats: stats, apiUnreachable: unreachable, config: config, site: site)
        }

        // Load.
        let (source, scanProblems) = timed("scan") { SiteSource.scan(root: options.source) }
        log.add(contentsOf: scanProblems)
        guard let configText = source.configText else { return finish(output: nil, config: nil, site: nil) }
        var (config, configProblems) = SiteConfig.load(yaml: configText, file: "glossary.yml")
        log.add(contentsOf: configProblems)
        if let baseURL = options.baseURL { config.baseURL = baseURL.hasSuffix("/") ? baseURL : baseURL + "/" }
        if let apiURL = options.apiURL { config.dictionary.api = apiURL }
        let (theme, themeProblems) = timed("theme") { Theme.load(name: config.theme, siteRoot: options.source, location: config.locations["theme"], displayPath: displayPath) }
        log.add(contentsOf: themeProblems)
        let (pages, pageProblems) = timed("parse") { Self.loadPages(source, drafts: options.drafts, jobs: options.jobs, memo: memo) }
        log.add(contentsOf: pageProblems)

        // Collect terms.
        let (team, teamProblems) = Self.teamDefinitions(pages)
        log.add(contentsOf: teamProblems)
        let usage = Self.collectReferences(pages)

        // Resolve definitions.
        let resolver = DefinitionResolver(
            cache: DefinitionCache(directory: options.source.appendingPathComponent(config.dictionary.cache, isDirectory: true)),
            fetcher: options.offline ? nil : makeFetcher?(config),
            options: .init(language: config.language, offline: options.offline, refresh: options.refresh, maxAgeDays: config.dictionary.maxAgeDays),
            displayPath: { [root = options.source] url in Self.relativePath(url, root: root) })
        let resolveStart = Date()
        let seeAlso = team.values.flatMap(\.seeAlso).compactMap(TermKey.init)
        let resolved = await resolveTerms(resolver, Array(usage.keys) + team.values.map(\.key) + seeAlso, team: team)
        stats.stageTimes.append(("resolve", Date().timeIntervalSince(resolveStart)))
        log.add(contentsOf: resolved.diagnostics)
        stats.local = resolved.local
        stats.cached = resolved.cached
        stats.fetched = resolved.fetched

        let site = BuiltSite(config: config, pages: pages, team: team, resolutions: resolved.resolutions, usage: usage)
        log.add(contentsOf: site.unresolvedDiagnostics(offline: options.offline))
        log.add(contentsOf: site.seeAlsoDiagnostics())
        stats.pages = pages.filter { $0.page.kind == .page }.count
        stats.terms = site.termPages.count
        stats.unresolved = Set(site.unresolvedReferences.map(\.key)).count
        guard let theme, !log.hasErrors else { return finish(output: nil, config: config, site: site, unreachable: resolved.apiUnreachable) }

        // Render.
        var renderer = SiteRenderer(site: site, theme: theme, source: source, jobs: options.jobs, bodySuffix: options.bodySuffix)
        renderer.memo = memo
        let (output, renderProblems) = timed("render") { renderer.render() }
        log.add(contentsOf: renderProblems)
        log.add(contentsOf: site.brokenLinkDiagnostics(output: output))
        stats.files = output.paths.count
        return finish(output: output, config: config, site: site, unreachable: resolved.apiUnreachable)
    }

    /// Builds and, when there are no errors, writes the site atomically to the output folder.
    ///
    /// Builds of one site take turns (`BuildLock`): `waiting` hears when this one waits for another.
    public func buildAndWrite(waiting: (Int32?) -> Void = { _ in }) async -> BuildResult {
        if let problem = outputFolderProblem() {
            return BuildResult(diagnostics: [problem], output: nil, stats: BuildStats())
        }
        let lock: BuildLock?
        do {
            lock = try BuildLock(folder: options.source.appendingPathComponent(".glossary/build", isDirectory: true), wait: options.waitForOtherBuilds, waiting: waiting)
        } catch .busy(let holder) {
            return BuildResult(diagnostics: [Diagnostic(.buildLocked(holder: holder))], output: nil, stats: BuildStats())
        } catch {
            // A source folder we can't write to (a read-only checkout) still builds, unserialised.
            lock = nil
        }
        defer { withExtendedLifetime(lock) {} }
        var result = await build()
        if options.strict && !result.warnings.isEmpty { result.output = nil }
        guard let output = result.output else { return result }
        let start = Date()
        let shownOutput = Self.relativePath(options.outputDirectory, root: options.source)
        do {
            let kept = try SiteWriter(output: options.outputDirectory).write(output)
            for (folder, names) in kept {
                result.diagnostics.append(Diagnostic(.dotfilesKept(folder: Self.relativePath(folder, root: options.source), names: names), subject: shownOutput))
            }
        } catch {
            result.diagnostics.append(Diagnostic(.writeFailed(reason: error.description), subject: shownOutput))
            result.output = nil
        }
        result.stats.stageTimes.append(("write", Date().timeIntervalSince(start)))
        result.stats.totalSeconds += Date().timeIntervalSince(start)
        return result
    }

    /// Why the output folder must not be written, if it mustn't: the swap replaces the folder whole, so an
    /// output that is the site itself, holds it, or lies inside its sources would delete the user's files.
    func outputFolderProblem() -> Diagnostic? {
        func real(_ url: URL) -> String {
            var path = url.standardizedFileURL.path
            var missing: [String] = []
            // Resolve symlinks through the part of the path that exists (the output may not exist yet).
            while !FileManager.default.fileExists(atPath: path), path != "/" {
                missing.insert((path as NSString).lastPathComponent, at: 0)
                path = (path as NSString).deletingLastPathComponent
            }
            let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            return ([resolved == "/" ? "" : resolved] + missing).joined(separator: "/")
        }
        let output = real(options.outputDirectory)
        let source = real(options.source)
        let protected = ["content", "themes", ".glossary"].map { source + "/" + $0 } + ["glossary.yml"].map { source + "/" + $0 }
        let inside = { (path: String, folder: String) in path == folder || path.hasPrefix(folder + "/") }
        guard inside(source, output) || protected.contains(where: { inside(output, $0) }) else { return nil }
        return Diagnostic(.outputPath, subject: options.outputDirectory.path)
    }

    private func displayPath(_ url: URL) -> String { Self.relativePath(url, root: options.source) }

    /// `url` relative to `root` when it lies below it (how paths appear in diagnostics), else its full path.
    public static func relativePath(_ url: URL, root: URL) -> String {
        let path = url.standardizedFileURL.path
        let rootPath = root.standardizedFileURL.path
        let prefix = rootPath.hasSuffix("/") ? rootPath : rootPath + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}

/// A markdown file after parsing: its page, front matter and markdown tree.
public struct ParsedPage: Sendable {
    public var page: Page
    public var document: MarkdownDocument
    /// Terms the front matter's `terms:` declares, as references at their front-matter location.
    public var declaredTerms: [TermReference]

    public var allReferences: [TermReference] { document.references + declaredTerms }
}

extension SiteBuilder {
    /// Stage: read and parse every markdown file (in parallel); drafts are left out unless asked for.
    public static func loadPages(_ source: SiteSource, drafts: Bool, jobs: Int, memo: BuildMemo? = nil) -> ([ParsedPage], [Diagnostic]) {
        let results: [(ParsedPage?, [Diagnostic])] = source.markdownFiles.parallelMap(jobs: jobs) { file in
            if let memo { return memo.parsedPage(file, drafts: drafts, read: source.read) { parsePage(text: $0, file: file, drafts: drafts) } }
            switch source.read(file) {
            case .failure(let diagnostic):
                return (nil, [diagnostic])
            case .success(let text):
                return parsePage(text: text, file: file, drafts: drafts)
            }
        }
        var pages: [ParsedPage] = []
        var diagnostics: [Diagnostic] = []
        var owners: [String: Page] = [:]
        for (page, problems) in results {
            diagnostics += problems
            guard let page else { continue }
            if page.page.kind == .page {
                if let owner = owners[page.page.urlPath] {
                    diagnostics.append(
                        Diagnostic(
                            .duplicatePage(url: page.page.urlPath, other: owner.displayPath), at: .start(of: page.page.displayPath),
                            notes: [Problem.otherPageNote(at: .start(of: owner.displayPath))]))
                    continue
                }
                if let reserved = ["terms/", "search/", "assets/", "_glossary/"].first(where: { page.page.urlPath.hasPrefix($0) }) {
                    diagnostics.append(Diagnostic(.reservedPage(prefix: reserved), at: .start(of: page.page.displayPath)))
                    continue
                }
                owners[page.page.urlPath] = page.page
            }
            pages.append(page)
        }
        return (pages, diagnostics)
    }

    /// Stage (pure): one markdown file's text → its parsed page, or nil for a skipped draft.
    public static func parsePage(text: String, file: SiteSource.File, drafts: Bool) -> (ParsedPage?, [Diagnostic]) {
        let parsed = PageMetadata.parse(source: text, file: file.displayPath)
        var diagnostics = parsed.diagnostics
        if diagnostics.contains(where: { $0.severity == .error }) { return (nil, diagnostics) }
        if parsed.metadata.draft && !drafts { return (nil, diagnostics) }
        let isEntry = file.contentPath.hasPrefix("glossary/")
        let page = Page(
            kind: isEntry ? .glossaryEntry : .page, displayPath: file.displayPath, contentPath: file.contentPath,
            urlPath: Page.urlPath(forContentPath: file.contentPath), metadata: parsed.metadata, body: parsed.body,
            bodyFirstLine: parsed.bodyFirstLine)
        let document = MarkdownDocument(markdown: parsed.body, file: file.displayPath, firstLine: parsed.bodyFirstLine)
        diagnostics += document.diagnostics
        let termsLocation = parsed.metadata.locations["terms"] ?? SourceLocation(file: file.displayPath, line: 1, column: 1)
        let declared = parsed.metadata.terms.compactMap { word in
            TermKey(word).map { TermReference(shown: word, word: word, key: $0, location: termsLocation) }
        }
        if isEntry && parsed.metadata.term == nil {
            diagnostics.append(Diagnostic(.entryMissingTerm, at: .start(of: file.displayPath)))
        }
        return (ParsedPage(page: page, document: document, declaredTerms: declared), diagnostics)
    }

    /// Stage (pure): the team's entries by key and by each alias.
    public static func teamDefinitions(_ pages: [ParsedPage]) -> ([TermKey: TermDefinition], [Diagnostic]) {
        var team: [TermKey: TermDefinition] = [:]
        var owners: [TermKey: SourceLocation] = [:]
        var diagnostics: [Diagnostic] = []
        for (index, parsed) in pages.enumerated() where parsed.page.kind == .glossaryEntry {
            let metadata = parsed.page.metadata
            guard let word = metadata.term, let key = TermKey(word) else { continue }
            let summary = parsed.document.firstParagraphText() ?? ""
            let entry = DictionaryEntry(
                word: word, phonetic: metadata.phonetic,
                phonetics: metadata.phonetic.map { [DictionaryEntry.Phonetic(text: $0)] } ?? [],
                meanings: [.init(partOfSpeech: metadata.partOfSpeech ?? "", definitions: [.init(definition: summary)], synonyms: metadata.synonyms, antonyms: metadata.antonyms)])
            let aliases = metadata.aliases.compactMap(TermKey.init)
            let definition = TermDefinition(key: key, word: word, entries: [entry], origin: .team(pageIndex: index), aliases: aliases, seeAlso: metadata.seeAlso)
            let fileStart = SourceLocation.start(of: parsed.page.displayPath)
            let names: [(TermKey, SourceLocation)] =
                [(key, metadata.locations["term"] ?? fileStart)]
                + metadata.aliases.enumerated().compactMap { index, alias in
                    TermKey(alias).map { ($0, metadata.locations["aliases[\(index)]"] ?? metadata.locations["aliases"] ?? fileStart) }
                }
            for (name, location) in names {
                if let owner = owners[name] {
                    diagnostics.append(Diagnostic(.duplicateTerm(name: name.rawValue), at: location, notes: [Problem.firstDefinitionNote(name.rawValue, at: owner)]))
                    continue
                }
                owners[name] = location
                team[name] = definition
            }
        }
        return (team, diagnostics)
    }

    /// Stage (pure): every reference by key, in page order.
    public static func collectReferences(_ pages: [ParsedPage]) -> [TermKey: [TermUse]] {
        var usage: [TermKey: [TermUse]] = [:]
        for (index, parsed) in pages.enumerated() {
            for reference in parsed.allReferences {
                usage[reference.key, default: []].append(TermUse(pageIndex: index, reference: reference))
            }
        }
        return usage
    }
}

/// A reference and the page it is on.
public struct TermUse: Sendable {
    public var pageIndex: Int
    public var reference: TermReference
}
