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
    /// `placed` is told where each term's row went (its index, and its first and end byte offsets).
    static func write<Output: TextOutput & ~Copyable>(
        _ export: GlossaryExport, into out: inout Output, placed: (Int, Int, Int) -> Void = { _, _, _ in }
    ) {
        append(columns, to: &out)
        for (index, term) in export.terms.enumerated() {
            let start = out.byteCount
            append(cells(term, language: export.language), to: &out)
            placed(index, start, out.byteCount)
        }
    }

    /// A term's row.
    static func row(_ term: GlossaryExport.Term, language: String) -> String {
        row(cells(term, language: language))
    }

    /// A term's cells, in the order of `columns`.
    static func cells(_ term: GlossaryExport.Term, language: String) -> [String] {
        let licenses = term.source.licenses.map { license in license.url.map { "\(license.name) (\($0))" } ?? license.name }
        let (definition, notes, sources) = term.definitionParts
        func marked(_ status: TermStatus) -> String {
            term.aliases.filter { TermKey($0).flatMap { term.statuses[$0.rawValue] } == status.rawValue }.joined(separator: "; ")
        }
        return [
            term.key, term.word, term.sense ?? "", term.slug, term.url, term.summary ?? "", definition, term.partOfSpeech ?? "",
            term.phonetic ?? "", term.audio.map(\.url).joined(separator: " "), term.aliases.joined(separator: "; "),
            term.forms.joined(separator: "; "), term.source.kind, term.source.urls.joined(separator: " "), licenses.joined(separator: "; "),
            term.pages.map(\.url).joined(separator: " "),
            TermKey(term.word).flatMap { term.statuses[$0.rawValue] } ?? "", term.use ?? "", marked(.deprecated), marked(.forbidden),
            notes.joined(separator: "\n"), sources.joined(separator: "\n"), term.language ?? language, term.concept ?? "",
        ]
    }

    static func row(_ cells: [String]) -> String {
        var out = ""
        append(cells, to: &out)
        return out
    }

    /// A row of `cells` appended to `out`.
    static func append<Output: TextOutput & ~Copyable>(_ cells: [String], to out: inout Output) {
        for (index, cell) in cells.enumerated() {
            if index > 0 { out.append(",") }
            append(cell: cell, to: &out)
        }
        out.append("\r\n")
    }

    static func cell(_ value: String) -> String {
        var out = ""
        append(cell: value, to: &out)
        return out
    }

    /// One field appended to `out`: the characters HTML hides (`HTML.isHidden`: control characters other than tab, LF
    /// and CR, the bidirectional overrides) dropped, then neutralised and quoted. The runs between what is dropped or
    /// doubled are appended whole (a term used on every page lists thousands of URLs in one cell).
    static func append<Output: TextOutput & ~Copyable>(cell value: String, to out: inout Output) {
        out.append("\"")
        var value = value
        value.withUTF8 { utf8 in
            /// How many bytes at `index` are dropped (0: the byte is kept).
            func dropped(at index: Int) -> Int {
                let byte = utf8[index]
                if byte < 0x20 && byte != UInt8(ascii: "\t") && byte != UInt8(ascii: "\n") && byte != UInt8(ascii: "\r") || byte == 0x7F { return 1 }
                return byte == 0xC2 || byte == 0xE2 ? HTML.hiddenWidth(utf8, at: index) : 0
            }
            var first = 0
            while first < utf8.count, case let width = dropped(at: first), width > 0 { first += width }
            if first < utf8.count, formulaStarts.contains(Unicode.Scalar(utf8[first])) { out.append("'") }
            var run = first
            var index = first
            while index < utf8.count {
                let width = dropped(at: index)
                guard width > 0 || utf8[index] == UInt8(ascii: "\"") else {
                    index += 1
                    continue
                }
                out.append(UnsafeBufferPointer(rebasing: utf8[run..<index]))
                if width == 0 {
                    // A quote, doubled: the first here, the second starts the next run.
                    out.append("\"")
                    run = index
                    index += 1
                } else {
                    index += width
                    run = index
                }
            }
            out.append(UnsafeBufferPointer(rebasing: utf8[run...]))
        }
        out.append("\"")
    }

    /// What makes a spreadsheet read a cell as a formula (OWASP's list).
    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]
}
