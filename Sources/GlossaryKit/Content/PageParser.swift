import Foundation

/// Stage (pure): one markdown file's bytes → its record and its markdown tree.
public enum PageParser {
    /// A parsed file: its record, and the tree its HTML is rendered from (nil for a draft left out).
    public struct Parsed: @unchecked Sendable {
        public var record: PageRecord
        public var document: MarkdownDocument?
    }

    /// Parses `data` as `file`. A page that can't be published (text that is not UTF-8, broken front matter)
    /// gives nil and its problems; otherwise the problems are in the record. Drafts are parsed for their front
    /// matter only, unless `drafts`. A file in the glossary folder of one of `languages` is a team entry.
    public static func parse(
        _ data: Data, file: SiteSource.File, drafts: Bool, autolink: AutolinkSettings? = nil, languages: SiteLanguages = .init(codes: [])
    ) -> (Parsed?, [Diagnostic]) {
        let text: String
        switch SiteSource.decodeUTF8(data, file: file.displayPath) {
        case .failure(let diagnostic): return (nil, [diagnostic])
        case .success(let decoded): text = decoded
        }
        return parse(text: text, hash: Fingerprint.of(bytes: data), file: file, drafts: drafts, autolink: autolink, languages: languages)
    }

    /// With `autolink`, a page or a glossary entry links plain occurrences of terms as its mode says (an entry never
    /// to itself).
    public static func parse(
        text: String, hash: Fingerprint, file: SiteSource.File, drafts: Bool, autolink: AutolinkSettings? = nil,
        languages: SiteLanguages = .init(codes: [])
    ) -> (Parsed?, [Diagnostic]) {
        let parsed = PageMetadata.parse(source: text, file: file.displayPath)
        var diagnostics = parsed.diagnostics
        if diagnostics.contains(where: { $0.severity == .error }) { return (nil, diagnostics) }
        let isEntry = Page.isEntry(contentPath: file.contentPath, languages: languages)
        let page = Page(kind: isEntry ? .glossaryEntry : .page, displayPath: file.displayPath, contentPath: file.contentPath, metadata: parsed.metadata)
        // The page's terms are its language's.
        let language = languages.keyLanguage(ofContentPath: file.contentPath)
        let termsLocation = parsed.metadata.locations["terms"] ?? .start(of: file.displayPath)
        let picks = TermKey.sensePicks(parsed.metadata.senses)
        let declared = parsed.metadata.terms.compactMap { word -> TermReference? in
            if let length = TermKey.excessLength(of: word) {
                diagnostics.append(Diagnostic(.termTooLong(word: word, length: length, limit: TermKey.maximumWordLength), at: termsLocation))
                return nil
            }
            return TermKey(word).map { TermReference(shown: word, word: word, key: picks[$0] ?? $0, location: termsLocation) }
        }
        if isEntry {
            diagnostics += entryNameProblems(parsed.metadata, file: file)
        }
        guard !parsed.metadata.draft || drafts else {
            let record = PageRecord(
                page: page, references: [], declaredTerms: declared, links: [], firstHeading: nil, startsWithTitleHeading: false,
                firstParagraph: nil, diagnostics: diagnostics, contentHash: hash, hasBody: false)
            return (Parsed(record: record.localized(language), document: nil), [])
        }
        let document = MarkdownDocument(
            markdown: parsed.body, file: file.displayPath, firstLine: parsed.bodyFirstLine,
            autolink: autolink?.autolinker(for: parsed.metadata, isEntry: isEntry, language: language), statusCheck: autolink?.statuses[language],
            statusEntry: isEntry ? file.contentPath : nil)
        diagnostics += document.diagnostics
        var references = document.references
        if !picks.isEmpty {
            for index in references.indices { references[index].key = picks[references[index].key] ?? references[index].key }
        }
        var summaryText: String?
        var summaryHTML: String?
        if isEntry {
            // The card's text: `summary:` when given (markdown, its first paragraph), else the body's first paragraph.
            if let summary = parsed.metadata.summary {
                let location = parsed.metadata.locations["summary"]
                let summaryDocument = MarkdownDocument(markdown: summary, file: file.displayPath, firstLine: location?.line ?? 1)
                summaryText = summaryDocument.firstParagraphText()
                summaryHTML = summaryDocument.firstParagraphHTML()
            } else {
                summaryText = document.firstParagraphText()
                summaryHTML = document.firstParagraphHTML()
            }
        }
        let record = PageRecord(
            page: page, references: references, declaredTerms: declared, links: document.links, firstHeading: document.firstHeading,
            startsWithTitleHeading: document.startsWithTitleHeading, firstParagraph: summaryText, summaryHTML: summaryHTML,
            autolink: autolink?.fingerprint(for: parsed.metadata), headings: document.headings,
            searchText: isEntry ? .empty : document.searchTerms(), diagnostics: diagnostics, contentHash: hash, hasBody: true)
        return (Parsed(record: record.localized(language), document: document), [])
    }

    /// What is wrong with an entry's names: no `term:`, one that names no word, or a term or alias longer than a
    /// reference may be (which nothing could link to). Each is an error at the name.
    private static func entryNameProblems(_ metadata: PageMetadata, file: SiteSource.File) -> [Diagnostic] {
        guard let term = metadata.term else { return [Diagnostic(.entryMissingTerm, at: .start(of: file.displayPath))] }
        let termLocation = metadata.locations["term"] ?? .start(of: file.displayPath)
        guard TermKey(term) != nil else { return [Diagnostic(.entryEmptyTerm, at: termLocation)] }
        // `aliases` ends with the deprecated and forbidden names; each list's items are located under its own key.
        let otherNames = metadata.deprecated.count + metadata.forbidden.count
        let lists = [("aliases", Array(metadata.aliases.dropLast(otherNames))), ("deprecated", metadata.deprecated), ("forbidden", metadata.forbidden)]
        var named = [(term, termLocation)]
        for (key, names) in lists {
            named += names.enumerated().map { ($1, metadata.locations["\(key)[\($0)]"] ?? metadata.locations[key] ?? termLocation) }
        }
        return named.compactMap { name, location in
            TermKey.excessLength(of: name).map { Diagnostic(.termTooLong(word: name, length: $0, limit: TermKey.maximumWordLength), at: location) }
        }
    }
}
