/// The markup around a term reference in a page's HTML: a link to the term's page, or a marked span when the
/// term has no definition. A pure function of the key, the slug of the page it links to and the site's root.
public enum TermMarkup {
    public static func wrapper(key: TermKey, linkedSlug: String?, rootPath: String) -> MarkdownDocument.Wrapper {
        guard let slug = linkedSlug else {
            return .init(
                open: "<span class=\"term term-unknown\" data-term-unknown=\"\(HTML.escape(key.rawValue))\" title=\"No definition found\">",
                close: "</span>")
        }
        return .init(open: "<a class=\"term\" href=\"\(HTML.escape("\(rootPath)terms/\(slug)/"))\" data-term=\"\(HTML.escape(slug))\">", close: "</a>")
    }
}
