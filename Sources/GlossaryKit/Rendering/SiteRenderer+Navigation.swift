/// The navigation values of a content page's context: `navigation` (sidebar, breadcrumbs, previous/next, a
/// section's entries) and `page.toc`, all from `PageNavigation` and the record's headings, exactly what the
/// page's fingerprint covers.
extension SiteRenderer {
    func navigationContext(_ view: PageNavigation, language: String) -> MustacheValue {
        .object([
            "sidebar": level(view.sidebar, language: language),
            "breadcrumbs": .array(view.breadcrumbs.map(link)),
            "has_breadcrumbs": .bool(!view.breadcrumbs.isEmpty),
            "previous": view.previous.map(link) ?? .null,
            "next": view.next.map(link) ?? .null,
            "has_pager": .bool(view.previous != nil || view.next != nil),
            "section_entries": .array(view.sectionEntries.map(link)),
            "has_section_entries": .bool(!view.sectionEntries.isEmpty),
        ])
    }

    /// Levels 2 and 3 of the page's headings when it has a table of contents (see `PageRecord.tableOfContents`).
    func tableOfContents(_ record: PageRecord) -> MustacheValue {
        .array(
            record.tableOfContents.map { heading in
                .object(["id": .string(heading.id), "text": .string(heading.text), "level": .int(heading.level), "is_sub": .bool(heading.level == 3)])
            })
    }

    /// An entry's title and href; every key is set (null when absent) so Mustache never finds an outer one.
    private func link(_ link: PageNavigation.Link) -> MustacheValue {
        .object([
            "title": .string(link.title),
            "url": href(link).map(MustacheValue.string) ?? .null,
            "external": .bool(link.externalURL != nil),
        ])
    }

    private func href(_ link: PageNavigation.Link) -> String? {
        if let url = link.urlPath { return site.href(url) }
        return link.externalURL
    }

    private func level(_ level: PageNavigation.Level, language: String) -> MustacheValue {
        .object([
            "items": .array(level.items.map { item($0, language: language) }),
            "hidden_before": .int(level.hiddenBefore),
            "hidden_after": .int(level.hiddenAfter),
            // "3 more", in the page's language.
            "hidden_before_text": .string(text("more_count", in: language, ["count": String(level.hiddenBefore)])),
            "hidden_after_text": .string(text("more_count", in: language, ["count": String(level.hiddenAfter)])),
            "has_hidden_before": .bool(level.hiddenBefore > 0),
            "has_hidden_after": .bool(level.hiddenAfter > 0),
            "listed_at": level.listedAt.map { .string(site.href($0)) } ?? .null,
        ])
    }

    private func item(_ item: PageNavigation.Item, language: String) -> MustacheValue {
        .object([
            "title": .string(item.link.title),
            "url": href(item.link).map(MustacheValue.string) ?? .null,
            "external": .bool(item.link.externalURL != nil),
            "current": .bool(item.isCurrent),
            "open": .bool(item.isOpen),
            "section": .bool(item.isSection),
            "children": item.children.map { level($0, language: language) } ?? .null,
        ])
    }
}
