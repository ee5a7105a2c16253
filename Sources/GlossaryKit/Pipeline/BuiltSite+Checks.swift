extension BuiltSite {
    /// Team entries that no content page uses, by their term or an alias (in its text or its front matter
    /// `terms:`), at the entry's `term:`. Uses by other glossary entries don't count: the question is whether the
    /// documentation still needs the entry.
    func unusedTermDiagnostics() -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for record in pages where record.page.kind == .glossaryEntry {
            let metadata = record.page.metadata
            guard let word = metadata.term, let key = TermKey(word), let definition = team[key],
                case .team(let index) = definition.origin, pages[index] === record, usedOn(definition).isEmpty
            else { continue }
            diagnostics.append(Diagnostic(.unusedTerm(word: word), at: metadata.locations["term"] ?? .start(of: record.page.displayPath)))
        }
        return diagnostics
    }
}
