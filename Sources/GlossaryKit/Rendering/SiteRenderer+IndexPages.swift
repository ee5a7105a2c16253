import Foundation

/// The contexts of a paged A–Z index (`TermIndexPages`): its overview and its letter pages. Both fill the `terms`
/// template as the single index page does: `alphabet` (each present letter linking its first page), `letters` (a
/// letter page's one letter with its entries; the overview's every letter without them) and, per letter, `pages`,
/// the jump bar (`prefix`, `url`, `current`).
extension SiteRenderer {
    /// The entry point of a paged index: every letter and the pages it has.
    func indexOverviewContext(_ index: TermIndexPages) -> MustacheValue {
        let language = site.config.siteLanguages.language(ofPath: index.folder)
        var context = common(title: text("glossary", in: language), url: index.folder, kind: "terms")
        context["letters"] = .array(index.letters.map { letterValue(index, $0.letter, pages: $0.pages, current: nil, terms: []) })
        addPaging(index, current: nil, to: &context)
        context["structured_data"] = .string(StructuredData.termSet(site: site, definitions: [], root: exportRoot))
        return .object(context)
    }

    /// Page `page` of `index.pages`: its letter's jump bar and its entries.
    func indexPageContext(_ index: TermIndexPages, page: Int) -> MustacheValue {
        let current = index.pages[page]
        // In every language's words: the theme's "Glossary", the letter and the page's number.
        let language = site.config.siteLanguages.language(ofPath: index.folder)
        let title = "\(text("glossary", in: language)) – \(current.letter)" + (current.number == 1 ? "" : " (\(current.number))")
        var context = common(title: title, url: current.urlPath, kind: "terms")
        let entries = Array(index.sorted[current.entries])
        let pages = index.pages.indices.filter { index.pages[$0].letter == current.letter }
        context["letters"] = .array([letterValue(index, current.letter, pages: pages, current: page, terms: entries.map(termSummary))])
        addPaging(index, current: current.letter, to: &context)
        context["structured_data"] = .string(StructuredData.termSet(site: site, definitions: entries, root: exportRoot))
        return .object(context)
    }

    /// A letter with its `pages` (places in `index.pages`), `current` among them on a letter page.
    private func letterValue(_ index: TermIndexPages, _ letter: String, pages: [Int], current: Int?, terms: [MustacheValue]) -> MustacheValue {
        .object([
            "letter": .string(letter), "id": .string("letter-\(TermIndexPages.pathName(letter))"),
            "terms": .array(terms), "has_terms": .bool(!terms.isEmpty),
            "pages": .array(
                pages.map { page in
                    .object([
                        "prefix": .string(index.prefix(ofPage: page)), "url": .string(site.href(index.pages[page].urlPath)), "current": .bool(page == current),
                    ])
                }),
            "has_pages": .bool(true),
        ])
    }

    /// The A–Z bar, each letter with terms linking its first page, and the count of every term in the index.
    private func addPaging(_ index: TermIndexPages, current: String?, to context: inout MustacheObject) {
        let first = Dictionary(index.letters.map { ($0.letter, index.pages[$0.pages[0]].urlPath) }, uniquingKeysWith: { a, _ in a })
        let letters: [String] = (65...90).map { String(UnicodeScalar(UInt8($0))) } + (first["#"] == nil ? [] : ["#"])
        context["alphabet"] = .array(
            letters.map { letter -> MustacheValue in
                let href: MustacheValue = first[letter].map { .string(site.href($0)) } ?? .null
                return .object([
                    "letter": .string(letter), "id": .string("letter-\(TermIndexPages.pathName(letter))"),
                    "present": .bool(first[letter] != nil), "href": href, "current": .bool(letter == current),
                ])
            })
        context["term_count"] = .int(index.count)
        context["term_count_text"] = .string(counted("terms_count", index.count, in: site.config.siteLanguages.language(ofPath: index.folder)))
    }
}
