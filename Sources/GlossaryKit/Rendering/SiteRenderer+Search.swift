import Foundation

/// The site search's documents (see `SearchIndex`): the value its files are made from.
extension SiteRenderer {
    /// What the index holds, in order: the content pages, the generated section pages, the terms.
    func searchDocuments(_ definitions: [TermDefinition]) -> [SearchDocument] {
        var documents: [SearchDocument] = []
        let records = site.pages.filter { $0.page.kind == .page }
        documents.reserveCapacity(records.count + site.navigation.generatedSections.count + definitions.count)
        for record in records {
            let url = record.page.urlPath
            // A page's own title heading is its title field already.
            let headings = record.startsWithTitleHeading ? Array(record.headings.dropFirst()) : record.headings
            documents.append(
                SearchDocument(
                    kind: .page, title: record.title, urlPath: URLPath.encoded(url), trail: site.navigation.trail(forURL: url).joined(separator: " › "),
                    summary: record.page.metadata.description, headings: headings.filter { $0.level == 2 || $0.level == 3 },
                    headingsText: headings.map(\.text).joined(separator: "\n"), text: record.searchText))
        }
        for node in site.navigation.generatedSections {
            let url = site.navigation.nodes[node].urlPath ?? ""
            documents.append(
                SearchDocument(
                    kind: .page, title: site.navigation.nodes[node].title, urlPath: URLPath.encoded(url),
                    trail: site.navigation.trail(forURL: url).joined(separator: " › "), summary: nil, headings: [], headingsText: "", text: .empty))
        }
        for definition in definitions {
            documents.append(
                SearchDocument(
                    kind: .term, title: definition.word, urlPath: site.config.siteLanguages.termPath(definition.key), trail: "Glossary",
                    summary: definition.summary,
                    headings: [], headingsText: definition.aliases.map(\.rawValue).joined(separator: "\n"),
                    text: SearchTerms(text: Self.definitionText(definition))))
        }
        return documents
    }

    /// Every sense of a term's definition, one a line.
    static func definitionText(_ definition: TermDefinition) -> String {
        definition.entries.flatMap(\.meanings).flatMap(\.definitions).map(\.definition).joined(separator: "\n")
    }
}
