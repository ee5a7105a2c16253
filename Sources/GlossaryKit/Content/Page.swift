/// A markdown file of the site: a content page, or one of the team's own glossary entries.
public struct Page: Sendable {
    public enum Kind: Sendable, Equatable {
        case page
        /// A file in a language's glossary folder (`content/glossary/*.md`, `content/fr/glossary/*.md`): a definition, rendered into its term's page rather than a page of its own.
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
    /// The page's language as its term keys name it (`TermKey.language`): empty for the site's default language.
    public var language = ""

    public init(kind: Kind, displayPath: String, contentPath: String, metadata: PageMetadata) {
        self.kind = kind
        self.displayPath = displayPath
        self.contentPath = contentPath
        self.urlPath = Self.urlPath(forContentPath: contentPath)
        self.metadata = metadata
    }

    /// The URL path that relative links on the page resolve against: its own, or for a glossary entry the page of
    /// its term in its language's folder (`fr/terms/serveur/`), where its text is shown.
    public var linkBase: String {
        guard kind == .glossaryEntry, let term = metadata.term, let key = TermKey(term) else { return urlPath }
        return languageFolder + "terms/\(key.slug)/"
    }

    /// For a glossary entry, its language's folder (`fr/`; empty for the default language at the root): what comes
    /// before the `glossary/` folder holding it.
    public var languageFolder: String {
        guard kind == .glossaryEntry, let range = contentPath.range(of: "glossary/") else { return "" }
        return String(contentPath[..<range.lowerBound])
    }

    /// The output file below the site root (`guide/intro/index.html`).
    public var outputPath: String { urlPath + "index.html" }

    /// The page as markdown beside its output (`guide/intro/index.md`), written with `llms: pages`.
    public var markdownPath: String { urlPath + "index.md" }

    /// `guide/intro.md` → `guide/intro/`; `guide/index.md` and `guide/_index.md` → `guide/`; `index.md` → ``.
    public static func urlPath(forContentPath path: String) -> String {
        // On the path's bytes (every build makes 10,000 of these); empty components are dropped.
        var copy = path
        return copy.withUTF8 { bytes in
            let slash = UInt8(ascii: "/")
            var components: [Range<Int>] = []
            var start = 0
            for index in 0...bytes.count where index == bytes.count || bytes[index] == slash {
                if index > start { components.append(start..<index) }
                start = index + 1
            }
            guard var last = components.popLast() else { return "" }
            if last.count >= 3, bytes[(last.upperBound - 3)..<last.upperBound].elementsEqual(".md".utf8) {
                last = last.lowerBound..<(last.upperBound - 3)
            }
            let name = bytes[last]
            if !name.elementsEqual("index".utf8) && !name.elementsEqual("_index".utf8) { components.append(last) }
            var url: [UInt8] = []
            url.reserveCapacity(bytes.count + 1)
            for component in components {
                url += bytes[component]
                url.append(slash)
            }
            return String(decoding: url, as: UTF8.self)
        }
    }

    /// Whether the file is one of the team's glossary entries: in the glossary folder of one of the site's `languages`
    /// (`SiteLanguages.glossaryFolder`).
    public static func isEntry(contentPath: String, languages: SiteLanguages) -> Bool {
        languages.entryLanguage(ofContentPath: contentPath) != nil
    }
}
