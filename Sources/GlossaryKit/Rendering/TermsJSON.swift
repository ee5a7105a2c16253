import Foundation

/// `terms/index.json`, the terms term cards and the dictionary page read in the browser (each language's in its
/// folder): compact JSON with sorted keys, written key by key (strings quoted by `JSONWriter`), cut as `TermShards`
/// cuts it. A term stands under its key and its aliases' keys.
public enum TermsJSON {
    /// A language's files by path, its terms being `definitions` (in key order) published in `folder` (`terms/`), their
    /// records made on `jobs` cores.
    public static func files(
        _ definitions: [TermDefinition], folder: String, site: BuiltSite, limits: TermShards.Limits, jobs: Int = 1
    ) -> [(path: String, data: Data)] {
        let entries = definitions.parallelMap(jobs: jobs) { (record: record($0, site: site), keys: [$0.key.rawValue] + $0.aliases.map(\.rawValue)) }
        return TermShards.files(base: folder + "index", entries: entries, limits: limits, file: file, manifest: { "{\"shards\":" + $0 + "}\n" })
    }

    /// A file holding `records`.
    static func file(_ records: [String]) -> String {
        "{\"terms\":[" + records.joined(separator: ",") + "]}\n"
    }

    static func record(_ definition: TermDefinition, site: BuiltSite) -> String {
        var json = "{\"aliases\":[" + definition.aliases.map { JSONWriter.quoted($0.rawValue) }.joined(separator: ",") + "]"
        json += ",\"key\":" + JSONWriter.quoted(definition.key.rawValue)
        if let sense = definition.sense { json += ",\"sense\":" + JSONWriter.quoted(sense) }
        if let partOfSpeech = definition.partOfSpeech { json += ",\"part_of_speech\":" + JSONWriter.quoted(partOfSpeech) }
        if let phonetic = definition.phonetic { json += ",\"phonetic\":" + JSONWriter.quoted(phonetic) }
        json += ",\"slug\":" + JSONWriter.quoted(definition.slug)
        json += ",\"source\":" + JSONWriter.quoted(definition.sourceName)
        let status = site.termStatus(of: definition)
        if let status { json += ",\"status\":" + JSONWriter.quoted(status.status.rawValue) }
        if let source = sourceTerm(of: definition, site: site) {
            json += ",\"source_term\":{\"language\":" + JSONWriter.quoted(site.config.language) + ",\"word\":" + JSONWriter.quoted(source.title) + "}"
        }
        if let summary = definition.summary { json += ",\"summary\":" + JSONWriter.quoted(summary) }
        if let html = definition.summaryHTML { json += ",\"summary_html\":" + JSONWriter.quoted(html) }
        json += ",\"url\":" + JSONWriter.quoted(site.termURL(definition))
        if let use = status?.use { json += ",\"use\":" + JSONWriter.quoted(use) }
        return json + ",\"word\":" + JSONWriter.quoted(definition.word) + "}"
    }

    /// With `cards: {show_source_term: true}`, the default language's term of a term's concept, for a term of
    /// another language: what its card shows beside it.
    static func sourceTerm(of definition: TermDefinition, site: BuiltSite) -> TermDefinition? {
        guard site.config.cardsShowSourceTerm, !definition.key.language.isEmpty else { return nil }
        return site.conceptTerm(of: definition, in: site.config.language)
    }
}
