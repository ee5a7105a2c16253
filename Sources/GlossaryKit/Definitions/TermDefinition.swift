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

    public var key: TermKey
    /// The word as it should be displayed (`Kerning`, `serendipity`).
    public var word: String
    public var entries: [DictionaryEntry]
    public var origin: Origin
    public var aliases: [TermKey] = []
    public var seeAlso: [String] = []
    /// Which of the word's meanings a team entry defines, when the glossary holds several (`machine`).
    public var sense: String?
    /// A team entry's card text as HTML (see `PageRecord.summaryHTML`).
    public var summaryHTML: String?
    /// Whether auto-linking matches the term and its aliases only as spelled.
    public var caseSensitive = false

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

    /// The first definition, as a one-line summary.
    public var summary: String? {
        entries.lazy.flatMap(\.meanings).flatMap(\.definitions).first?.definition
    }

    public var partOfSpeech: String? {
        entries.lazy.flatMap(\.meanings).map(\.partOfSpeech).first { !$0.isEmpty }
    }

    public var phonetic: String? {
        entries.lazy.compactMap { $0.phonetic ?? $0.phonetics.lazy.compactMap(\.text).first }.first
    }
}
