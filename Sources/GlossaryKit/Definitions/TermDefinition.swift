import Foundation

/// A term's definition as the site shows it, whoever supplied it.
public struct TermDefinition: Sendable {
    public enum Origin: Sendable {
        /// The team's own entry in `content/glossary/`; `pageIndex` points into the build's pages.
        case team(pageIndex: Int)
        /// A cache entry: read from disk, or fetched during this build (`fetched`), or kept though stale.
        case dictionary(CacheEntry, fetched: Bool, stale: Bool)
        /// WordNet 3.0, from the local database; never cached (the files are the record).
        case wordNet
    }

    /// The fields, shared by copies until one of them changes (copy on write): a site holds each definition in
    /// several tables (team entries, resolutions, term pages, the plan, the A–Z index), a reference each.
    private final class Storage: @unchecked Sendable {
        // Mutated only through a uniquely referenced instance (`unique()`), so never while shared across threads.
        var key: TermKey
        var word: String
        var entries: [DictionaryEntry]
        var origin: Origin
        var aliases: [TermKey]
        var seeAlso: [String]
        var sense: String?
        var summaryHTML: String?
        var caseSensitive: Bool

        init(
            key: TermKey, word: String, entries: [DictionaryEntry], origin: Origin, aliases: [TermKey], seeAlso: [String], sense: String?,
            summaryHTML: String?, caseSensitive: Bool
        ) {
            self.key = key
            self.word = word
            self.entries = entries
            self.origin = origin
            self.aliases = aliases
            self.seeAlso = seeAlso
            self.sense = sense
            self.summaryHTML = summaryHTML
            self.caseSensitive = caseSensitive
        }

        func copy() -> Storage {
            Storage(
                key: key, word: word, entries: entries, origin: origin, aliases: aliases, seeAlso: seeAlso, sense: sense, summaryHTML: summaryHTML,
                caseSensitive: caseSensitive)
        }
    }

    private var storage: Storage

    public init(
        key: TermKey, word: String, entries: [DictionaryEntry], origin: Origin, aliases: [TermKey] = [], seeAlso: [String] = [], sense: String? = nil,
        summaryHTML: String? = nil, caseSensitive: Bool = false
    ) {
        storage = Storage(
            key: key, word: word, entries: entries, origin: origin, aliases: aliases, seeAlso: seeAlso, sense: sense, summaryHTML: summaryHTML,
            caseSensitive: caseSensitive)
    }

    private mutating func unique() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    public var key: TermKey {
        get { storage.key }
        set { unique().key = newValue }
    }
    /// The word as it should be displayed (`Kerning`, `serendipity`).
    public var word: String {
        get { storage.word }
        set { unique().word = newValue }
    }
    public var entries: [DictionaryEntry] {
        get { storage.entries }
        set { unique().entries = newValue }
    }
    public var origin: Origin {
        get { storage.origin }
        set { unique().origin = newValue }
    }
    public var aliases: [TermKey] {
        get { storage.aliases }
        set { unique().aliases = newValue }
    }
    public var seeAlso: [String] {
        get { storage.seeAlso }
        set { unique().seeAlso = newValue }
    }
    /// Which of the word's meanings a team entry defines, when the glossary holds several (`machine`).
    public var sense: String? {
        get { storage.sense }
        set { unique().sense = newValue }
    }
    /// A team entry's card text as HTML (see `PageRecord.summaryHTML`).
    public var summaryHTML: String? {
        get { storage.summaryHTML }
        set { unique().summaryHTML = newValue }
    }
    /// Whether auto-linking matches the term and its aliases only as spelled.
    public var caseSensitive: Bool {
        get { storage.caseSensitive }
        set { unique().caseSensitive = newValue }
    }

    /// The word with its sense, as a title shows it: `crane (machine)`.
    public var title: String { sense.map { "\(word) (\($0))" } ?? word }

    public var slug: String { key.slug }

    public var isTeamEntry: Bool {
        if case .team = origin { return true }
        return false
    }

    /// Where the definition came from, as `terms/index.json` and `glossary define --json` name it.
    public var sourceName: String {
        switch origin {
        case .team: "glossary"
        case .dictionary: "dictionary"
        case .wordNet: "wordnet"
        }
    }

    // Plain loops: every page asks these of each term it uses, and lazy chains of key paths cost more than the rest
    // of a term's card.

    /// The first definition, as a one-line summary.
    public var summary: String? {
        for entry in entries {
            for meaning in entry.meanings {
                if let first = meaning.definitions.first { return first.definition }
            }
        }
        return nil
    }

    /// The first part of speech named.
    public var partOfSpeech: String? {
        for entry in entries {
            for meaning in entry.meanings where !meaning.partOfSpeech.isEmpty { return meaning.partOfSpeech }
        }
        return nil
    }

    /// Of the first entry that has one: its phonetic spelling, else its first recording's text.
    public var phonetic: String? {
        for entry in entries {
            if let phonetic = entry.phonetic { return phonetic }
            for recording in entry.phonetics {
                if let text = recording.text { return text }
            }
        }
        return nil
    }
}
