/// A build's auto-linking: the site's mode and the matcher over the forms of every auto-linked term, from which
/// each page's `Autolinker` is made (its front matter may change the mode and exclude terms).
public struct AutolinkSettings: Sendable {
    /// A term plain text links to: its key, the spellings that stand for it (its word and aliases), whether they
    /// match only as spelled, and the inflected forms that stand for it too.
    public struct Term: Sendable {
        public var term: TermKey
        public var forms: [String]
        public var caseSensitive: Bool
        public var inflections: [String]

        public init(term: TermKey, forms: [String], caseSensitive: Bool, inflections: [String] = []) {
            self.term = term
            self.forms = forms
            self.caseSensitive = caseSensitive
            self.inflections = inflections
        }

        /// The term with the inflections `inflect` gives each of its forms (lower case, last word inflected; see
        /// `WordNetDictionary.inflections(of:)`). A case-sensitive form (an acronym) takes none of those: it would
        /// stop being case-sensitive; it takes only a plain `s` when it ends with a capital other than `S` (`APIs`,
        /// `URLs`), spelled exactly too.
        public static func inflected(_ term: TermKey, forms: [String], caseSensitive: Bool, by inflect: (String) -> [String]) -> Term {
            var inflections: [String] = []
            for form in forms {
                if caseSensitive {
                    if let last = form.last, last.isUppercase, last != "S" { inflections.append(form + "s") }
                } else {
                    inflections += inflect(form)
                }
            }
            return Term(term: term, forms: forms, caseSensitive: caseSensitive, inflections: inflections.uniqued())
        }
    }

    public var mode: AutolinkMode
    public var matcher: TermMatcher<TermKey>
    /// The term each name stands for (a term, an alias, an inflected form), so an explicit reference counts as a
    /// term's first link.
    public var termOfName: [TermKey: TermKey]
    /// Everything the matcher was made from (every form, its term, its case sensitivity): a page's references
    /// depend on it, so a record made under another matcher is not reused.
    public var fingerprint: Fingerprint

    /// The settings for `terms`, in the order given: a spelling two terms share goes to the earlier one, and every
    /// term's own forms come before any inflected form (an inflection never hides another term's word or alias).
    public init(mode: AutolinkMode, terms: [Term]) {
        self.mode = mode
        var forms: [TermMatcher<TermKey>.Form] = []
        var termOfName: [TermKey: TermKey] = [:]
        var hasher = FingerprintHasher()
        hasher.combine("autolink")
        for term in terms {
            hasher.combine(term.term.rawValue)
            hasher.combine(term.caseSensitive)
            hasher.combineCount(term.forms.count)
            for name in term.forms {
                hasher.combine(name)
                forms.append(.init(name, id: term.term, caseSensitive: term.caseSensitive))
                if let key = TermKey(name), termOfName[key] == nil { termOfName[key] = term.term }
            }
        }
        for term in terms {
            hasher.combineCount(term.inflections.count)
            for name in term.inflections {
                hasher.combine(name)
                forms.append(.init(name, id: term.term, caseSensitive: term.caseSensitive))
                if let key = TermKey(name), termOfName[key] == nil { termOfName[key] = term.term }
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

    /// The autolinker of a page, nil when it doesn't auto-link. A glossary entry's body never links to the entry
    /// itself: its term (by word, and by sense) is excluded, as if listed in its `autolink_exclude`.
    func autolinker(for metadata: PageMetadata, isEntry: Bool = false) -> Autolinker? {
        let mode = mode(for: metadata)
        guard mode != .off else { return nil }
        var names = metadata.autolinkExclude
        if isEntry, let word = metadata.term {
            names.append(word)
            if let sense = metadata.sense, let key = TermKey.sense(word: word, sense: sense) { names.append(key.rawValue) }
        }
        let excluded = Set(names.compactMap { TermKey($0).map { termOfName[$0] ?? $0 } })
        return Autolinker(matcher: matcher, mode: mode, excluded: excluded, termOfName: termOfName)
    }
}
