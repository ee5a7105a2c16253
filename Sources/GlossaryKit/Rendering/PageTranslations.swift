/// Which pages of a multilingual site are the same page in another language: those at the same path below their
/// language's folder (`guide/intro/` and `fr/guide/intro/`), or a page and the one its `translation_of:` names.
struct PageTranslations: Sendable {
    let languages: SiteLanguages
    /// Each page's group (its path below its language's folder, or that of the page it translates), by URL path.
    private var groups: [String: String] = [:]
    /// Each group's pages by language.
    private var members: [String: [String: String]] = [:]

    init(site: BuiltSite) {
        languages = site.config.siteLanguages
        guard languages.isMultilingual else { return }
        var pages = site.pages.filter { $0.page.kind == .page }.map { ($0.page.urlPath, $0.page.metadata.translationOf) }
        pages += site.navigation.generatedSections.compactMap { site.navigation.nodes[$0].urlPath }.map { ($0, nil) }
        for (path, original) in pages {
            let group = languages.pathInLanguage(original.map(Page.urlPath(forContentPath:)) ?? path)
            groups[path] = group
            let language = languages.language(ofPath: path)
            // The first page in content order, should two claim the same place.
            if members[group, default: [:]][language] == nil { members[group, default: [:]][language] = path }
        }
    }

    /// The URL path of the page at `urlPath` in `language`, when the site has it.
    func translation(of urlPath: String, in language: String) -> String? {
        members[groups[urlPath] ?? languages.pathInLanguage(urlPath)]?[language]
    }
}
