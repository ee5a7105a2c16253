extension BuiltSite {
    /// A `see_also:` link of a glossary entry as its term page shows it: the title of the page it leads to (the
    /// word, for a term page; the link as written, for anything else) and its href.
    public func seeAlsoLink(_ item: String, from entry: Page) -> (text: String, url: String) {
        let url = links.rewrittenLink(item, from: entry) ?? item
        guard let target = links.internalTarget(item, from: entry) else { return (item, url) }
        let path = target.isEmpty || target.hasSuffix("/") ? target : target + "/"
        if let record = pages.first(where: { $0.page.kind == .page && $0.page.urlPath == path }) { return (record.title, url) }
        if path.contains("terms/"), let definition = termPages.values.first(where: { config.siteLanguages.termPath($0.key) == path }) {
            return (definition.word, url)
        }
        return (item, url)
    }

    /// `see_also:` links that lead to no file of the site, at the item that names them.
    func seeAlsoLinkDiagnostics(paths: Set<String>) -> [Diagnostic] {
        pages.filter { $0.page.kind == .glossaryEntry }.flatMap { seeAlsoLinkDiagnostics(of: $0, paths: paths) }
    }

    /// One entry's `see_also:` links that lead to no file of the site.
    func seeAlsoLinkDiagnostics(of record: PageRecord, paths: Set<String>) -> [Diagnostic] {
        let metadata = record.page.metadata
        return metadata.seeAlso.enumerated().compactMap { index, item in
            guard SeeAlso.isLink(item), let target = links.internalTarget(item, from: record.page), !Self.exists(target, in: paths) else { return nil }
            let location = metadata.locations["see_also[\(index)]"] ?? metadata.locations["see_also"] ?? .start(of: record.page.displayPath)
            return Diagnostic(.brokenLink(destination: item), at: location)
        }
    }

    /// Whether a link's target below the site root is a file of the site, or a folder with an `index.html`.
    static func exists(_ target: String, in paths: Set<String>) -> Bool {
        let candidates = target.isEmpty ? ["index.html"] : [target, target + (target.hasSuffix("/") ? "" : "/") + "index.html"]
        return candidates.contains(where: paths.contains)
    }
}
