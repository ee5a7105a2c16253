import Foundation

/// Where a page's internal links lead and how they are written out: a pure function of the link, the page it
/// is on, the site's published pages and its root path.
public struct LinkRewriter: Sendable {
    public let rootPath: String
    /// Each content page's URL path by its path below `content/`.
    let pageURLs: [String: String]
    /// The URL paths of content pages.
    let pageURLPaths: Set<String>

    /// - Parameter pages: the published content pages' paths below `content/` and URL paths.
    init(rootPath: String, pages: [(contentPath: String, urlPath: String)]) {
        self.rootPath = rootPath
        pageURLs = Dictionary(pages.map { ($0.contentPath, $0.urlPath) }, uniquingKeysWith: { first, _ in first })
        pageURLPaths = Set(pages.map(\.urlPath))
    }

    /// The site's root path with a trailing slash (`/`, `/docs/`), from `base_url` (a full URL keeps its path).
    static func rootPath(baseURL: String) -> String {
        var base = baseURL
        if let url = URL(string: base), url.scheme != nil { base = url.path.isEmpty ? "/" : url.path }
        if !base.hasPrefix("/") { base = "/" + base }
        return base.hasSuffix("/") ? base : base + "/"
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
        return Self.normalize(page.linkBase + path) + (path.hasSuffix("/") ? "/" : "")
    }

    /// The href a link gets in the output, nil to keep it as written: `.md` links become pretty URLs,
    /// site-absolute links follow `base_url`.
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

    /// Every link of a page, rewritten (nil where kept as written), index-aligned with its links.
    func destinations(_ record: PageRecord) -> [String?] {
        record.links.map { rewrittenLink($0.destination, from: record.page) }
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
