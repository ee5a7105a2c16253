import Foundation

/// Everything known about a site once definitions are resolved: what each reference points to, which terms
/// get pages, who uses them. Rendering, `glossary check` and the preview server read it.
public struct BuiltSite: Sendable {
    public var config: SiteConfig
    public var pages: [ParsedPage]
    public var team: [TermKey: TermDefinition]
    public var resolutions: [TermKey: Resolution]
    public var usage: [TermKey: [TermUse]]

    /// Terms that get a page: every team entry and every referenced term with a definition, by canonical key.
    public let termPages: [TermKey: TermDefinition]
    /// Each content page's URL path by its path below `content/`, for resolving links (once, not per link).
    let pageURLs: [String: String]
    /// The URL paths of content pages.
    let pageURLPaths: Set<String>

    public init(config: SiteConfig, pages: [ParsedPage], team: [TermKey: TermDefinition], resolutions: [TermKey: Resolution], usage: [TermKey: [TermUse]]) {
        self.config = config
        self.pages = pages
        self.team = team
        self.resolutions = resolutions
        self.usage = usage
        var termPages: [TermKey: TermDefinition] = [:]
        for definition in team.values { termPages[definition.key] = definition }
        for case .defined(let definition) in resolutions.values { termPages[definition.key] = definition }
        self.termPages = termPages
        rootPath = Self.rootPath(baseURL: config.baseURL)
        let contentPages = pages.filter { $0.page.kind == .page }
        pageURLs = Dictionary(contentPages.map { ($0.page.contentPath, $0.page.urlPath) }, uniquingKeysWith: { first, _ in first })
        pageURLPaths = Set(contentPages.map(\.page.urlPath))
    }

    /// The site's root path with a trailing slash (`/`, `/docs/`), from `base_url` (a full URL keeps its path).
    public let rootPath: String

    static func rootPath(baseURL: String) -> String {
        var base = baseURL
        if let url = URL(string: base), url.scheme != nil { base = url.path.isEmpty ? "/" : url.path }
        if !base.hasPrefix("/") { base = "/" + base }
        return base.hasSuffix("/") ? base : base + "/"
    }

    public func definition(for key: TermKey) -> TermDefinition? {
        if case .defined(let definition) = resolutions[key] { return definition }
        return team[key]
    }

    public func termURL(_ definition: TermDefinition) -> String { "\(rootPath)terms/\(definition.slug)/" }

    public var unresolvedReferences: [TermReference] {
        usage.flatMap { key, uses in definition(for: key) == nil ? uses.map(\.reference) : [] }
    }

    /// Pages (not entries) that use each term, by canonical key, in page order without repeats.
    public func usedOn(_ definition: TermDefinition) -> [ParsedPage] {
        let keys = [definition.key] + definition.aliases
        let indexes = Set(keys.flatMap { usage[$0] ?? [] }.map(\.pageIndex))
        return indexes.sorted().map { pages[$0] }.filter { $0.page.kind == .page }
    }

    /// The markup around a reference: a term link, or a marked span when the term has no definition.
    public func termWrapper(_ reference: TermReference) -> MarkdownDocument.Wrapper {
        guard let definition = definition(for: reference.key) else {
            return .init(open: "<span class=\"term term-unknown\" data-term-unknown=\"\(HTML.escape(reference.key.rawValue))\" title=\"No definition found\">", close: "</span>")
        }
        return .init(open: "<a class=\"term\" href=\"\(HTML.escape(termURL(definition)))\" data-term=\"\(HTML.escape(definition.slug))\">", close: "</a>")
    }

    /// A page's body HTML with its references linked: what `glossary render` prints.
    public func fragment(_ parsed: ParsedPage) -> String {
        parsed.document.renderHTML(wrap: { _, reference in termWrapper(reference) }, rewriteURL: { rewrittenLink($0, from: parsed.page) })
    }

    func unresolvedDiagnostics(offline: Bool) -> [Diagnostic] {
        unresolvedReferences.map { reference in
            var reason = Problem.UnknownTermReason.notFound
            if case .unavailable = resolutions[reference.key] ?? .unavailable { reason = offline ? .offline : .unreachable }
            return Diagnostic(.unknownTerm(word: reference.word, reason: reason), at: reference.location)
        }
    }

    func seeAlsoDiagnostics() -> [Diagnostic] {
        pages.filter { $0.page.kind == .glossaryEntry }.flatMap { parsed -> [Diagnostic] in
            let metadata = parsed.page.metadata
            return metadata.seeAlso.compactMap { word in
                guard let key = TermKey(word), definition(for: key) == nil else { return nil }
                let location = metadata.locations["see_also"] ?? .start(of: parsed.page.displayPath)
                return Diagnostic(.unknownSeeAlso(word: word), at: location)
            }
        }
    }

    /// Internal links (site-absolute `/…`, relative, or to `.md` files) that lead to no page or file of the site.
    public func brokenLinkDiagnostics(output: SiteOutput) -> [Diagnostic] {
        let paths = output.paths
        var diagnostics: [Diagnostic] = []
        for parsed in pages {
            for link in parsed.document.links {
                guard let target = internalTarget(link.destination, from: parsed.page) else { continue }
                let candidates = target.isEmpty ? ["index.html"] : [target, target + (target.hasSuffix("/") ? "" : "/") + "index.html"]
                if !candidates.contains(where: paths.contains) {
                    diagnostics.append(Diagnostic(.brokenLink(destination: link.destination), at: link.location))
                }
            }
        }
        return diagnostics
    }

    /// The path below the site root that an internal link points to, or nil for external links and anchors.
    func internalTarget(_ destination: String, from page: Page) -> String? {
        var path = destination
        if let cut = path.firstIndex(where: { $0 == "#" || $0 == "?" }) { path = String(path[..<cut]) }
        guard !path.isEmpty, !path.hasPrefix("//"), !Self.hasScheme(path) else { return nil }
        if path.hasPrefix("/") { return String(path.dropFirst()).removingPercentEncoding ?? String(path.dropFirst()) }
        if path.hasSuffix(".md") {
            let folder = (page.contentPath as NSString).deletingLastPathComponent
            let resolved = Self.normalize(folder.isEmpty ? path : folder + "/" + path)
            return pageURLs[resolved] ?? resolved
        }
        return Self.normalize(page.urlPath + path) + (path.hasSuffix("/") ? "/" : "")
    }

    /// The href a link gets in the output: `.md` links become pretty URLs, site-absolute links follow `base_url`.
    func rewrittenLink(_ destination: String, from page: Page) -> String? {
        let fragmentStart = destination.firstIndex(where: { $0 == "#" || $0 == "?" }) ?? destination.endIndex
        let path = destination[..<fragmentStart]
        let suffix = destination[fragmentStart...]
        if path.hasSuffix(".md"), !Self.hasScheme(String(path)), let target = internalTarget(String(path), from: page),
            pageURLPaths.contains(target)
        {
            return rootPath + target + suffix
        }
        if rootPath != "/", path.hasPrefix("/"), !path.hasPrefix("//") {
            return rootPath + path.dropFirst() + suffix
        }
        return nil
    }

    static func hasScheme(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":") else { return false }
        let scheme = text[..<colon]
        return !scheme.isEmpty && scheme.allSatisfy { $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }
    }

    /// Resolves `.` and `..` in a relative path; `..` never climbs above the root.
    static func normalize(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }
}
