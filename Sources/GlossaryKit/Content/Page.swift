/// A markdown file of the site: a content page, or one of the team's own glossary entries.
public struct Page: Sendable {
    public enum Kind: Sendable, Equatable {
        case page
        /// `content/glossary/*.md`: a definition, rendered into its term's page rather than a page of its own.
        case glossaryEntry
    }

    public var kind: Kind
    /// Path shown in diagnostics, relative to the site's source folder (`content/guide/intro.md`).
    public var displayPath: String
    /// Path below `content/` (`guide/intro.md`).
    public var contentPath: String
    /// The page's URL below the site root, with a trailing slash (`guide/intro/`; empty for the home page).
    public var urlPath: String
    public var metadata: PageMetadata

    public init(kind: Kind, displayPath: String, contentPath: String, metadata: PageMetadata) {
        self.kind = kind
        self.displayPath = displayPath
        self.contentPath = contentPath
        self.urlPath = Self.urlPath(forContentPath: contentPath)
        self.metadata = metadata
    }

    /// The URL path that relative links on the page resolve against: its own, or for a glossary entry the page of
    /// its term, where its text is shown.
    public var linkBase: String {
        guard kind == .glossaryEntry, let term = metadata.term, let key = TermKey(term) else { return urlPath }
        return "terms/\(key.slug)/"
    }

    /// The output file below the site root (`guide/intro/index.html`).
    public var outputPath: String { urlPath + "index.html" }

    /// `guide/intro.md` → `guide/intro/`; `guide/index.md` and `guide/_index.md` → `guide/`; `index.md` → ``.
    public static func urlPath(forContentPath path: String) -> String {
        // The common case, a path without empty components, by its last slash (every build makes 10,000 of these).
        let utf8 = path.utf8
        if utf8.first != UInt8(ascii: "/"), utf8.last != UInt8(ascii: "/"), !utf8.isEmpty,
            !zip(utf8, utf8.dropFirst()).contains(where: { $0 == UInt8(ascii: "/") && $1 == UInt8(ascii: "/") })
        {
            let nameStart = utf8.lastIndex(of: UInt8(ascii: "/")).map { utf8.index(after: $0) } ?? utf8.startIndex
            var name = Substring(path[nameStart...])
            if name.hasSuffix(".md") { name.removeLast(3) }
            let folder = path[..<nameStart]
            return name == "index" || name == "_index" ? String(folder) : folder + name + "/"
        }
        var components = path.split(separator: "/").map(String.init)
        guard var last = components.popLast() else { return "" }
        if last.hasSuffix(".md") { last.removeLast(3) }
        if last != "index" && last != "_index" { components.append(last) }
        return components.map { $0 + "/" }.joined()
    }

    /// Whether the file is one of the team's glossary entries (`content/glossary/*.md`).
    public static func isEntry(contentPath: String) -> Bool { contentPath.hasPrefix("glossary/") }
}
