extension SiteRenderer {
    /// A multilingual site's page values: `languages`, the switcher's links (to the page in each language, or that
    /// language's home when the site hasn't it), and `alternates`, the page's versions for `hreflang` links.
    func addLanguages(to values: inout MustacheObject, url: String, language: String) {
        let languages = site.config.siteLanguages
        values["multilingual"] = .bool(true)
        values["languages"] = .array(
            languages.codes.map { code in
                let translation = translations.translation(of: url, in: code)
                return .object([
                    "code": .string(code), "name": .string(SiteLanguages.name(of: code)),
                    "url": .string(site.href(translation ?? languages.folder(code))),
                    "current": .bool(code == language), "translated": .bool(translation != nil),
                ])
            })
        values["alternates"] = .array(
            languages.codes.compactMap { code in
                translations.translation(of: url, in: code).map { path in
                    .object(["hreflang": .string(code), "url": .string(site.exportURL(path, root: exportRoot))])
                }
            })
    }
}
