import Foundation

/// Reads a CSV file with a header row (RFC 4180: fields separated by commas, a field in double quotes may hold
/// commas, line breaks and `""` for a quote; CRLF or LF between rows; a UTF-8 byte order mark is skipped) into
/// entries, one a row: one row per term, in the language its `language` cell names.
///
/// Columns: `term` (or `word`), `language` (one of the site's; empty for the default), `concept`, `status`, `use`,
/// `aliases`, `deprecated`, `forbidden` (names joined with `; `), `part_of_speech`, `definition`, `notes` and
/// `sources` (one a line), `source_urls` (joined with a space); those `glossary.csv` has that the site makes again
/// (`key`, `slug`, `url`, `summary`, `forms`, `pages`, …) are read and left. Any other column is reported. A cell is
/// text, whatever it looks like (`=SUM(A1)` is kept as written); the `'` the export puts before a cell a spreadsheet
/// would read as a formula is taken off again.
enum CSVReader {
    struct Reading {
        var entries: [ImportedEntry] = []
        var diagnostics: [Diagnostic] = []
    }

    /// A field and where it starts.
    struct Cell {
        var text: String
        var line: Int
        var column: Int
    }

    /// The rows of `text`; nil and the place of a quote left open at the end.
    static func rows(_ text: String) -> (rows: [[Cell]], unclosed: (line: Int, column: Int)?) {
        var rows: [[Cell]] = []
        var row: [Cell] = []
        var field = ""
        var quoted = false
        var fieldStart = (line: 1, column: 1)
        var line = 1
        var column = 1
        var atFieldStart = true
        var scalars = text.unicodeScalars[...]
        if scalars.first == "\u{FEFF}" { scalars = scalars.dropFirst() }
        var iterator = scalars.makeIterator()
        var pending: Unicode.Scalar? = iterator.next()
        func endField() {
            row.append(Cell(text: field, line: fieldStart.line, column: fieldStart.column))
            field = ""
            atFieldStart = true
        }
        while let scalar = pending {
            pending = iterator.next()
            if atFieldStart {
                fieldStart = (line, column)
                atFieldStart = false
                if scalar == "\"" {
                    quoted = true
                    column += 1
                    continue
                }
            }
            if quoted {
                if scalar == "\"" {
                    if pending == "\"" {
                        field.unicodeScalars.append("\"")
                        pending = iterator.next()
                        column += 2
                    } else {
                        quoted = false
                        column += 1
                    }
                    continue
                }
                field.unicodeScalars.append(scalar)
                if scalar == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
                continue
            }
            switch scalar {
            case ",":
                endField()
                column += 1
            case "\r" where pending == "\n":
                continue
            case "\n", "\r":
                endField()
                rows.append(row)
                row = []
                line += 1
                column = 1
            default:
                field.unicodeScalars.append(scalar)
                column += 1
            }
        }
        if quoted { return (rows, fieldStart) }
        if !atFieldStart || !row.isEmpty { endField() }
        if !row.isEmpty { rows.append(row) }
        return (rows.filter { !($0.count == 1 && $0[0].text.isEmpty) }, nil)
    }

    static let mapped: Set<String> = [
        "word", "term", "definition", "part_of_speech", "aliases", "deprecated", "forbidden", "status", "use", "notes", "sources", "source_urls",
        "language", "concept",
    ]
    /// Columns of `glossary.csv` the site makes by itself.
    static let madeBySite: Set<String> = ["key", "sense", "slug", "url", "summary", "phonetic", "audio", "forms", "source", "licenses", "pages"]

