extension BuiltSite {
    /// Where the URLs of the exports, the sitemap, canonical links and structured data start: the site's address
    /// and root path (`https://example.org/docs/`) when `site:` (or a full `base_url`) gives the address, else
    /// the root path alone (`/docs/`).
    public var exportRoot: String { Self.exportRoot(config: config, rootPath: rootPath) }

    /// `exportRoot` of a site of `config` whose root path is `rootPath`.
    static func exportRoot(config: SiteConfig, rootPath: String) -> String { (config.address?.origin ?? "") + URLPath.encoded(rootPath) }

    /// The exported URL of `path` below the site's root (`terms/kerning/`): its `href` with the address in front,
    /// `root` being `exportRoot` (made once per build).
    func exportURL(_ path: String, root: String) -> String { Self.exportURL(path, root: root) }

    static func exportURL(_ path: String, root: String) -> String { root + URLPath.encoded(path) }
}
