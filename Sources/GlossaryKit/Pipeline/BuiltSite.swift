import Foundation

/// Everything known about a site once definitions are resolved: what each reference points to, which terms
/// get pages, who uses them. Planning, rendering, `glossary check` and the preview server read it.
public struct BuiltSite: Sendable {
    public var config: SiteConfig
    /// Every published markdown file's record (pages and glossary entries), in path order.
    public var pages: [PageRecord]
    public var team: [TermKey: TermDefinition]
    public var resolutions: [TermKey: Resolution]
    public var usage: [TermKey: [TermUse]]
    /// Referenced keys that stand for a base form's term (`keyboards` → keyboard): they link to its page.
    public let forms: [TermKey: TermKey]
    /// Words the team defines in several senses (and not without one), by the word's key, senses in order.
    public let senses: [TermKey: [TermDefinition]]

    /// Terms that get a page: every team entry and every referenced term with a definition, by canonical key.
    public let termPages: [TermKey: TermDefinition]
    /// The forms used of each term, by the term's key, in key order.
    public let formsUsed: [TermKey: [TermKey]]
    public let links: LinkRewriter
    /// The site's root path with a trailing slash (`/`, `/docs/`).
    public var rootPath: String { links.rootPath }

    public init(
        config: SiteConfig, pages: [PageRecord], team: [TermKey: TermDefinition], resolutions: [TermKey: Resolution], usage: [TermKey: [TermUse]],
        forms: [TermKey: TermKey] = [:], senses: [TermKey: [TermDefinition]] = [:]
    ) {
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
        var formsUsed: [TermKey: [TermKey]] = [:]
        for (form, _) in forms.sorted(by: { $0.key < $1.key }) where usage[form] != nil {
            if case .defined(let definition) = resolutions[form] { formsUsed[definition.key, default: []].append(form) }
        }
        self.formsUsed = formsUsed
        links = LinkRewriter(
            rootPath: LinkRewriter.rootPath(baseURL: config.baseURL),
            pages: pages.filter { $0.page.kind == .page }.map { ($0.page.contentPath, $0.page.urlPath) })
    }

    public func definition(for key: TermKey) -> TermDefinition? {
        if case .defined(let definition) = resolutions[key] { return definition }
        return team[key]
    }

    public func termURL(_ definition: TermDefinition) -> String { "\(rootPath)terms/\(definition.slug)/" }

    /// Written references without a definition (an automatic one without a definition is left as text).
    public var unresolvedReferences: [TermReference] {
        usage.flatMap { key, uses in definition(for: key) == nil ? uses.map(\.reference).filter { !$0.isAutomatic } : [] }
    }

    /// Bare written references to a word of several senses: `ambiguous-term`, naming the senses.
    func ambiguityDiagnostics() -> [Diagnostic] {
        senses.sorted { $0.key < $1.key }.flatMap { key, definitions in
            (usage[key] ?? []).map(\.reference).filter { !$0.isAutomatic }.map { reference in
                Diagnostic(.ambiguousTerm(word: reference.word, senses: definitions.compactMap(\.sense)), at: reference.location)
            }
        }
    }

    /// Pages (not entries) that use a term by its key, an alias or a form, in page order without repeats.
    public func usedOn(_ definition: TermDefinition) -> [PageRecord] {
        let keys = [definition.key] + definition.aliases + (formsUsed[definition.key] ?? [])
        let indexes = Set(keys.flatMap { usage[$0] ?? [] }.map(\.pageIndex))
        return indexes.sorted().map { pages[$0] }.filter { $0.page.kind == .page }
    }

    /// The markup around a reference: a term link, or a marked span when the term has no definition.
    public func termWrapper(_ reference: TermReference) -> MarkdownDocument.Wrapper {
        TermMarkup.wrapper(key: reference.key, linkedSlug: definition(for: reference.key)?.slug, rootPath: rootPath, isAutomatic: reference.isAutomatic)
    }

    /// The wrappers of a page's references, index-aligned with them.
    func wrappers(_ record: PageRecord) -> [MarkdownDocument.Wrapper] {
        record.references.map(termWrapper)
    }

    /// A page's body HTML with its references linked (what `glossary render` prints), from its markdown tree.
    public func fragment(_ record: PageRecord, document: MarkdownDocument) -> String {
        document.renderHTML(wrappers: wrappers(record), destinations: links.destinations(record))
    }

    func unresolvedDiagnostics(offline: Bool) -> [Diagnostic] {
        unresolvedReferences.map { reference in
            var reason = Problem.UnknownTermReason.notFound
            switch resolutions[reference.key] ?? .unavailable {
            case .unavailable: reason = offline ? .offline : .unreachable
            case .unusable: reason = .unusableAnswer
            case .notFound, .defined: break
            }
            return Diagnostic(.unknownTerm(word: reference.word, reason: reason), at: reference.location)
        }
    }

    func seeAlsoDiagnostics() -> [Diagnostic] {
        pages.filter { $0.page.kind == .glossaryEntry }.flatMap { record -> [Diagnostic] in
            let metadata = record.page.metadata
            return metadata.seeAlso.compactMap { word in
                guard !SeeAlso.isLink(word), let key = TermKey(word), definition(for: key) == nil else { return nil }
                let location = metadata.locations["see_also"] ?? .start(of: record.page.displayPath)
                return Diagnostic(.unknownSeeAlso(word: word), at: location)
            }
        }
    }

    /// Internal links (site-absolute `/…`, relative, or to `.md` files) that lead to no file of the site.
    public func brokenLinkDiagnostics(paths: Set<String>) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for record in pages {
            for link in record.links {
                guard let target = links.internalTarget(link.destination, from: record.page) else { continue }
                let candidates = target.isEmpty ? ["index.html"] : [target, target + (target.hasSuffix("/") ? "" : "/") + "index.html"]
                if !candidates.contains(where: paths.contains) {
                    diagnostics.append(Diagnostic(.brokenLink(destination: link.destination), at: link.location))
                }
            }
        }
        return diagnostics
    }
}

/// A reference and the page it is on.
public struct TermUse: Sendable {
    public var pageIndex: Int
    public var reference: TermReference
}
