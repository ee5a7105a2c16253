/// A team entry read from a TBX or CSV file by `glossary import`: what its front matter and body will say.
public struct ImportedEntry: Sendable, Hashable {
    public var term: String
    /// The site's language the entry is in (one of `languages:`): its file goes to that language's glossary folder.
    public var language: String
    /// The concept the entry is a term of (`concept:`): its `conceptEntry`'s id, a CSV row's `concept`.
    public var concept: String?
    /// The term's own standing, nil for preferred.
    public var status: TermStatus?
    public var use: String?
    public var aliases: [String] = []
    public var deprecated: [String] = []
    public var forbidden: [String] = []
    public var partOfSpeech: String?
    public var definition: String = ""
    public var notes: [String] = []
    public var sources: [String] = []
    /// Where the entry was read (its `conceptEntry`, its CSV row).
    public var location: SourceLocation

    /// How the entry's file starts a note's paragraph and a source's; the exports read such paragraphs back as notes
    /// and sources rather than as the definition.
    static let notePrefix = "Note: "
    static let sourcePrefix = "Source: "

    public init(term: String, language: String, location: SourceLocation) {
        self.term = term
        self.language = language
        self.location = location
    }

    /// The entry without where it was read, to compare what two readings say.
    public var content: ImportedEntry {
        var copy = self
        copy.location = SourceLocation(file: "", line: 0, column: 0)
        return copy
    }

    /// The entry's file: front matter (strings double-quoted as JSON writes them, which YAML reads alike, so no value is
    /// read as another type), then the definition, the notes and the sources as paragraphs of plain text — each note
    /// `Note: …` and each source `Source: …`, which the exports read back as notes and sources.
    public var markdown: String {
        func quoted(_ text: String) -> String { JSONWriter.quoted(text, htmlSafe: false) }
        func list(_ items: [String]) -> String { "[" + items.map(quoted).joined(separator: ", ") + "]" }
        var lines = ["---", "term: \(quoted(term))"]
        if let concept { lines.append("concept: \(quoted(concept))") }
        if !aliases.isEmpty { lines.append("aliases: \(list(aliases))") }
        if let status { lines.append("status: \(status.rawValue)") }
        if let use { lines.append("use: \(quoted(use))") }
        if !deprecated.isEmpty { lines.append("deprecated: \(list(deprecated))") }
        if !forbidden.isEmpty { lines.append("forbidden: \(list(forbidden))") }
        if let partOfSpeech { lines.append("part_of_speech: \(quoted(partOfSpeech))") }
        lines.append("---")
        var paragraphs = definition.split(separator: "\n", omittingEmptySubsequences: true).map { Self.plainMarkdown(String($0)) }
        paragraphs += notes.map { Self.notePrefix + Self.plainMarkdown($0) }
        paragraphs += sources.map { Self.sourcePrefix + Self.plainMarkdown($0) }
        return lines.joined(separator: "\n") + "\n" + paragraphs.joined(separator: "\n\n") + (paragraphs.isEmpty ? "" : "\n")
    }

    /// `text` as markdown that renders as exactly that text: the punctuation markdown reads as markup (or smart
    /// punctuation turns into other characters) escaped with a backslash, white space collapsed.
    static func plainMarkdown(_ text: String) -> String {
        let special: Set<Character> = ["\\", "`", "*", "_", "[", "]", "<", ">", "#", "!", "|", "~", "&", "'", "\"", "-", "+", "=", "{", "}"]
        var result = ""
        for character in text.split(whereSeparator: \.isWhitespace).joined(separator: " ") {
            if special.contains(character) { result.append("\\") }
            result.append(character)
        }
        // `1. ` at the start would begin a list.
        if let dot = result.firstIndex(where: { !$0.isNumber }), dot != result.startIndex, result[dot] == "." || result[dot] == ")" {
            result.insert("\\", at: dot)
        }
        return result
    }
}
