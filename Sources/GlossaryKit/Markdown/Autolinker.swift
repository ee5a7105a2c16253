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

    /// For a language Snowball stems: its terms found by stem too, where the matcher finds no form as spelled.
    public let stems: StemMatcher<TermKey>?

    public init(
        matcher: TermMatcher<TermKey>, mode: AutolinkMode, excluded: Set<TermKey>, termOfName: [TermKey: TermKey], stems: StemMatcher<TermKey>? = nil
    ) {
        self.matcher = matcher
        self.mode = mode
        self.excluded = excluded
        self.termOfName = termOfName
        self.stems = stems
    }

    /// The occurrences to link in `text`, leftmost first; with `.first`, only those of terms not in `linked`, which
    /// gains them.
    func matches(inUTF8 text: UnsafeBufferPointer<UInt8>, linked: inout Set<TermKey>) -> [TermMatcher<TermKey>.Match] {
        guard let stems else {
            return mode == .first
                ? matcher.matches(inUTF8: text, excluding: excluded, linkingOnce: &linked) : matcher.matches(inUTF8: text, excluding: excluded)
        }
        let spelled = matcher.matches(inUTF8: text, excluding: excluded)
        let stemmed = stems.matches(inUTF8: text, excluding: excluded).filter { match in !spelled.contains { $0.range.overlaps(match.range) } }
        let found = (spelled + stemmed).sorted { $0.range.lowerBound < $1.range.lowerBound }
        return mode == .first ? found.filter { linked.insert($0.id).inserted } : found
    }
}
