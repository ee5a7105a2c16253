extension SiteBuilder {
    /// The terms of a site: the team's definitions by key and alias, and every reference by key.
    public struct CollectedTerms: Sendable {
        public var team: [TermKey: TermDefinition]
        public var usage: [TermKey: [TermUse]]
        /// Every key to resolve: referenced ones, the team's own, and those `see_also` names.
        public var keys: [TermKey]
    }

    /// Stage (pure): the team's definitions and every reference, from the records.
    public static func collectTerms(_ records: [PageRecord]) -> (CollectedTerms, [Diagnostic]) {
        let (team, diagnostics) = teamDefinitions(records)
        let usage = collectReferences(records)
        var keys = Set(usage.keys)
        for definition in team.values {
            keys.insert(definition.key)
            for word in definition.seeAlso { if let key = TermKey(word) { keys.insert(key) } }
        }
        return (CollectedTerms(team: team, usage: usage, keys: keys.sorted()), diagnostics)
    }

    /// Stage (pure): the team's entries by key and by each alias.
    public static func teamDefinitions(_ records: [PageRecord]) -> ([TermKey: TermDefinition], [Diagnostic]) {
        var team: [TermKey: TermDefinition] = [:]
        var owners: [TermKey: SourceLocation] = [:]
        var diagnostics: [Diagnostic] = []
        for (index, record) in records.enumerated() where record.page.kind == .glossaryEntry {
            let metadata = record.page.metadata
            guard let word = metadata.term, let key = TermKey(word) else { continue }
            let summary = record.firstParagraph ?? ""
            let entry = DictionaryEntry(
                word: word, phonetic: metadata.phonetic,
                phonetics: metadata.phonetic.map { [DictionaryEntry.Phonetic(text: $0)] } ?? [],
                meanings: [
                    .init(
                        partOfSpeech: metadata.partOfSpeech ?? "", definitions: [.init(definition: summary)], synonyms: metadata.synonyms,
                        antonyms: metadata.antonyms)
                ])
            let aliases = metadata.aliases.compactMap(TermKey.init)
            let definition = TermDefinition(key: key, word: word, entries: [entry], origin: .team(pageIndex: index), aliases: aliases, seeAlso: metadata.seeAlso)
            let fileStart = SourceLocation.start(of: record.page.displayPath)
            let names: [(TermKey, SourceLocation)] =
                [(key, metadata.locations["term"] ?? fileStart)]
                + metadata.aliases.enumerated().compactMap { index, alias in
                    TermKey(alias).map { ($0, metadata.locations["aliases[\(index)]"] ?? metadata.locations["aliases"] ?? fileStart) }
                }
            for (name, location) in names {
                if let owner = owners[name] {
                    diagnostics.append(Diagnostic(.duplicateTerm(name: name.rawValue), at: location, notes: [Problem.firstDefinitionNote(name.rawValue, at: owner)]))
                    continue
                }
                owners[name] = location
                team[name] = definition
            }
        }
        return (team, diagnostics)
    }

    /// Stage (pure): every reference by key, in page order.
    public static func collectReferences(_ records: [PageRecord]) -> [TermKey: [TermUse]] {
        var usage: [TermKey: [TermUse]] = [:]
        for (index, record) in records.enumerated() {
            for reference in record.allReferences {
                usage[reference.key, default: []].append(TermUse(pageIndex: index, reference: reference))
            }
        }
        return usage
    }
}
