/// `robots.txt`: lets every crawler in and, when the site's address is known, names the sitemap (the protocol
/// wants its absolute URL). Not written when `content/robots.txt` exists: the site's own file is copied instead.
///
/// Crawlers read robots.txt only at the root of a host; a site under a subpath (`base_url: /docs/`) still gets
/// one, to merge into the host's.
enum RobotsTxt {
    static func text(site: BuiltSite) -> String {
        var text = "User-agent: *\nAllow: /\n"
        if site.config.address != nil { text += "\nSitemap: \(site.exportURL("sitemap.xml", root: site.exportRoot))\n" }
        return text
    }
}
