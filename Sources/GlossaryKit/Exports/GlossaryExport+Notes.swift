extension GlossaryExport.Term {
    /// The definition text without a team entry's notes and sources, and those: the paragraphs that start `Note: `
    /// and `Source: ` (as `glossary import` writes a termbase's) are read back as notes and sources.
    var definitionParts: (definition: String, notes: [String], sources: [String]) {
        guard source.kind == "glossary" else { return (definitionText, [], []) }
        var definition: [Substring] = []
        var notes: [String] = []
        var sources: [String] = []
        for line in definitionText.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(ImportedEntry.notePrefix) {
                notes.append(String(line.dropFirst(ImportedEntry.notePrefix.count)))
            } else if line.hasPrefix(ImportedEntry.sourcePrefix) {
                sources.append(String(line.dropFirst(ImportedEntry.sourcePrefix.count)))
            } else {
                definition.append(line)
            }
        }
        return (definition.joined(separator: "\n"), notes, sources)
    }
}
