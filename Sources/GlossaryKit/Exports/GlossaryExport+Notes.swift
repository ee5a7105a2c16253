extension GlossaryExport.Term {
    /// The definition text without a team entry's notes and sources, and those: the paragraphs that start `Note: `
    /// and `Source: ` (as `glossary import` writes a termbase's) are read back as notes and sources.
    var definitionParts: (definition: String, notes: [String], sources: [String]) {
        guard source.kind == "glossary", Self.hasLine(startingWith: [ImportedEntry.notePrefix, ImportedEntry.sourcePrefix], in: definitionText) else {
            return (definitionText, [], [])
        }
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

    /// Whether a line of `text` starts with one of `prefixes`, on bytes (every entry's definition is looked at).
    static func hasLine(startingWith prefixes: [String], in text: String) -> Bool {
        let utf8 = text.utf8
        var start = utf8.startIndex
        while true {
            let rest = utf8[start...]
            if prefixes.contains(where: { rest.starts(with: $0.utf8) }) { return true }
            guard let newline = rest.firstIndex(of: UInt8(ascii: "\n")) else { return false }
            start = utf8.index(after: newline)
        }
    }
}
