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
    /// The names the team marks deprecated or forbidden, by key language (`TermKey.language`), which every page of
    /// that language is checked for whatever its mode.
    public let statuses: [String: TermStatusCheck]
    /// Everything the matcher is made from (every form, its term, its case sensitivity, the inflections' source, the
    /// stemmers): a page's references depend on it, so a record made under another matcher is not reused.
    public let fingerprint: Fingerprint
    private let made: Made

    /// The settings for the team's `terms` and, with `autolink_dictionary`, the other `dictionaryTerms` the site
    /// references, each in the order given. A page links only the terms of its language (`TermKey.language`). A
    /// spelling two terms share goes to the earlier: the team's terms before the dictionary's (as in resolving), and
    /// within each, every term's own forms before any inflected form (an inflection never hides another term's word
    /// or alias). `inflector` inflects the default language's terms; a language with one of `stemmers` (by key
    /// language) also finds its terms by their stem.
    public init(
        mode: AutolinkMode, terms: [Term], dictionaryTerms: [Term] = [], inflector: Inflector? = nil, statuses: [String: TermStatusCheck] = [:],
        stemmers: [String: SnowballStemmer] = [:]
    ) {
        self.mode = mode
        self.statuses = statuses
        var hasher = FingerprintHasher()
        hasher.combine("autolink")
        for language in statuses.keys.sorted() {
            hasher.combine(language)
            hasher.combine(statuses[language]?.fingerprint ?? .zero)
        }
        for group in [terms, dictionaryTerms] {
            hasher.combineCount(group.count)
            for term in group {
                hasher.combine(term.term.rawValue)
                hasher.combine(term.term.language)
                hasher.combine(term.caseSensitive)
                hasher.combineCount(term.forms.count)
                for name in term.forms { hasher.combine(name) }
            }
        }
        hasher.combine(inflector != nil)
        hasher.combine(inflector?.source ?? .zero)
        for language in stemmers.keys.sorted() { hasher.combine(language) }
        fingerprint = hasher.finish()
        made = Made {
            var byLanguage: [String: Matching] = [:]
            let languages = Set((terms + dictionaryTerms).map(\.term.language))
            for language in languages.sorted() {
                var forms: [TermMatcher<TermKey>.Form] = []
                var termOfName: [TermKey: TermKey] = [:]
                let inflect = language.isEmpty ? inflector?.inflect ?? { _ in [] } : { _ in [] }
                for group in [terms, dictionaryTerms].map({ $0.filter { $0.term.language == language } }) {
                    for (term, names) in group.map({ ($0, $0.forms) }) + group.map({ ($0, $0.inflections(by: inflect)) }) {
                        for name in names {
                            forms.append(.init(name, id: term.term, caseSensitive: term.caseSensitive))
                            if let key = TermKey(name), termOfName[key] == nil { termOfName[key] = term.term }
                        }
                    }
                }
                let stems = stemmers[language].map { stemmer in
                    StemMatcher(stemmer: stemmer, forms: forms.filter { !$0.caseSensitive }.map { ($0.text, $0.id) })
                }
                byLanguage[language] = Matching(matcher: TermMatcher(forms: forms), termOfName: termOfName, stems: stems)
            }
            return byLanguage
        }
    }

    /// One language's matching: the matcher over its terms' forms, the term each name (keyed as written, in no
    /// language) stands for (a term, an alias, an inflected form, so an explicit reference counts as a term's first
    /// link), and its stems.
    struct Matching: Sendable {
        var matcher: TermMatcher<TermKey>
        var termOfName: [TermKey: TermKey]
        var stems: StemMatcher<TermKey>?
    }

    /// Each language's matching, made once, by the first page that asks (the others wait for it).
    private typealias Made = Shared<[String: Matching]>

    /// The mode a page reads with: its front matter's, else the site's.
    func mode(for metadata: PageMetadata) -> AutolinkMode { metadata.autolink ?? mode }

    /// What a page's references and problems depend on beyond its bytes: nil when it doesn't auto-link and no name
    /// is marked deprecated or forbidden (so records made before auto-linking existed still do).
    func fingerprint(for metadata: PageMetadata) -> Fingerprint? {
        let mode = mode(for: metadata)
        guard mode != .off || !statuses.isEmpty else { return nil }
        var hasher = FingerprintHasher()
        hasher.combine(fingerprint)
        hasher.combine(mode.rawValue)
        return hasher.finish()
    }

    /// The autolinker of a page of `language` (a key language), nil when it doesn't auto-link. A glossary entry's body
    /// never links to the entry itself: its term (by word, and by sense) is excluded, as if listed in its
    /// `autolink_exclude`.
    func autolinker(for metadata: PageMetadata, isEntry: Bool = false, language: String = "") -> Autolinker? {
        let mode = mode(for: metadata)
        guard mode != .off, let matching = made.value[language] else { return nil }
        var names = metadata.autolinkExclude
        if isEntry, let word = metadata.term {
            names.append(word)
            if let sense = metadata.sense, let key = TermKey.sense(word: word, sense: sense) { names.append(key.rawValue) }
        }
        let termOfName = matching.termOfName
        let excluded = Set(names.compactMap { TermKey($0).map { termOfName[$0] ?? $0.inLanguage(language) } })
        return Autolinker(matcher: matching.matcher, mode: mode, excluded: excluded, termOfName: termOfName, stems: matching.stems)
    }
}
