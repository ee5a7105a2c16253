import Foundation
import GlossaryKit

/// How `glossary define` prints a definition: as text for a reader, or as JSON.
enum DefinitionText {
    /// The word and its pronunciation, where it came from, the meanings by part of speech (numbered definitions,
    /// examples, synonyms and antonyms), then sources and licences.
    static func text(_ definition: TermDefinition, _ lookup: SiteBuilder.WordLookup) -> String {
        func clean(_ text: String) -> String { DiagnosticText.escaped(text) }
        var lines: [String] = []
        lines.append(([clean(definition.word)] + (definition.phonetic.map { [clean($0)] } ?? [])).joined(separator: " "))
        if let base = lookup.baseForm {
            lines.append("\(clean(lookup.key.rawValue)) is a form of \(clean(base.rawValue))")
        }
        lines.append(origin(definition, lookup))
        for meaning in DictionaryEntry.groupedMeanings(definition.entries) {
            lines.append("")
            lines.append(meaning.partOfSpeech.isEmpty ? "definition" : clean(meaning.partOfSpeech))
            for (index, sense) in meaning.definitions.enumerated() {
                lines.append("  \(index + 1). \(clean(sense.definition))")
                for example in sense.examples { lines.append("     “\(clean(example))”") }
                if !sense.synonyms.isEmpty { lines.append("     Synonyms: " + sense.synonyms.map(clean).joined(separator: ", ")) }
                if !sense.antonyms.isEmpty { lines.append("     Antonyms: " + sense.antonyms.map(clean).joined(separator: ", ")) }
            }
            if !meaning.synonyms.isEmpty { lines.append("  Synonyms: " + meaning.synonyms.map(clean).joined(separator: ", ")) }
            if !meaning.antonyms.isEmpty { lines.append("  Antonyms: " + meaning.antonyms.map(clean).joined(separator: ", ")) }
        }
        if !definition.seeAlso.isEmpty {
            lines.append("")
            lines.append("See also: " + definition.seeAlso.map(clean).joined(separator: ", "))
        }
        let sources = DictionaryEntry.distinctSourceURLs(definition.entries)
        let licenses = DictionaryEntry.distinctLicenses(definition.entries)
        if !sources.isEmpty || !licenses.isEmpty { lines.append("") }
        for source in sources { lines.append("Source: \(clean(source))") }
        for license in licenses { lines.append("Licence: " + clean(license.name) + (license.url.map { " <\(clean($0))>" } ?? "")) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One line: which source, and what the reader should know of it (when fetched, whether a sample or stale).
    static func origin(_ definition: TermDefinition, _ lookup: SiteBuilder.WordLookup) -> String {
        switch definition.origin {
        case .team:
            return "From the team's entries" + (lookup.teamEntryPath.map { ": \(DiagnosticText.escaped($0))" } ?? "")
        case .dictionary(let entry, let fetched, let stale):
            let day = String(entry.fetchedAtText.prefix(10))
            var line = fetched ? "From the dictionary API, fetched \(day) and cached" : "From the cache: the dictionary API's answer of \(day)"
            if stale { line += " (kept, since refetching it failed)" }
            if entry.sampleNote != nil { line += " (a sample entry, written by hand)" }
            return line
        case .wordNet:
            return "From WordNet 3.0"
        }
    }

    /// The entry model as JSON: the key and word, the source (`glossary`, `dictionary`, `wordnet`), the base form a
    /// form stands for, and the entries in the dictionary API's shape.
    static func json(_ definition: TermDefinition, _ lookup: SiteBuilder.WordLookup) -> String {
        struct Output: Encodable {
            var key: String
            var word: String
            var source: String
            var formOf: String?
            var file: String?
            var fetchedAt: String?
            var sample: String?
            var entries: [DictionaryEntry]

            enum CodingKeys: String, CodingKey {
                case key, word, source, entries, file, sample
                case formOf = "form_of"
                case fetchedAt = "fetched_at"
            }
        }
        var output = Output(
            key: lookup.key.rawValue, word: definition.word, source: definition.sourceName, formOf: lookup.baseForm?.rawValue,
            file: lookup.teamEntryPath, entries: definition.entries)
        if case .dictionary(let entry, _, _) = definition.origin {
            output.fetchedAt = entry.fetchedAtText
            output.sample = entry.sampleNote
        }
        // Written by the project's own writer: keys sorted, two spaces of indentation, as the cache files are.
        guard let data = try? JSONEncoder().encode(output), let value = try? JSONParser.parse(data) else { return "{}\n" }
        return JSONWriter.text(value, pretty: true) + "\n"
    }
}
