/// `sitemap.xml` (sitemaps.org 0.9): every published content page, the generated pages of folders without an
/// index page, the glossary index (and its letter pages when it is paged) and every term page, in that order; a page's front matter `date` is its `lastmod`. The search page and the 404 page are left out
/// (neither has content of its own).
///
/// The protocol wants absolute URLs: with the site's address known (`site:`, or a full `base_url`) they are, under
/// `base_url`'s path too; without it each `loc` is site-absolute (`/docs/guide/`), which tools that know the host
/// can use but search engines don't.
enum Sitemap {
    static func text(site: BuiltSite, definitions: [TermDefinition], termIndex: TermIndexPages) -> String {
        let root = site.exportRoot
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
        func add(_ path: String, lastModified: String? = nil) {
            xml += "<url><loc>\(XMLText.escaped(site.exportURL(path, root: root)))</loc>"
            if let lastModified { xml += "<lastmod>\(XMLText.escaped(lastModified))</lastmod>" }
            xml += "</url>\n"
        }
        for record in site.pages where record.page.kind == .page {
            add(record.page.urlPath, lastModified: record.page.metadata.date)
        }
        for node in site.navigation.generatedSections {
            if let path = site.navigation.nodes[node].urlPath { add(path) }
        }
        add("terms/")
        for page in termIndex.pages { add(page.urlPath) }
        for definition in definitions { add("terms/\(definition.slug)/") }
        return xml + "</urlset>\n"
    }
}
