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
        guard record.page.kind == .glossaryEntry, let word = metadata.term, let key = TermKey(word)?.inLanguage(record.page.language), let definition = team[key],
            case .team(let index) = definition.origin, pages.indices.contains(index), pages[index] === record, usedOn(definition).isEmpty
        else { return nil }
        return Diagnostic(.unusedTerm(word: word), at: metadata.locations["term"] ?? .start(of: record.page.displayPath))
    }
}
