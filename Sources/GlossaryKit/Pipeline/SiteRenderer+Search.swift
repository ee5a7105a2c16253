import Foundation

/// The site search's files (see `SearchIndex`): made once per build, when the first of them is rendered, from
/// exactly what `OutputPlan.Inputs.search` covers.
extension SiteRenderer {
    /// What the index holds, in order: the content pages, the generated section pages, the terms. With a memo
    /// (the preview server's), a page's document is the last build's while its record and the navigation are.
    func searchDocuments(_ definitions: [TermDefinition]) -> [SearchDocument] {
        var documents: [SearchDocument] = []
        let previous = searchMemo?.pageDocuments(navigation: site.navigationInputs) ?? (records: [], documents: [])
        let records = site.pages.filter { $0.page.kind == .page }
        documents.reserveCapacity(records.count + site.navigation.generatedSections.count + definitions.count)
        // The last build's document of a record is at the same place while the pages are as many; else found by path.
        let places: [String: Int]? =
            previous.records.count == records.count
            ? nil : Dictionary(previous.records.enumerated().map { ($1.page.contentPath, $0) }, uniquingKeysWith: { first, _ in first })
        for (position, record) in records.enumerated() {
            if let place = places == nil ? position : places?[record.page.contentPath], previous.records[place] === record {
                documents.append(previous.documents[place])
                continue
            }
            let url = record.page.urlPath
            // A page's own title heading is its title field already.
            let headings = record.startsWithTitleHeading ? Array(record.headings.dropFirst()) : record.headings
            documents.append(
                SearchDocument(
                    kind: .page, title: record.title, urlPath: url, trail: site.navigation.trail(forURL: url).joined(separator: " › "),
                    summary: record.page.metadata.description, headings: headings.filter { $0.level == 2 || $0.level == 3 },
                    headingsText: headings.map(\.text).joined(separator: "\n"), text: record.searchText))
        }
        for node in site.navigation.generatedSections {
            let url = site.navigation.nodes[node].urlPath ?? ""
            documents.append(
                SearchDocument(
                    kind: .page, title: site.navigation.nodes[node].title, urlPath: url,
                    trail: site.navigation.trail(forURL: url).joined(separator: " › "), summary: nil, headings: [], headingsText: "", text: .empty))
        }
        let fields =
            searchMemo?.definitionFields(definitions, text: Self.definitionText) ?? definitions.map { SearchTerms(text: Self.definitionText($0)) }
        for (definition, field) in zip(definitions, fields) {
            documents.append(
                SearchDocument(
                    kind: .term, title: definition.word, urlPath: "terms/\(definition.slug)/", trail: "Glossary", summary: definition.summary,
                    headings: [], headingsText: definition.aliases.map(\.rawValue).joined(separator: "\n"), text: field))
        }
        // Kept whole (the pages' come first), so no copy of the list is made for the memo.
        searchMemo?.keep(records: records, documents: documents, navigation: site.navigationInputs)
        return documents
    }

    /// Every sense of a term's definition, one a line.
    static func definitionText(_ definition: TermDefinition) -> String {
        definition.entries.flatMap(\.meanings).flatMap(\.definitions).map(\.definition).joined(separator: "\n")
    }

    /// One file of the search index.
    public func searchFile(_ path: String, definitions: [TermDefinition]) -> Data {
        Data(memo.searchFile(path) { SearchIndex(documents: searchDocuments(definitions), jobs: jobs, memo: searchMemo) }.utf8)
    }
}
