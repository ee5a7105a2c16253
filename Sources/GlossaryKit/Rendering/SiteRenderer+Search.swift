import Foundation

/// The site search's documents (see `SearchIndex`): the value its files are made from.
extension SiteRenderer {
    /// What `language`'s index holds (`searchSources`), in order: the content pages, the generated section pages, the
    /// terms.
    func searchDocuments(_ definitions: [TermDefinition], in language: String) -> [SearchDocument] {
        let (records, sections, definitions) = Self.searchSources(site: site, definitions: definitions, language: language)
        var documents: [SearchDocument] = []
        documents.reserveCapacity(records.count + sections.count + definitions.count)
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
        for node in sections {
            let url = site.navigation.nodes[node].urlPath ?? ""
            documents.append(
                SearchDocument(
                    kind: .page, title: site.navigation.nodes[node].title, urlPath: URLPath.encoded(url),
                    trail: site.navigation.trail(forURL: url).joined(separator: " › "), summary: nil, headings: [], headingsText: "", text: .empty))
        }
        let trail = text("glossary", in: language)
        let languages = site.config.siteLanguages
        // A dictionary's hundreds of thousands of definitions are tokenized on every core.
        documents += definitions.parallelMap(jobs: jobs) { definition in
            SearchDocument(
                kind: .term, title: definition.word, urlPath: languages.termPath(definition.key), trail: trail, summary: definition.summary,
                headings: [], headingsText: definition.aliases.map(\.rawValue).joined(separator: "\n"),
                text: SearchTerms(text: Self.definitionText(definition)))
        }
        return documents
    }

    /// What `language`'s search index is made of: the content pages, generated sections and term pages whose address is
    /// in its folder (`SiteLanguages.language(ofPath:)`), in the site's order. On a site in one language, everything.
    static func searchSources(site: BuiltSite, definitions: [TermDefinition], language: String) -> (
        records: [PageRecord], sections: [Int], definitions: [TermDefinition]
    ) {
        let languages = site.config.siteLanguages
        let records = site.pages.filter { $0.page.kind == .page }
        guard languages.isMultilingual else { return (records, site.navigation.generatedSections, definitions) }
        let holds = { (url: String) in languages.language(ofPath: url) == language }
        return (
            records.filter { holds($0.page.urlPath) }, site.navigation.generatedSections.filter { holds(site.navigation.nodes[$0].urlPath ?? "") },
            definitions.filter { holds(languages.termPath($0.key)) }
        )
    }

    /// Every sense of a term's definition, one a line.
    static func definitionText(_ definition: TermDefinition) -> String {
        definition.entries.flatMap(\.meanings).flatMap(\.definitions).map(\.definition).joined(separator: "\n")
    }
}
