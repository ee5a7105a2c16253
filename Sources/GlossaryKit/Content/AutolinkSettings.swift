import Foundation

/// A build's auto-linking: the site's mode and the matcher over the forms of every auto-linked term, from which
/// each page's `Autolinker` is made (its front matter may change the mode and exclude terms).
///
/// The matcher, and the inflected forms it holds, are made when a page first needs them: a site whose pages don't
/// auto-link asks WordNet nothing.
public struct AutolinkSettings: Sendable {
    /// A term plain text links to: its key, the spellings that stand for it (its word and aliases) and whether they
    /// match only as spelled.
    public struct Term: Sendable {
        public var term: TermKey
        public var forms: [String]
        public var caseSensitive: Bool

        public init(term: TermKey, forms: [String], caseSensitive: Bool) {
            self.term = term
            self.forms = forms
            self.caseSensitive = caseSensitive
        }

        /// The inflected forms that stand for the term too: those `inflect` gives each form (lower case, last word
        /// inflected; see `WordNetDictionary.inflections(of:)`). A case-sensitive form (an acronym) takes none of
        /// those, which would make it match in any case; it takes only a plain `s` when it ends with a capital
        /// other than `S` (`APIs`, `URLs`), spelled exactly too.
        public func inflections(by inflect: (String) -> [String]) -> [String] {
            var inflections: [String] = []
            for form in forms {
                if caseSensitive {
                    if let last = form.last, last.isUppercase, last != "S" { inflections.append(form + "s") }
                } else {
                    inflections += inflect(form)
                }
            }
            return inflections.uniqued()
        }
    }

    /// Inflected forms of a term's form, and what they are made from (the data's identity): nil for none.
    public struct Inflector: Sendable {
        public var inflect: @Sendable (String) -> [String]
        public var source: Fingerprint

        public init(source: Fingerprint, inflect: @escaping @Sendable (String) -> [String]) {
            self.source = source
            self.inflect = inflect
        }
    }

    public var mode: AutolinkMode
    /// The names the team marks deprecated or forbidden, which every page is checked for whatever its mode; nil for none.
    public let statuses: TermStatusCheck?
    /// Everything the matcher is made from (every form, its term, its case sensitivity, the inflections' source): a
    /// page's references depend on it, so a record made under another matcher is not reused.
    public let fingerprint: Fingerprint
    private let made: Made

    public var matcher: TermMatcher<TermKey> { made.value.matcher }
    /// The term each name stands for (a term, an alias, an inflected form), so an explicit reference counts as a
    /// term's first link.
    public var termOfName: [TermKey: TermKey] { made.value.termOfName }

    /// The settings for the team's `terms` and, with `autolink_dictionary`, the other `dictionaryTerms` the site
    /// references, each in the order given. A spelling two terms share goes to the earlier: the team's terms before
    /// the dictionary's (as in resolving), and within each, every term's own forms before any inflected form (an
    /// inflection never hides another term's word or alias).
    public init(mode: AutolinkMode, terms: [Term], dictionaryTerms: [Term] = [], inflector: Inflector? = nil, statuses: TermStatusCheck? = nil) {
        self.mode = mode
        self.statuses = statuses
        var hasher = FingerprintHasher()
        hasher.combine("autolink")
        hasher.combine(statuses?.fingerprint ?? .zero)
        for group in [terms, dictionaryTerms] {
            hasher.combineCount(group.count)
            for term in group {
                hasher.combine(term.term.rawValue)
                hasher.combine(term.caseSensitive)
                hasher.combineCount(term.forms.count)
                for name in term.forms { hasher.combine(name) }
            }
        }
        hasher.combine(inflector != nil)
        hasher.combine(inflector?.source ?? .zero)
        fingerprint = hasher.finish()
        made = Made {
            var forms: [TermMatcher<TermKey>.Form] = []
            var termOfName: [TermKey: TermKey] = [:]
            let inflect = inflector?.inflect ?? { _ in [] }
            for group in [terms, dictionaryTerms] {
                for (term, names) in group.map({ ($0, $0.forms) }) + group.map({ ($0, $0.inflections(by: inflect)) }) {
                    for name in names {
                        forms.append(.init(name, id: term.term, caseSensitive: term.caseSensitive))
                        if let key = TermKey(name), termOfName[key] == nil { termOfName[key] = term.term }
                    }
                }
            }
            return (TermMatcher(forms: forms), termOfName)
        }
    }

    /// The matcher and the names, made once, by the first page that asks (the others wait for it).
    private typealias Made = Shared<(matcher: TermMatcher<TermKey>, termOfName: [TermKey: TermKey])>

    /// The mode a page reads with: its front matter's, else the site's.
    func mode(for metadata: PageMetadata) -> AutolinkMode { metadata.autolink ?? mode }

    /// What a page's references and problems depend on beyond its bytes: nil when it doesn't auto-link and no name
    /// is marked deprecated or forbidden (so records made before auto-linking existed still do).
    func fingerprint(for metadata: PageMetadata) -> Fingerprint? {
        let mode = mode(for: metadata)
        guard mode != .off || statuses != nil else { return nil }
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
        let (matcher, termOfName) = made.value
        let excluded = Set(names.compactMap { TermKey($0).map { termOfName[$0] ?? $0 } })
        return Autolinker(matcher: matcher, mode: mode, excluded: excluded, termOfName: termOfName)
    }
}
