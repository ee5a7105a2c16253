import Foundation

/// The site as read from disk: configuration, theme, and a record for every markdown file, with the HTML of the
/// files parsed in this build already rendered (see `PageFragment`).
public struct LoadedSite: @unchecked Sendable {
    public var source: SiteSource
    public var config: SiteConfig
    /// glossary.yml had errors (a value of the wrong type or out of range): the build stops before resolving.
    public var configHasErrors = false
    public var theme: Theme?
    /// Records of the files published this build (pages and glossary entries), in path order.
    public var records: [PageRecord]
    /// HTML made while parsing, by content path; a page missing here is parsed again when it is rendered.
    var fragments: FragmentStore
    /// Markdown trees of the glossary entries parsed this build (their HTML goes into term pages).
    var entryDocuments: [String: MarkdownDocument]
    /// Every markdown file's record and signature, published or not: the build state's next records.
    var storedRecords: [String: BuildState.StoredRecord]
    /// The cache lookups made while parsing, for resolution to reuse.
    var reader: CacheReader
    /// The auto-linking pages were read with (a page read again for its HTML is read with it too).
    var autolink: AutolinkSettings?
}

/// A page's body HTML made while it was parsed, with the term markup and link destinations it was made with:
/// the build uses it only if those are still what the resolved site gives the page.
struct PageFragment: Sendable {
    var html: String
    var wrappers: [MarkdownDocument.Wrapper]
    var destinations: [String?]
}

/// Page fragments by content path, filled by the parsing workers.
final class FragmentStore: @unchecked Sendable {
    private let lock = NSLock()
    private var fragments: [String: PageFragment] = [:]

    func add(_ fragment: PageFragment, for contentPath: String) {
        lock.withLock { fragments[contentPath] = fragment }
    }

    /// The fragment, removed from the store (each page is rendered once a build).
    func take(_ contentPath: String) -> PageFragment? {
        lock.withLock { fragments.removeValue(forKey: contentPath) }
    }
}
