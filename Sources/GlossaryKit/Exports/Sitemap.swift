import Foundation

/// `sitemap.xml` (sitemaps.org 0.9): every published content page, the generated pages of folders without an
/// index page, the glossary index (and its letter pages when it is paged) and every term page, in that order; a
/// page's front matter `date` is its `lastmod`. The search page and the 404 page are left out (neither has content of
/// its own).
///
/// A file holds at most `maximumURLs` URLs, the protocol's limit: a bigger site's `sitemap.xml` is a sitemap index
/// naming `sitemap-1.xml`, `sitemap-2.xml`, …, which hold the URLs in that order.
///
/// The protocol wants absolute URLs: with the site's address known (`site:`, or a full `base_url`) they are, under
/// `base_url`'s path too; without it each `loc` is site-absolute (`/docs/guide/`), which tools that know the host
/// can use but search engines don't.
enum Sitemap {
    /// The most URLs one file may list (sitemaps.org).
    static let maximumURLs = 50_000

    /// The files of a site of `count` URLs: `sitemap.xml`, then its parts when it is an index.
    static func paths(count: Int, limit: Int) -> [String] {
        guard count > limit else { return [SiteExport.sitemap.path] }
        return [SiteExport.sitemap.path] + (1...(count + limit - 1) / limit).map(partPath)
    }

    static func partPath(_ number: Int) -> String { "sitemap-\(number).xml" }

    /// Every file by path (see `paths`).
    static func files(site: BuiltSite, definitions: [TermDefinition], termIndexes: [String: TermIndexPages], limit: Int) -> [String: Data] {
        let root = site.exportRoot
        let urls = locations(site: site, definitions: definitions, termIndexes: termIndexes)
        guard urls.count > limit else { return [SiteExport.sitemap.path: urlSet(urls[...], site: site, root: root)] }
        var files: [String: Data] = [:]
        var index = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
        for (offset, start) in stride(from: 0, to: urls.count, by: limit).enumerated() {
            let path = partPath(offset + 1)
            files[path] = urlSet(urls[start..<min(start + limit, urls.count)], site: site, root: root)
            index += "<sitemap><loc>\(XMLText.escaped(site.exportURL(path, root: root)))</loc></sitemap>\n"
        }
        files[SiteExport.sitemap.path] = Data((index + "</sitemapindex>\n").utf8)
        return files
    }

    /// How many URLs the sitemap lists.
    static func count(site: BuiltSite, definitions: [TermDefinition], termIndexes: [String: TermIndexPages]) -> Int {
        locations(site: site, definitions: definitions, termIndexes: termIndexes).count
    }

    /// Each URL's path below the site root, and its `lastmod`.
    private static func locations(site: BuiltSite, definitions: [TermDefinition], termIndexes: [String: TermIndexPages]) -> [(
        path: String, lastModified: String?
    )] {
        var urls: [(path: String, lastModified: String?)] = []
        urls.reserveCapacity(site.pages.count + termIndexes.values.map { 1 + $0.pages.count }.reduce(0, +) + definitions.count)
        for record in site.pages where record.page.kind == .page { urls.append((record.page.urlPath, record.page.metadata.date)) }
        for node in site.navigation.generatedSections {
            if let path = site.navigation.nodes[node].urlPath { urls.append((path, nil)) }
        }
        // Each language's glossary index and its letter pages, then its term pages.
        let languages = site.config.siteLanguages
        for code in languages.codes {
            urls.append((languages.termsFolder(code), nil))
            for page in termIndexes[code]?.pages ?? [] { urls.append((page.urlPath, nil)) }
            for definition in definitions where languages.code(ofKey: definition.key) == code { urls.append((languages.termPath(definition.key), nil)) }
        }
        return urls
    }

    private static func urlSet(_ urls: ArraySlice<(path: String, lastModified: String?)>, site: BuiltSite, root: String) -> Data {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
        for (path, lastModified) in urls {
            xml += "<url><loc>\(XMLText.escaped(site.exportURL(path, root: root)))</loc>"
            if let lastModified { xml += "<lastmod>\(XMLText.escaped(lastModified))</lastmod>" }
            xml += "</url>\n"
        }
        return Data((xml + "</urlset>\n").utf8)
    }
}
