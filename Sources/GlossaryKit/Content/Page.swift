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
        // The common case, a path without empty components, by its last slash, on its bytes (every build makes
        // 10,000 of these).
        var copy = path
        let fast = copy.withUTF8 { bytes -> String? in
            let slash = UInt8(ascii: "/")
            guard let first = bytes.first, first != slash, bytes.last != slash else { return nil }
            var lastSlash = -1
            var previous: UInt8 = 0
            for index in bytes.indices {
                if bytes[index] == slash {
                    if previous == slash { return nil }
                    lastSlash = index
                }
                previous = bytes[index]
            }
            var nameEnd = bytes.count
            if nameEnd - (lastSlash + 1) >= 3, bytes[nameEnd - 3] == UInt8(ascii: "."), bytes[nameEnd - 2] == UInt8(ascii: "m"),
                bytes[nameEnd - 1] == UInt8(ascii: "d")
            {
                nameEnd -= 3
            }
            let name = UnsafeBufferPointer(rebasing: bytes[(lastSlash + 1)..<nameEnd])
            if name.elementsEqual("index".utf8) || name.elementsEqual("_index".utf8) {
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<(lastSlash + 1)]), as: UTF8.self)
            }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<nameEnd]), as: UTF8.self) + "/"
        }
        if let fast { return fast }
        var components = path.split(separator: "/").map(String.init)
        guard var last = components.popLast() else { return "" }
        if last.hasSuffix(".md") { last.removeLast(3) }
        if last != "index" && last != "_index" { components.append(last) }
        return components.map { $0 + "/" }.joined()
    }

    /// Whether the file is one of the team's glossary entries (`content/glossary/*.md`).
    public static func isEntry(contentPath: String) -> Bool { contentPath.hasPrefix("glossary/") }
}
