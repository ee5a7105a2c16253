/// A build's auto-linking: the site's mode and the matcher over the forms of every auto-linked term, from which
/// each page's `Autolinker` is made (its front matter may change the mode and exclude terms).
public struct AutolinkSettings: Sendable {
    public var mode: AutolinkMode
    public var matcher: TermMatcher<TermKey>
    public var termOfName: [TermKey: TermKey]
    /// Everything the matcher was made from (every form, its term, its case sensitivity): a page's references
    /// depend on it, so a record made under another matcher is not reused.
    public var fingerprint: Fingerprint

    /// The settings for `terms`: each term's key with the forms that stand for it, in the order given (earlier
    /// terms win a shared spelling).
    public init(mode: AutolinkMode, terms: [(term: TermKey, forms: [String], caseSensitive: Bool)]) {
        self.mode = mode
        var forms: [TermMatcher<TermKey>.Form] = []
        var termOfName: [TermKey: TermKey] = [:]
        var hasher = FingerprintHasher()
        hasher.combine("autolink")
        for (term, names, caseSensitive) in terms {
            hasher.combine(term.rawValue)
            hasher.combine(caseSensitive)
            hasher.combineCount(names.count)
            for name in names {
                hasher.combine(name)
                forms.append(.init(name, id: term, caseSensitive: caseSensitive))
                if let key = TermKey(name), termOfName[key] == nil { termOfName[key] = term }
            }
        }
        matcher = TermMatcher(forms: forms)
        self.termOfName = termOfName
        fingerprint = hasher.finish()
    }

    /// The mode a page reads with: its front matter's, else the site's.
    func mode(for metadata: PageMetadata) -> AutolinkMode { metadata.autolink ?? mode }

    /// What a page's references depend on beyond its bytes: nil when it doesn't auto-link (nor the site, so
    /// records made before auto-linking existed still do).
    func fingerprint(for metadata: PageMetadata) -> Fingerprint? {
        let mode = mode(for: metadata)
        guard mode != .off else { return nil }
        var hasher = FingerprintHasher()
        hasher.combine(fingerprint)
        hasher.combine(mode.rawValue)
        return hasher.finish()
    }

    /// The autolinker of a page, nil when it doesn't auto-link.
    func autolinker(for metadata: PageMetadata) -> Autolinker? {
        let mode = mode(for: metadata)
        guard mode != .off else { return nil }
        let excluded = Set(metadata.autolinkExclude.compactMap { TermKey($0).map { termOfName[$0] ?? $0 } })
        return Autolinker(matcher: matcher, mode: mode, excluded: excluded, termOfName: termOfName)
    }
}
