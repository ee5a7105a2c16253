/// `glossary.csv`: one row per term for spreadsheets, RFC 4180 (every field quoted, `""` for a quote, CRLF after
/// each row, a header row first), UTF-8.
///
/// Spreadsheet-safe: a cell that would start with `=`, `+`, `-`, `@`, a tab or a carriage return (which
/// spreadsheets read as a formula) starts with `'` instead, so it is shown as text. Lists are joined with `; `
/// (names) or a space (URLs). `glossary.json` has the exact values.
enum GlossaryCSVExport {
    static let columns = [
        "key", "word", "sense", "slug", "url", "summary", "definition", "part_of_speech", "phonetic", "audio", "aliases", "forms", "source",
        "source_urls", "licenses", "pages",
    ]

    static func text(_ export: GlossaryExport) -> String {
        var text = row(columns)
        for term in export.terms {
            let licenses = term.source.licenses.map { license in license.url.map { "\(license.name) (\($0))" } ?? license.name }
            text += row([
                term.key, term.word, term.sense ?? "", term.slug, term.url, term.summary ?? "", term.definitionText, term.partOfSpeech ?? "",
                term.phonetic ?? "", term.audio.map(\.url).joined(separator: " "), term.aliases.joined(separator: "; "),
                term.forms.joined(separator: "; "), term.source.kind, term.source.urls.joined(separator: " "), licenses.joined(separator: "; "),
                term.pages.map(\.url).joined(separator: " "),
            ])
        }
        return text
    }

    static func row(_ cells: [String]) -> String {
        cells.map(cell).joined(separator: ",") + "\r\n"
    }

    /// One field: control characters other than tab, LF and CR dropped, then neutralised and quoted.
    static func cell(_ value: String) -> String {
        var text = ""
        text.reserveCapacity(value.utf8.count + 3)
        for scalar in value.unicodeScalars {
            if scalar == "\"" {
                text += "\"\""
            } else if scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r" || scalar.value == 0x7F {
                continue
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        if let first = text.unicodeScalars.first, formulaStarts.contains(first) { text = "'" + text }
        return "\"" + text + "\""
    }

    /// What makes a spreadsheet read a cell as a formula (OWASP's list).
    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]
}
