import Foundation

/// Everything known about a site once definitions are resolved: what each reference points to, which terms
/// get pages, who uses them. Planning, rendering, `glossary check` and the preview server read it.
public struct BuiltSite: Sendable {
    public var config: SiteConfig
    /// Every published markdown file's record (pages and glossary entries), in path order.
    public var pages: [PageRecord]
    public var team: [TermKey: TermDefinition]
    public var resolutions: [TermKey: Resolution]
    /// Every reference by key, in page order: places in `pages` as built (a copy whose pages are replaced, as a check
    /// of an edited file makes, must not read them).
    public var usage: [TermKey: [TermUse]]
    /// Referenced keys that stand for a base form's term (`keyboards` → keyboard): they link to its page.
    public let forms: [TermKey: TermKey]
    /// Words the team defines in several senses (and not without one), by the word's key, senses in order.
    public let senses: [TermKey: [TermDefinition]]

    /// Terms that get a page: every team entry and every referenced term with a definition, by canonical key.
    public let termPages: [TermKey: TermDefinition]
    /// The team's concepts (`concept:`): by concept, each language's term of it (by key language), the first entry in
    /// key order where a language has several.
    public let concepts: [String: [String: TermDefinition]]
    /// The forms used of each term, by the term's key, in key order.
    public let formsUsed: [TermKey: [TermKey]]
    public let links: LinkRewriter
    /// The sections and pages every content page's sidebar, breadcrumbs and previous/next links show.
    public let navigation: SiteNavigation
    /// The site's root path with a trailing slash (`/`, `/docs/`), as base_url names it once decoded (`/my docs/`).
    public var rootPath: String { links.rootPath }
    /// The term wrappers of this site's pages, made once each.
    let wrapperCache = TermMarkup.Cache()

    /// - Parameters:
    ///   - unpublished: paths below `content/` of markdown files left out (drafts), which `nav:` may name.
    ///   - navigation: the site's navigation, when the caller made it already (`navigation(config:pages:unpublished:)`).
    public init(
        config: SiteConfig, pages: [PageRecord], team: [TermKey: TermDefinition], resolutions: [TermKey: Resolution], usage: [TermKey: [TermUse]],
        forms: [TermKey: TermKey] = [:], unpublished: Set<String> = [], senses: [TermKey: [TermDefinition]] = [:], navigation: SiteNavigation? = nil
    ) {
        let contentPages = pages.filter { $0.page.kind == .page }
        self.senses = senses
        self.config = config
        self.pages = pages
        self.team = team
        self.resolutions = resolutions
        self.usage = usage
        self.forms = forms
        var termPages: [TermKey: TermDefinition] = [:]
        for definition in team.values { termPages[definition.key] = definition }
        for case .defined(let definition) in resolutions.values { termPages[definition.key] = definition }
        self.termPages = termPages
        var concepts: [String: [String: TermDefinition]] = [:]
        for definition in termPages.values.sorted(by: { $0.key < $1.key }) {
            guard case .team(let index) = definition.origin, let concept = pages[index].page.metadata.concept else { continue }
            if concepts[concept]?[definition.key.language] == nil { concepts[concept, default: [:]][definition.key.language] = definition }
        }
        self.concepts = concepts
        var formsUsed: [TermKey: Set<TermKey>] = [:]
        for (form, _) in forms where usage[form] != nil {
            if case .defined(let definition) = resolutions[form] { formsUsed[definition.key, default: []].insert(form) }
        }
        // Auto-linking keys an occurrence by its term and keeps the spelling it found: an inflected one is a form.
        // The same few spellings recur on every page: each is made a key once.
        var keys: [String: TermKey?] = [:]
        for (key, uses) in usage {
            let found: TermDefinition?
            if case .defined(let definition) = resolutions[key] { found = definition } else { found = team[key] }
            guard let definition = found else { continue }
            for use in uses {
                let reference = pages[use.pageIndex].reference(at: use.referenceIndex)
                guard reference.isAutomatic && reference.word != key.rawValue else { continue }
                let word = reference.word
                if keys[word] == nil { keys[word] = .some(TermKey(word)) }
                guard let written = (keys[word] ?? nil)?.inLanguage(key.language), written != key, written != definition.key,
                    !definition.aliases.contains(written)
                else { continue }
                formsUsed[definition.key, default: []].insert(written)
            }
        }
        self.formsUsed = formsUsed.mapValues { $0.sorted() }
        links = LinkRewriter(rootPath: LinkRewriter.rootPath(baseURL: config.baseURL), pages: contentPages.map { ($0.page.contentPath, $0.page.urlPath) })
        self.navigation = navigation ?? SiteNavigation(pages: contentPages, nav: config.nav, unpublished: unpublished)
    }

