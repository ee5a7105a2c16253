import Foundation

/// `glossary import`: a TBX or CSV file read into team entries, and the files they become — one an entry, in its
/// language's glossary folder (`content/glossary/`, `content/fr/glossary/`), named for the term's slug.
public struct GlossaryImport: Sendable {
    /// An entry file to write: its path below the site's folder and its text; `exists` when a file is there already.
    public struct File: Sendable, Hashable {
        public var path: String
        public var text: String
        public var exists: Bool
    }

    public var entries: [ImportedEntry]
    public var files: [File]
    public var diagnostics: [Diagnostic]

    /// Reads `data` (TBX when `file` ends in `.tbx` or `.xml`, else CSV) for the site in `source`, in `languages`
    /// (what is in another language is reported). With `force`, existing entries are replaced; without it each is an
    /// `import-exists` error and is left as it is.
    public static func plan(_ data: Data, file: String, source: URL, languages: SiteLanguages, force: Bool) -> GlossaryImport {
        let lowered = file.lowercased()
        let entries: [ImportedEntry]
        var diagnostics: [Diagnostic]
        if lowered.hasSuffix(".tbx") || lowered.hasSuffix(".xml") {
            let reading = TBXReader.read(data, file: file, languages: languages)
            (entries, diagnostics) = (reading.entries, reading.diagnostics)
        } else {
            guard let text = String(data: data, encoding: .utf8) else {
                return GlossaryImport(
                    entries: [], files: [], diagnostics: [Diagnostic(.encoding, at: SourceLocation(file: file, line: 1, column: 1))])
            }
            let reading = CSVReader.read(text, file: file, languages: languages)
            (entries, diagnostics) = (reading.entries, reading.diagnostics)
        }
        var files: [File] = []
        var taken: [String: SourceLocation] = [:]
        for entry in entries {
            guard let key = TermKey(entry.term) else { continue }
            let path = "content/" + languages.glossaryFolder(entry.language) + key.slug + ".md"
            if let first = taken[path] {
                diagnostics.append(
                    Diagnostic(.duplicateTerm(name: entry.term), at: entry.location, notes: [Problem.firstDefinitionNote(entry.term, at: first)]))
                continue
            }
            taken[path] = entry.location
            let exists = FileManager.default.fileExists(atPath: source.appendingPathComponent(path).path)
            if exists && !force {
                diagnostics.append(Diagnostic(.importExists(path: path), at: entry.location))
                continue
            }
            files.append(File(path: path, text: entry.markdown, exists: exists))
        }
        return GlossaryImport(entries: entries, files: files, diagnostics: diagnostics)
    }

    /// Writes the files (each atomically); the paths that could not be written, with why.
    public func write(into source: URL) -> [(path: String, reason: String)] {
        var failures: [(String, String)] = []
        for file in files {
            let url = source.appendingPathComponent(file.path)
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.text.utf8).write(to: url, options: .atomic)
            } catch {
                failures.append((file.path, error.localizedDescription))
            }
        }
        return failures
    }
}
