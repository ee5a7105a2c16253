extension SiteRenderer {
    /// A multilingual site's page values: `languages`, the switcher's links (to the page in each language, or that
    /// language's home when the site hasn't it), and `alternates`, the page's versions for `hreflang` links. A term
    /// page's versions are its concept's term pages (`term`), and the switcher leads to a language's A–Z index when
    /// the concept has no term in it; an A–Z index's and a dictionary page's (`kind`) are every language's.
    func addLanguages(to values: inout MustacheObject, url: String, language: String, kind: String = "page", term: TermDefinition? = nil) {
        let languages = site.config.siteLanguages
        let translation = { (code: String) -> String? in
            if kind == "terms" || kind == "search" { return languages.folder(code) + languages.pathInLanguage(url) }
            guard let term else { return translations.translation(of: url, in: code) }
            return site.conceptTerm(of: term, in: code).map { languages.termPath($0.key) } ?? (code == language ? url : nil)
        }
        values["multilingual"] = .bool(true)
        values["languages"] = .array(
            languages.codes.map { code in
                let translation = translation(code)
                return .object([
                    "code": .string(code), "name": .string(SiteLanguages.name(of: code)),
                    "url": .string(site.href(translation ?? (term == nil ? languages.folder(code) : languages.termsFolder(code)))),
                    "current": .bool(code == language), "translated": .bool(translation != nil),
                ])
            })
        values["alternates"] = .array(
            languages.codes.compactMap { code in
                translation(code).map { path in
                    .object(["hreflang": .string(code), "url": .string(site.exportURL(path, root: exportRoot))])
                }
            })
    }
}
