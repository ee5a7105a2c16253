import Foundation

/// `glossary.csv`: one row per term for spreadsheets, RFC 4180 (every field quoted, `""` for a quote, CRLF after
/// each row, a header row first), UTF-8.
///
/// A team entry's `Note: …` and `Source: …` paragraphs are in `notes` and `sources` (one a line), not in
/// `definition`; `status` is the term's own when its entry gives one, `deprecated` and `forbidden` the names it marks,
/// `language` its language (a team entry's glossary folder's), `concept` its `concept:` — what `glossary import` reads.
///
/// Spreadsheet-safe: a cell that would start with `=`, `+`, `-`, `@`, a tab or a carriage return (which
/// spreadsheets read as a formula) starts with `'` instead, so it is shown as text. Lists are joined with `; `
/// (names) or a space (URLs). `glossary.json` has the exact values.
enum GlossaryCSVExport {
    static let columns = [
        "key", "word", "sense", "slug", "url", "summary", "definition", "part_of_speech", "phonetic", "audio", "aliases", "forms", "source",
        "source_urls", "licenses", "pages", "status", "use", "deprecated", "forbidden", "notes", "sources", "language", "concept",
    ]

    static func text(_ export: GlossaryExport) -> String {
        String(decoding: data(export), as: UTF8.self)
    }

    /// `text(_:)` as UTF-8 bytes, made a row at a time into one block (the file is megabytes).
    static func data(_ export: GlossaryExport) -> Data {
        var bytes = GrowingBytes()
        write(export, into: &bytes)
        return bytes.data()
    }

    /// The file appended to `out` a row at a time, so that written to a `StreamedFile` it is never whole in memory.
    static func write<Output: TextOutput & ~Copyable>(_ export: GlossaryExport, into out: inout Output) {
        out.append(row(columns))
        for term in export.terms { out.append(row(term, language: export.language)) }
    }

    /// A term's row.
    static func row(_ term: GlossaryExport.Term, language: String) -> String {
        let licenses = term.source.licenses.map { license in license.url.map { "\(license.name) (\($0))" } ?? license.name }
        let (definition, notes, sources) = term.definitionParts
        func marked(_ status: TermStatus) -> String {
            term.aliases.filter { TermKey($0).flatMap { term.statuses[$0.rawValue] } == status.rawValue }.joined(separator: "; ")
        }
        return row([
            term.key, term.word, term.sense ?? "", term.slug, term.url, term.summary ?? "", definition, term.partOfSpeech ?? "",
            term.phonetic ?? "", term.audio.map(\.url).joined(separator: " "), term.aliases.joined(separator: "; "),
            term.forms.joined(separator: "; "), term.source.kind, term.source.urls.joined(separator: " "), licenses.joined(separator: "; "),
            term.pages.map(\.url).joined(separator: " "),
            TermKey(term.word).flatMap { term.statuses[$0.rawValue] } ?? "", term.use ?? "", marked(.deprecated), marked(.forbidden),
            notes.joined(separator: "\n"), sources.joined(separator: "\n"), term.language ?? language, term.concept ?? "",
        ])
    }

    static func row(_ cells: [String]) -> String {
        cells.map(cell).joined(separator: ",") + "\r\n"
    }

    /// One field: the characters HTML hides (`HTML.isHidden`: control characters other than tab, LF and CR, the
    /// bidirectional overrides) dropped, then neutralised and quoted. On bytes (a term used on every page lists
    /// thousands of URLs in one cell).
    static func cell(_ value: String) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "\"")]
        bytes.reserveCapacity(value.utf8.count + 4)
        var value = value
        value.withUTF8 { utf8 in
            var index = 0
            while index < utf8.count {
                let byte = utf8[index]
                if byte == UInt8(ascii: "\"") {
                    bytes += [byte, byte]
                } else if byte < 0x20 && byte != UInt8(ascii: "\t") && byte != UInt8(ascii: "\n") && byte != UInt8(ascii: "\r") || byte == 0x7F {
                    // dropped
                } else if byte == 0xC2 || byte == 0xE2, case let width = HTML.hiddenWidth(utf8, at: index), width > 0 {
                    index += width
                    continue
                } else {
                    bytes.append(byte)
                }
                index += 1
            }
        }
        if bytes.count > 1, formulaStarts.contains(Unicode.Scalar(bytes[1])) { bytes.insert(UInt8(ascii: "'"), at: 1) }
        bytes.append(UInt8(ascii: "\""))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// What makes a spreadsheet read a cell as a formula (OWASP's list).
    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]
}
