import Foundation

/// The site as the load step read it: configuration, a record for every markdown file, the published ones, and the
/// bodies of the files it parsed.
public struct LoadedSite: Sendable {
    public var source: SiteSource
    public var config: SiteConfig
    /// Records of the files published this build (pages and glossary entries), in path order.
    public var records: [PageRecord]
    /// Every markdown file's record as read, published or not, by path below `content/`.
    var read: [String: PageRecord] = [:]
    /// The bodies of the files parsed this build.
    var bodies: PageBodies
    /// The auto-linking pages were read with (a page parsed again for its body is parsed with it too).
    var autolink: AutolinkSettings?
    /// Every markdown file as the next state keeps it.
    var pages: [String: BuildState.StoredPage] = [:]
    /// Problems of the files: those that can't be read or published, and those found in them.
    var problems: [Diagnostic] = []

    init(source: SiteSource, config: SiteConfig, records: [PageRecord], bodies: PageBodies, autolink: AutolinkSettings?) {
        self.source = source
        self.config = config
        self.records = records
        self.bodies = bodies
        self.autolink = autolink
    }

    /// Publishes every file read whole (drafts without `drafts` only had their front matter read), once per URL; a
    /// page at a URL another page or the build itself takes is a problem.
    mutating func publish(source: SiteSource, drafts: Bool) {
        records.reserveCapacity(source.markdownFiles.count)
        // Each URL's page, by its display path.
        var owners: [String: String] = [:]
        for file in source.markdownFiles {
            guard let record = read[file.contentPath] else { continue }
            problems += record.diagnostics
            guard record.hasBody, !record.page.metadata.draft || drafts else { continue }
            if record.page.kind == .page {
                let url = record.page.urlPath
                if let owner = owners[url] {
                    problems.append(
                        Diagnostic(
                            .duplicatePage(url: url, other: owner), at: .start(of: record.page.displayPath),
                            notes: [Problem.otherPageNote(at: .start(of: owner))]))
                    continue
                }
                if let reserved = Load.reservedPrefixes(config.siteLanguages).first(where: { url.hasPrefix($0) }) {
                    problems.append(Diagnostic(.reservedPage(prefix: reserved), at: .start(of: record.page.displayPath)))
                    continue
                }
                owners[url] = record.page.displayPath
            }
            records.append(record)
        }
        for file in source.staticFiles where Load.isReservedStaticPath(file.contentPath, languages: config.siteLanguages) {
            problems.append(Diagnostic(.reservedFile(path: file.contentPath), at: .start(of: file.displayPath)))
        }
    }
}
