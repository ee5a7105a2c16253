extension BuiltSite {
    /// Team entries that no content page uses, by their term or an alias (in its text or its front matter
    /// `terms:`), at the entry's `term:`. Uses by other glossary entries don't count: the question is whether the
    /// documentation still needs the entry.
    func unusedTermDiagnostics() -> [Diagnostic] {
        pages.compactMap(unusedTermDiagnostic(of:))
    }

    /// `unused-term` for a team entry no content page uses; nil for anything else.
    func unusedTermDiagnostic(of record: PageRecord) -> Diagnostic? {
        let metadata = record.page.metadata
        guard record.page.kind == .glossaryEntry, let word = metadata.term, let key = TermKey(word)?.inLanguage(record.page.language),
            let definition = team[key],
            case .team(let index) = definition.origin, pages.indices.contains(index), pages[index] === record, usedOn(definition).isEmpty
        else { return nil }
        return Diagnostic(.unusedTerm(word: word), at: metadata.locations["term"] ?? .start(of: record.page.displayPath))
    }
}

extension BuiltSite {
    /// `concept-untranslated` for each concept the team names without an entry in some of the site's languages, at
    /// the `concept:` of its entry in the first language (in the site's order) that has one: a note, or a warning with
    /// `require_all_languages`.
    func conceptDiagnostics() -> [Diagnostic] {
        let languages = config.siteLanguages
        guard languages.isMultilingual else { return [] }
        return concepts.keys.sorted().compactMap { concept in
            let terms = concepts[concept] ?? [:]
            let missing = languages.codes.filter { terms[languages.keyLanguage($0)] == nil }
            guard !missing.isEmpty, let first = languages.codes.lazy.compactMap({ terms[languages.keyLanguage($0)] }).first,
                case .team(let index) = first.origin
            else { return nil }
            let page = pages[index].page
            var diagnostic = Diagnostic(
                .conceptUntranslated(concept: concept, missing: missing), at: page.metadata.locations["concept"] ?? .start(of: page.displayPath))
            if config.requireAllLanguages { diagnostic.severity = .warning }
            return diagnostic
        }
    }
}
