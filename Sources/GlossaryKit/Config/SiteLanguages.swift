/// The languages of a site (`languages:` in glossary.yml) and where each one's pages are: the default language's at the
/// root of `content/` (or in `content/<lang>/` with `default_language_at_root: false`), every other's in
/// `content/<lang>/`, published at the same path below the site.
public struct SiteLanguages: Sendable, Equatable {
    /// Language codes, the default first.
    public var codes: [String]
    public var defaultAtRoot: Bool

    public init(codes: [String], defaultAtRoot: Bool = true) {
        self.codes = codes.isEmpty ? ["en"] : codes
        self.defaultAtRoot = defaultAtRoot
    }

    public var defaultLanguage: String { codes[0] }

    /// Whether the site has more than one language (a site in one has no switcher, no alternates).
    public var isMultilingual: Bool { codes.count > 1 }

    /// The URL path of `code`'s home below the site root: `fr/`, or empty for the default language at the root.
    public func folder(_ code: String) -> String {
        code == defaultLanguage && defaultAtRoot ? "" : code + "/"
    }

    /// The folder below `content/` holding `code`'s team entries: `glossary/` for the default language at the root,
    /// `fr/glossary/` for any other.
    public func glossaryFolder(_ code: String) -> String { folder(code) + "glossary/" }

    /// The language whose glossary folder holds the file at `contentPath` (below `content/`); nil for any other file.
    public func entryLanguage(ofContentPath contentPath: String) -> String? {
        codes.first { contentPath.hasPrefix(glossaryFolder($0)) }
    }

    /// The language a term key of `code` names (`TermKey.language`): empty for the default language.
    public func keyLanguage(_ code: String) -> String { code == defaultLanguage ? "" : code }

    /// The language code a term key's language stands for.
    public func code(ofKey key: TermKey) -> String { key.language.isEmpty ? defaultLanguage : key.language }

    /// Where `code`'s generated pages are, below the site root: `terms/`, `fr/terms/`.
    public func termsFolder(_ code: String) -> String { folder(code) + "terms/" }

    /// The folder of the language a term key names: what a page's term links are made below.
    public func folder(ofKey language: String) -> String { folder(language.isEmpty ? defaultLanguage : language) }

    /// The page of a term, below the site root: `terms/kerning/`, `fr/terms/serveur/`.
    public func termPath(_ key: TermKey) -> String { termsFolder(code(ofKey: key)) + key.slug + "/" }

    /// The key language of the markdown file at `contentPath` (below `content/`): its glossary folder's for an
    /// entry, else its folder's.
    public func keyLanguage(ofContentPath contentPath: String) -> String {
        keyLanguage(entryLanguage(ofContentPath: contentPath) ?? language(ofPath: Page.urlPath(forContentPath: contentPath)))
    }

    /// The language of the page at `urlPath` (below the site root): the language whose folder holds it, else the default.
    public func language(ofPath urlPath: String) -> String {
        guard isMultilingual else { return defaultLanguage }
        for code in codes where !folder(code).isEmpty && urlPath.hasPrefix(folder(code)) { return code }
        return defaultLanguage
    }

    /// `urlPath` without its language's folder: what the same page in another language has after that one's.
    public func pathInLanguage(_ urlPath: String) -> String {
        String(urlPath.dropFirst(folder(language(ofPath: urlPath)).count))
    }

    /// The language's own name, for the switcher (`Français`); the code for a language this table doesn't know.
    public static func name(of code: String) -> String {
        let base = code.split(separator: "-").first.map(String.init)?.lowercased() ?? code
        return names[base] ?? code
    }

    static let names = [
        "en": "English", "fr": "Français", "de": "Deutsch", "es": "Español", "it": "Italiano", "pt": "Português", "nl": "Nederlands",
    ]
}
