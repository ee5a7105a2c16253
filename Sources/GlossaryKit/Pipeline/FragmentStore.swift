import Foundation

/// Page fragments by content path, filled by the parsing workers, with what their term markup was made with.
final class FragmentStore: @unchecked Sendable {
    private let lock = NSLock()
    private var fragments: [String: PageFragment] = [:]
    /// The links the fragments' term markup was made with while pages were parsed; nil when they were made from the
    /// site they are rendered in (a text patch makes them so).
    private let parseTime: SiteBuilder.ParseTimeLinks?
    /// The terms whose markup the site gives otherwise than parsing did, worked out once (nil until then).
    private var stale: Set<TermKey>?

    init(parseTime: SiteBuilder.ParseTimeLinks? = nil) {
        self.parseTime = parseTime
    }

    func add(_ fragment: PageFragment, for contentPath: String) {
        lock.withLock { fragments[contentPath] = fragment }
    }

    /// The fragment, removed from the store (each page is rendered once a build).
    func take(_ contentPath: String) -> PageFragment? {
        lock.withLock { fragments.removeValue(forKey: contentPath) }
    }

    /// Whether a fragment of `record` has the term markup `site` gives it. A term's markup is a function of its key,
    /// how it was referenced, the slug it links to and the site's root (`TermMarkup.wrapper`); the record is the one the
    /// fragment was made of, so only slugs and the root can differ. They are compared once a build, for every term
    /// parsing linked, not once a reference.
    func markupIsCurrent(for record: PageRecord, in site: BuiltSite) -> Bool {
        guard let parseTime else { return true }
        let stale = lock.withLock { () -> Set<TermKey> in
            if let known = self.stale { return known }
            let slugs = parseTime.slugsLinked
            let found = Set(slugs.compactMap { key, slug in site.definition(for: key)?.slug == slug ? nil : key })
            self.stale = found
            return found
        }
        guard parseTime.rootPath == site.rootPath else { return false }
        return stale.isEmpty || !record.references.contains { stale.contains($0.key) }
    }
}