    static func read(_ text: String, file: String, languages: SiteLanguages) -> Reading {
        var reading = Reading()
        let (rows, unclosed) = rows(text)
        if let unclosed {
            let location = SourceLocation(file: file, line: unclosed.line, column: unclosed.column)
            reading.diagnostics.append(Diagnostic(.importSyntax(detail: "a quoted CSV field is never closed"), at: location))
            return reading
        }
        guard let header = rows.first else { return reading }
        var columns: [String: Int] = [:]
        for (index, cell) in header.enumerated() {
            let name = cell.text.trimmingCharacters(in: .whitespaces).lowercased()
            if mapped.contains(name) {
                if columns[name] == nil { columns[name] = index }
            } else if !madeBySite.contains(name) {
                reading.diagnostics.append(
                    Diagnostic(.importUnmapped(what: "the column '\(cell.text)'"), at: SourceLocation(file: file, line: cell.line, column: cell.column)))
            }
        }
        guard let termColumn = columns["word"] ?? columns["term"] else {
            let location = SourceLocation(file: file, line: 1, column: 1)
            reading.diagnostics.append(Diagnostic(.importSyntax(detail: "the CSV file's header row has no 'word' or 'term' column"), at: location))
            return reading
        }
        for row in rows.dropFirst() {
            func value(_ column: String) -> String? {
                guard let index = columns[column], index < row.count else { return nil }
                let text = unescaped(row[index].text)
                return text.isEmpty ? nil : text
            }
            func list(_ column: String, separator: String = "; ") -> [String] {
                value(column).map { $0.components(separatedBy: separator).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty } }
                    ?? []
            }
            let location = SourceLocation(file: file, line: row.first?.line ?? 1, column: 1)
            guard let term = value(termColumn == columns["word"] ? "word" : "term") else {
                reading.diagnostics.append(Diagnostic(.importUnmapped(what: "a row with no term"), at: location))
                continue
            }
            let rowLanguage = value("language") ?? languages.defaultLanguage
            guard let language = ImportLanguage.code(rowLanguage, in: languages) else {
                reading.diagnostics.append(Diagnostic(ImportLanguage.unmapped("a row", rowLanguage, site: languages), at: location))
                continue
            }
            var entry = ImportedEntry(term: term, language: language, location: location)
            entry.concept = value("concept")
            if let status = value("status") {
                entry.status = TermStatus(rawValue: status.lowercased()) ?? TermStatus(tbxValue: status)
                if entry.status == nil {
                    reading.diagnostics.append(Diagnostic(.importUnmapped(what: "the status '\(status)'"), at: location))
                } else if entry.status == .preferred {
                    entry.status = nil
                }
            }
            entry.use = value("use")
            entry.deprecated = list("deprecated")
            entry.forbidden = list("forbidden")
            // glossary.csv lists the marked names among the aliases too, as an entry's aliases hold them.
            let marked = Set((entry.deprecated + entry.forbidden).compactMap(TermKey.init))
            entry.aliases = list("aliases").filter { TermKey($0).map { !marked.contains($0) } ?? false }
            entry.partOfSpeech = value("part_of_speech")
            entry.definition = value("definition") ?? ""
            entry.notes = list("notes", separator: "\n")
            entry.sources = list("sources", separator: "\n") + list("source_urls", separator: " ")
            reading.entries.append(entry)
        }
        return reading
    }

    /// A cell as it was before the export neutralised it: `'=SUM(A1)` → `=SUM(A1)`.
    static func unescaped(_ cell: String) -> String {
        guard cell.hasPrefix("'"), let next = cell.unicodeScalars.dropFirst().first, GlossaryCSVExport.formulaStarts.contains(next) else { return cell }
        return String(cell.dropFirst())
    }
}

/// A file's language codes against the site's (`fr-CA` is `fr`, as import compares them).
enum ImportLanguage {
    static func primary(_ language: String) -> String {
        String(language.lowercased().prefix { $0 != "-" && $0 != "_" })
    }

    /// The site's language `language` is: the code written alike, else the first with its primary subtag.
    static func code(_ language: String, in languages: SiteLanguages) -> String? {
        languages.codes.first { $0.lowercased() == language.lowercased() } ?? languages.codes.first { primary($0) == primary(language) }
    }

    /// What import says of a language the site is not in: `a row in 'it' (the site is in 'en', 'fr')`.
    static func unmapped(_ what: String, _ language: String, site languages: SiteLanguages) -> Problem {
        .importUnmapped(what: "\(what) in '\(language)' (the site is in " + languages.codes.map { "'\($0)'" }.joined(separator: ", ") + ")")
    }
}
