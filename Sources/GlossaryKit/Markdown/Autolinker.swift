/// What auto-linking needs to read one page: the site's matcher over every auto-linked term's forms, the page's mode
/// and the terms it excludes. Terms are identified by their canonical key, the key the references get.
///
/// A class: the reference scan asks it about every text node, and copying a struct of tables would retain and
/// release each of them every time (a third of auto-linking's matching cost).
public final class Autolinker: Sendable {
    public let matcher: TermMatcher<TermKey>
    /// `.first` or `.all` (a page with `.off` gets no autolinker).
    public let mode: AutolinkMode
    public let excluded: Set<TermKey>
    /// The term each name stands for (a term, an alias), so an explicit reference counts as a term's first link.
    public let termOfName: [TermKey: TermKey]

    public init(matcher: TermMatcher<TermKey>, mode: AutolinkMode, excluded: Set<TermKey>, termOfName: [TermKey: TermKey]) {
        self.matcher = matcher
        self.mode = mode
        self.excluded = excluded
        self.termOfName = termOfName
    }
}