    /// The site's navigation: it needs only the pages, so a build makes it beside collecting terms.
    static func navigation(config: SiteConfig, pages: [PageRecord], unpublished: Set<String>) async -> SiteNavigation {
        SiteNavigation(pages: pages.filter { $0.page.kind == .page }, nav: config.nav, unpublished: unpublished)
    }

    /// The concept a team entry's term names, if it names one.
    public func concept(of definition: TermDefinition) -> String? {
        guard case .team(let index) = definition.origin else { return nil }
        return pages[index].page.metadata.concept
    }

    /// The term of `definition`'s concept in the language `code`, if the glossary has one (itself in its own).
    public func conceptTerm(of definition: TermDefinition, in code: String) -> TermDefinition? {
        guard let concept = concept(of: definition) else { return nil }
        return concepts[concept]?[config.siteLanguages.keyLanguage(code)]
    }

    public func definition(for key: TermKey) -> TermDefinition? {
        if case .defined(let definition) = resolutions[key] { return definition }
        return team[key]
    }

    /// The href of `path` below the site's root, named as its files are (`C#/intro/`): `/docs/C%23/intro/`. Every
    /// link the site's pages make to the site goes through here, so each is percent-encoded once (`URLPath`).
    public func href(_ path: String) -> String { URLPath.encoded(rootPath + path) }

    public func termURL(_ definition: TermDefinition) -> String { href(config.siteLanguages.termPath(definition.key)) }

    /// The root the term links of a page of `language` (a key language) are made below: its language's folder.
    func termRoot(_ language: String) -> String {
        rootPath + config.siteLanguages.folder(ofKey: language)
    }

    /// Written references without a definition (an automatic one without a definition is left as text).
    public var unresolvedReferences: [TermReference] {
        usage.flatMap { key, uses in definition(for: key) == nil ? uses.map(reference).filter { !$0.isAutomatic } : [] }
    }

    /// Bare written references to a word of several senses: `ambiguous-term`, naming the senses.
    func ambiguityDiagnostics() -> [Diagnostic] {
        senses.keys.sorted().flatMap { key in (usage[key] ?? []).compactMap { ambiguityDiagnostic(reference($0)) } }
    }

    /// The reference a use stands for.
    func reference(_ use: TermUse) -> TermReference {
        pages[use.pageIndex].reference(at: use.referenceIndex)
    }

    /// `ambiguous-term` for a bare written reference to a word of several senses; nil for any other reference.
    func ambiguityDiagnostic(_ reference: TermReference) -> Diagnostic? {
        guard !reference.isAutomatic, let definitions = senses[reference.key] else { return nil }
        return Diagnostic(.ambiguousTerm(word: reference.word, senses: definitions.compactMap(\.sense)), at: reference.location)
    }

    /// Pages (not entries) that use a term by its key, an alias or a form, in page order without repeats.
    public func usedOn(_ definition: TermDefinition) -> [PageRecord] {
        usedOnIndexes(definition).map { pages[$0] }
    }

    /// `usedOn` as indexes into `pages`.
    func usedOnIndexes(_ definition: TermDefinition) -> [Int] {
        var indexes = Set<Int>()
        func add(_ key: TermKey) {
            guard let uses = usage[key] else { return }
            for use in uses { indexes.insert(use.pageIndex) }
        }
        add(definition.key)
        for alias in definition.aliases { add(alias) }
        for form in formsUsed[definition.key] ?? [] { add(form) }
        return indexes.sorted().filter { pages[$0].page.kind == .page }
    }

    /// The markup around a reference: a term link, or a marked span when the term has no definition.
    public func termWrapper(_ reference: TermReference) -> MarkdownDocument.Wrapper {
        TermMarkup.wrapper(
            key: reference.key, linked: definition(for: reference.key).map(TermMarkup.Target.init), rootPath: termRoot(reference.key.language),
            isAutomatic: reference.isAutomatic
        )
    }

    /// The wrappers of a page's references, index-aligned with them.
    func wrappers(_ record: PageRecord) -> [MarkdownDocument.Wrapper] {
        TermMarkup.wrappers(record.references, rootPath: termRoot(record.page.language), cache: wrapperCache) {
            definition(for: $0).map(TermMarkup.Target.init)
        }
    }

    /// A page's body HTML with its references linked (what `glossary render` prints), from its markdown tree.
    public func fragment(_ record: PageRecord, document: MarkdownDocument) -> String {
        document.renderHTML(wrappers: wrappers(record), destinations: links.destinations(record))
    }

    func unresolvedDiagnostics(offline: Bool) -> [Diagnostic] {
        unresolvedReferences.compactMap { unresolvedDiagnostic($0, offline: offline) }
    }

