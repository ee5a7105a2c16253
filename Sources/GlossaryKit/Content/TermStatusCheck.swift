import Foundation

/// The names the team's entries mark deprecated or forbidden, and the matcher that finds them in a page's text — as
/// references and as plain words, with their inflected forms — by the same `TermMatcher` auto-linking uses.
///
/// An entry marks a name by `status: deprecated|forbidden` on its `term:` (with `use:` naming the term to write
/// instead) or by listing it in `deprecated:` or `forbidden:` (its own term is then the one to write).
public struct TermStatusCheck: Sendable {
    /// A name pages should not write.
    public struct Name: Sendable, Hashable {
        public var name: String
        public var status: TermStatus
        /// The term to write instead, when the glossary says.
        public var preferred: String?
        /// Where `preferred` is defined (its entry's `term:`), when a team entry defines it.
        public var preferredLocation: SourceLocation?
        /// The entry that gives the name its status (below `content/`): its own text may write the name.
        public var entry: String

        public init(name: String, status: TermStatus, preferred: String?, preferredLocation: SourceLocation?, entry: String) {
            self.name = name
            self.status = status
            self.preferred = preferred
            self.preferredLocation = preferredLocation
            self.entry = entry
        }
    }

    /// A name found in a text: which, and the UTF-8 range of the occurrence.
    public struct Hit: Sendable, Hashable {
        public var range: Range<Int>
        public var name: Name
    }

    public let names: [Name]
    /// Everything the check is made from: a page's problems depend on it.
    public let fingerprint: Fingerprint
    private let matcher: Shared<TermMatcher<Int>>
    /// For a language Snowball stems (not English): the names found by their stem instead of as spelled.
    private let stems: StemMatcher<Int>?

    /// The check of `names`, each also found by the forms `inflect` gives it (lower case; WordNet's for English), or
    /// with `stemmer` by any word of the same stem.
    public init(names: [Name], inflector: AutolinkSettings.Inflector? = nil, stemmer: SnowballStemmer? = nil) {
        self.names = names
        stems = stemmer.map { StemMatcher(stemmer: $0, forms: names.enumerated().map { ($1.name, $0) }) }
        var hasher = FingerprintHasher()
        hasher.combine(stemmer?.language)
        hasher.combine("term-status")
        hasher.combineCount(names.count)
        for name in names {
            hasher.combine(name.name)
            hasher.combine(name.status.rawValue)
            hasher.combine(name.preferred)
            hasher.combine(name.preferredLocation.map { "\($0.file):\($0.line):\($0.column)" })
            hasher.combine(name.entry)
        }
        hasher.combine(inflector?.source ?? .zero)
        fingerprint = hasher.finish()
        matcher = Shared {
            let inflect = inflector?.inflect ?? { _ in [] }
            var forms: [TermMatcher<Int>.Form] = names.enumerated().map { .init($1.name, id: $0) }
            for (index, name) in names.enumerated() {
                forms += inflect(name.name).map { .init($0, id: index) }
            }
            return TermMatcher(forms: forms)
        }
    }

    /// Every name found in `text`, leaving out those that `entry` (a glossary entry's path below `content/`) marks.
    func hits(inUTF8 text: UnsafeBufferPointer<UInt8>, entry: String?) -> [Hit] {
        let matches = stems?.matches(inUTF8: text) ?? matcher.value.matches(inUTF8: text)
        return matches.compactMap { match in
            let name = names[match.id]
            return name.entry == entry ? nil : Hit(range: match.range, name: name)
        }
    }

    /// The words of `text` and their UTF-8 ranges: runs of letters, marks, numbers and `_`. Anything else parts words,
    /// an apostrophe too (`l'serveur` holds `serveur`).
    static func words(inUTF8 text: UnsafeBufferPointer<UInt8>) -> [(text: String, range: Range<Int>)] {
        let string = String(decoding: text, as: UTF8.self)
        var words: [(String, Range<Int>)] = []
        var start: Int?
        var offset = 0
        func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || scalar.properties.isAlphabetic || scalar.properties.numericType != nil
                || scalar.properties.generalCategory == .nonspacingMark || scalar.properties.generalCategory == .spacingMark
        }
        for scalar in string.unicodeScalars {
            let width = String(scalar).utf8.count
            if isWordScalar(scalar) {
                if start == nil { start = offset }
            } else if let first = start {
                words.append((String(decoding: UnsafeBufferPointer(rebasing: text[first..<offset]), as: UTF8.self), first..<offset))
                start = nil
            }
            offset += width
        }
        if let first = start {
            words.append((String(decoding: UnsafeBufferPointer(rebasing: text[first..<offset]), as: UTF8.self), first..<offset))
        }
        return words
    }

    /// The problem of writing `written` for `name` (a form of it, or the name itself), with a note at the preferred
    /// term's definition.
    func diagnostic(written: String, name: Name, at location: SourceLocation) -> Diagnostic {
        let form = TermKey(written) == TermKey(name.name) ? nil : written
        let problem: Problem =
            name.status == .forbidden
            ? .forbiddenTerm(name: name.name, form: form, preferred: name.preferred)
            : .deprecatedTerm(name: name.name, form: form, preferred: name.preferred)
        var notes: [Diagnostic.Note] = []
        if let preferred = name.preferred, let definedAt = name.preferredLocation {
            notes.append(Diagnostic.Note("\(DiagnosticText.quoted(preferred)) is defined here", at: definedAt))
        }
        return Diagnostic(problem, at: location, notes: notes)
    }

    /// The names the team's `entries` of `language` (a key language, `TermKey.language`) mark, in path order; `team`
    /// gives where each preferred term is defined.
    static func names(team: [TermKey: TermDefinition], entries: [PageRecord], language: String = "") -> [Name] {
        func definedAt(_ word: String) -> SourceLocation? {
            guard let key = TermKey(word)?.inLanguage(language), let definition = team[key], case .team(let index) = definition.origin, index < entries.count
            else {
                return nil
            }
            let record = entries[index]
            return record.page.metadata.locations["term"] ?? .start(of: record.page.displayPath)
        }
        var names: [Name] = []
        for record in entries where record.page.kind == .glossaryEntry && record.page.language == language {
            let metadata = record.page.metadata
            guard let term = metadata.term else { continue }
            let entry = record.page.contentPath
            if let status = metadata.status, status.isDiscouraged {
                names.append(Name(name: term, status: status, preferred: metadata.use, preferredLocation: metadata.use.flatMap(definedAt), entry: entry))
            }
            let here = metadata.locations["term"] ?? .start(of: record.page.displayPath)
            for (list, status) in [(metadata.deprecated, TermStatus.deprecated), (metadata.forbidden, .forbidden)] {
                for name in list {
                    names.append(Name(name: name, status: status, preferred: term, preferredLocation: here, entry: entry))
                }
            }
        }
        return names
    }
}
