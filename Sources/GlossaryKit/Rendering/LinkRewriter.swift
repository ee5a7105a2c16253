import Foundation

/// Where a page's internal links lead and how they are written out: a pure function of the link, the page it
/// is on, the site's published pages and its root path.
public struct LinkRewriter: Sendable {
    /// The site's root path, decoded (see `rootPath(baseURL:)`).
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

    /// The site's root path with a trailing slash (`/`, `/docs/`), from `base_url` (a full URL keeps its path),
    /// percent-decoded once (`/my%20docs/` → `/my docs/`): held as every path of the site is, as the preview server
    /// mounts it, and written back by `URLPath.encoded`.
    static func rootPath(baseURL: String) -> String {
        var base = Substring(baseURL)
        if let separator = base.range(of: "://"), hasScheme(String(base[..<separator.upperBound].dropLast(2))) {
            let afterAuthority = base[separator.upperBound...].drop { $0 != "/" && $0 != "?" && $0 != "#" }
            base = afterAuthority.prefix { $0 != "?" && $0 != "#" }
        }
        var path = URLPath.decoded(String(base))
        if !path.hasPrefix("/") { path = "/" + path }
        return path.hasSuffix("/") ? path : path + "/"
    }

    /// The path below the site root that an internal link points to, or nil for external links and anchors: the
    /// link's path percent-decoded once (`../C%23/intro.md` → `C#/intro/`), as the site's files are named.
    func internalTarget(_ destination: String, from page: Page) -> String? {
        var path = destination
        if let cut = Self.queryOrFragmentStart(destination) { path = String(destination.utf8[..<cut])! }
        guard !path.isEmpty, !path.hasPrefix("//"), !Self.hasScheme(path) else { return nil }
        let isAbsolute = path.hasPrefix("/")
        path = URLPath.decoded(path)
        if isAbsolute { return String(path.dropFirst()) }
        if path.hasSuffix(".md") {
            let folder = page.contentPath.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(page.contentPath.utf8[..<$0])! } ?? ""
            let resolved = Self.normalize(folder.isEmpty ? path : folder + "/" + path)
            return pageURLs[resolved] ?? resolved
        }
        return Self.normalize(page.linkBase + path) + (path.hasSuffix("/") ? "/" : "")
    }

    /// Where `?query` or `#fragment` starts in a link, if it has either.
    static func queryOrFragmentStart(_ destination: String) -> String.Index? {
        destination.utf8.firstIndex { $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: "?") }
    }

    /// The href a link gets in the output, nil to keep it as written: `.md` links become pretty URLs (encoded as
    /// every href is, `URLPath`), site-absolute links follow `base_url` (the rest kept as written).
    func rewrittenLink(_ destination: String, from page: Page) -> String? {
        let fragmentStart = Self.queryOrFragmentStart(destination) ?? destination.endIndex
        let path = destination[..<fragmentStart]
        let suffix = destination[fragmentStart...]
        if path.hasSuffix(".md"), !Self.hasScheme(String(path)), let target = internalTarget(String(path), from: page),
            pageURLPaths.contains(target)
        {
            return URLPath.encoded(rootPath + target) + suffix
        }
        if rootPath != "/", path.hasPrefix("/"), !path.hasPrefix("//") {
            return URLPath.encoded(rootPath) + path.dropFirst() + suffix
        }
        return nil
    }

    /// Every link of a page, rewritten (nil where kept as written), index-aligned with its links.
    func destinations(_ record: PageRecord) -> [String?] {
        record.links.map { rewrittenLink($0.destination, from: record.page) }
    }

    /// Whether the link starts with a URL scheme (`https:`, `mailto:`): ASCII letters, digits, `+`, `-`, `.`
    /// before a colon, as RFC 3986 has it.
    static func hasScheme(_ text: String) -> Bool {
        var length = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: ":"): return length > 0
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
                length += 1
            default: return false
            }
        }
        return false
    }

    /// Resolves `.` and `..` in a relative path; `..` never climbs above the root.
    static func normalize(_ path: String) -> String {
        if isNormal(path) { return path }
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

    /// Whether `normalize` would give the path back unchanged: no empty, `.` or `..` segment.
    private static func isNormal(_ path: String) -> Bool {
        var segment = 0
        var dots = 0
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") {
                if segment == 0 || segment == dots && dots <= 2 { return false }
                segment = 0
                dots = 0
            } else {
                segment += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        return segment > 0 && !(segment == dots && dots <= 2)
    }
}
