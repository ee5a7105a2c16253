extension SiteBuilder {
    /// The terms of a site: the team's definitions by key and alias, and every reference by key.
    public struct CollectedTerms: Sendable {
        public var team: [TermKey: TermDefinition]
        public var usage: [TermKey: [TermUse]]
        /// Words with several senses and none without one, by the word's key: a bare reference to one is ambiguous.
        public var senses: [TermKey: [TermDefinition]] = [:]
        /// Every key to resolve: referenced ones, the team's own, and those `see_also` names. A key only auto-linking
        /// found is not among them (it links only where something else defines it): plain text never makes a build
        /// look a word up.
        public var keys: [TermKey]
    }

    /// Stage (pure): the team's definitions and every reference, from the records (on `jobs` cores).
    public static func collectTerms(_ records: [PageRecord], jobs: Int = 1) -> (CollectedTerms, [Diagnostic]) {
        let (team, senses, diagnostics) = teamDefinitions(records, jobs: jobs)
        let usage = collectReferences(records)
        var keys = Set(usage.filter { $0.value.contains { !records[$0.pageIndex].reference(at: $0.referenceIndex).isAutomatic } }.keys)
        for definition in team.values {
            keys.insert(definition.key)
            // A runaway name is not looked up: it stays unknown, and says so where see_also is checked.
            for word in definition.seeAlso where !SeeAlso.isLink(word) && TermKey.excessLength(of: word) == nil {
                if let key = TermKey(word)?.inLanguage(definition.key.language) { keys.insert(key) }
            }
        }
        return (CollectedTerms(team: team, usage: usage, senses: senses, keys: keys.sorted()), diagnostics)
    }

    /// Stage (pure): the team's entries by key and by each alias.
    ///
    /// Terms are claimed first, in path order (a second entry of a term is a `duplicate-term`), then aliases: an
    /// alias that is another entry's term or alias is an `alias-collision` and links nowhere new. An alias equal to
    /// its own entry's term, or repeated in one entry, says nothing new and is let be.
    ///
    /// An entry with a `sense:` is keyed by its word and sense (`crane (machine)`). The bare word stands for the
    /// entry without a sense if there is one, else for the word's only sense; a word with several senses and none
    /// without one stands for its first sense (by sense) and is listed in the senses returned, so that bare
    /// references to it can be warned about.
    public static func teamDefinitions(
        _ records: [PageRecord], jobs: Int = 1
    ) -> ([TermKey: TermDefinition], [TermKey: [TermDefinition]], [Diagnostic]) {
        var team: [TermKey: TermDefinition] = [:]
        /// Who holds each name: where it is written, and the entry's word when the name is one of its aliases.
        var owners: [TermKey: (location: SourceLocation, aliasOf: String?, entry: Int)] = [:]
        var diagnostics: [Diagnostic] = []
        var entries: [(index: Int, definition: TermDefinition)] = []
        // Each entry's definition, made on every core; who holds which name is then decided in path order.
        let made = Array(records.indices).parallelMap(jobs: jobs) { index -> (TermDefinition, SourceLocation)? in
            let record = records[index]
            guard record.page.kind == .glossaryEntry else { return nil }
            let metadata = record.page.metadata
            // An entry's names are terms of its language.
            let language = record.page.language
            guard let word = metadata.term, let wordKey = TermKey(word)?.inLanguage(language) else { return nil }
            guard let key = metadata.sense.map({ TermKey.sense(word: word, sense: $0)?.inLanguage(language) }) ?? wordKey else { return nil }
            let summary = record.firstParagraph ?? ""
            let entry = DictionaryEntry(
                word: word, phonetic: metadata.phonetic,
                phonetics: metadata.phonetic.map { [DictionaryEntry.Phonetic(text: $0)] } ?? [],
                meanings: [
                    .init(
                        partOfSpeech: metadata.partOfSpeech ?? "", definitions: [.init(definition: summary)], synonyms: metadata.synonyms,
                        antonyms: metadata.antonyms)
                ])
            let aliases = metadata.aliases.compactMap { TermKey($0)?.inLanguage(language) }
            var definition = TermDefinition(
                key: key, word: word, entries: [entry], origin: .team(pageIndex: index), aliases: aliases, seeAlso: metadata.seeAlso)
            definition.sense = metadata.sense
            definition.summaryHTML = record.summaryHTML
            definition.caseSensitive = metadata.caseSensitive
            return (definition, metadata.locations["term"] ?? .start(of: record.page.displayPath))
        }
        // One name an entry at least (pages among the records make none).
        let entryCount = made.count { $0 != nil }
        team.reserveCapacity(entryCount)
        owners.reserveCapacity(entryCount)
        for (index, made) in made.enumerated() {
            guard let (definition, location) = made else { continue }
            let key = definition.key
            if let owner = owners[key] {
                diagnostics.append(
                    Diagnostic(.duplicateTerm(name: key.rawValue), at: location, notes: [Problem.firstDefinitionNote(key.rawValue, at: owner.location)]))
                continue
            }
            owners[key] = (location, nil, index)
            team[key] = definition
            entries.append((index, definition))
        }
        // Bare words of senses: the entry without a sense keeps its word; otherwise the word's senses share it.
        var senses: [TermKey: [TermDefinition]] = [:]
        for (_, definition) in entries where definition.sense != nil {
            guard let wordKey = TermKey(definition.word)?.inLanguage(definition.key.language), team[wordKey] == nil else { continue }
            senses[wordKey, default: []].append(definition)
        }
        for (wordKey, definitions) in senses {
            let sorted = definitions.sorted { ($0.sense ?? "") < ($1.sense ?? "") }
            team[wordKey] = sorted[0]
            owners[wordKey] = owners[wordKey] ?? owners[sorted[0].key]
            senses[wordKey] = sorted
        }
        senses = senses.filter { $0.value.count > 1 }
        for (index, definition) in entries {
            let record = records[index]
            let metadata = record.page.metadata
            let fileStart = SourceLocation.start(of: record.page.displayPath)
            for (position, alias) in metadata.aliases.enumerated() {
                guard let name = TermKey(alias)?.inLanguage(record.page.language) else { continue }
                let location = metadata.locations["aliases[\(position)]"] ?? metadata.locations["aliases"] ?? fileStart
                guard let owner = owners[name] else {
                    owners[name] = (location, definition.word, index)
                    team[name] = definition
                    continue
                }
                guard owner.entry != index else { continue }
                let other = owner.aliasOf ?? team[name]?.word ?? name.rawValue
                let problem = Problem.aliasCollision(alias: alias, other: other, otherIsAlias: owner.aliasOf != nil)
                let note = Problem.collidingNameNote(owner.aliasOf == nil ? other : name.rawValue, aliasOf: owner.aliasOf, at: owner.location)
                diagnostics.append(Diagnostic(problem, at: location, notes: [note]))
            }
        }
        return (team, senses, diagnostics)
    }

    /// Stage (pure): every reference by key, in page order, as places in `records`.
    public static func collectReferences(_ records: [PageRecord]) -> [TermKey: [TermUse]] {
        var usage: [TermKey: [TermUse]] = [:]
        for (index, record) in records.enumerated() {
            for (place, reference) in record.allReferences.enumerated() {
                usage[reference.key, default: []].append(TermUse(pageIndex: index, referenceIndex: place))
            }
        }
        return usage
    }
}
