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