    /// `unknown-term` for a written reference without a definition, saying why; nil for any other reference.
    func unresolvedDiagnostic(_ reference: TermReference, offline: Bool) -> Diagnostic? {
        guard !reference.isAutomatic, definition(for: reference.key) == nil else { return nil }
        var reason = Problem.UnknownTermReason.notFound
        switch resolutions[reference.key] ?? .unavailable {
        case .unavailable: reason = offline ? .offline : .unreachable
        case .unusable: reason = .unusableAnswer
        case .notFound, .defined: break
        }
        return Diagnostic(.unknownTerm(word: reference.word, reason: reason), at: reference.location)
    }

    func seeAlsoDiagnostics() -> [Diagnostic] {
        pages.filter { $0.page.kind == .glossaryEntry }.flatMap(seeAlsoDiagnostics(of:))
    }

    /// A glossary entry's `see_also` words that name no term.
    func seeAlsoDiagnostics(of record: PageRecord) -> [Diagnostic] {
        let metadata = record.page.metadata
        return metadata.seeAlso.compactMap { word in
            guard !SeeAlso.isLink(word), let key = TermKey(word)?.inLanguage(record.page.language), definition(for: key) == nil else { return nil }
            let location = metadata.locations["see_also"] ?? .start(of: record.page.displayPath)
            return Diagnostic(.unknownSeeAlso(word: word), at: location)
        }
    }

    /// Internal links (site-absolute `/…`, relative, or to `.md` files) that lead to no file of the site, and links
    /// whose `#fragment` names no heading of the content page they lead to (`#x` alone: of the page it is on).
    public func brokenLinkDiagnostics(paths: Set<String>, jobs: Int = 1) -> [Diagnostic] {
        let pagesByOutput = pagesByOutput()
        // Pages with links, in page order, checked on every core (each page's links alone).
        let linking = pages.filter { !$0.links.isEmpty }
        return linking.parallelMap(jobs: jobs) { brokenLinkDiagnostics(of: $0, paths: paths, pagesByOutput: pagesByOutput) }.flatMap { $0 }
    }

    /// Content pages by their output path: where links' `#fragment`s are looked up.
    func pagesByOutput() -> [String: PageRecord] {
        var byOutput: [String: PageRecord] = [:]
        byOutput.reserveCapacity(pages.count)
        for record in pages where record.page.kind == .page { byOutput[record.page.outputPath] = record }
        return byOutput
    }

    func brokenLinkDiagnostics(of record: PageRecord, paths: Set<String>, pagesByOutput: [String: PageRecord]) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for link in record.links {
            guard let fragment = Self.fragment(of: link.destination) else {
                if let target = links.internalTarget(link.destination, from: record.page), !Self.output(of: target, in: paths).found {
                    diagnostics.append(Diagnostic(.brokenLink(destination: link.destination), at: link.location))
                }
                continue
            }
            let target: PageRecord?
            let shown: String
            if link.destination.hasPrefix("#") {
                (target, shown) = (record.page.kind == .page ? record : nil, "this page")
            } else if let path = links.internalTarget(link.destination, from: record.page) {
                let output = Self.output(of: path, in: paths)
                guard output.found else {
                    diagnostics.append(Diagnostic(.brokenLink(destination: link.destination), at: link.location))
                    continue
                }
                target = output.path.flatMap { pagesByOutput[$0] }
                shown = target.map { "/" + $0.page.urlPath } ?? ""
            } else {
                continue
            }
            // Only content pages' ids are known; links into generated pages and files are left alone.
            guard let target, !fragment.isEmpty, !HeadingAnchors.reserved.contains(fragment),
                !target.headings.contains(where: { $0.id == fragment })
            else { continue }
            diagnostics.append(Diagnostic(.brokenAnchor(destination: link.destination, fragment: fragment, page: shown), at: link.location))
        }
        return diagnostics
    }

    /// The output a link's target path is served from (the file, or the folder's `index.html`), if there is one.
    static func output(of target: String, in paths: Set<String>) -> (found: Bool, path: String?) {
        let candidates = target.isEmpty ? ["index.html"] : [target, target + (target.hasSuffix("/") ? "" : "/") + "index.html"]
        let path = candidates.first(where: paths.contains)
        return (path != nil, path)
    }

    /// The `#fragment` of a destination, percent-decoded (nil without one).
    static func fragment(of destination: String) -> String? {
        // On UTF-8 bytes, not Characters: every link of every page comes here.
        guard let hash = destination.utf8.firstIndex(of: UInt8(ascii: "#")) else { return nil }
        let fragment = String(destination[destination.utf8.index(after: hash)...])
        return fragment.removingPercentEncoding ?? fragment
    }
}
