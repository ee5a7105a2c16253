/// The markup around a term reference in a page's HTML: a link to the term's page, or a marked span when the
/// term has no definition. A pure function of the key, the slug of the page it links to, the site's root and
/// whether auto-linking found the reference (an automatic link is marked `data-autolink`; one to a term without a
/// definition stays plain text).
public enum TermMarkup {
    public static func wrapper(key: TermKey, linkedSlug: String?, rootPath: String, isAutomatic: Bool = false) -> MarkdownDocument.Wrapper {
        if isAutomatic {
            guard let slug = linkedSlug else { return .init(open: "", close: "") }
            return .init(
                open: "<a class=\"term\" href=\"\(HTML.escape("\(rootPath)terms/\(slug)/"))\" data-term=\"\(HTML.escape(slug))\" data-autolink>", close: "</a>")
        }
        guard let slug = linkedSlug else {
            return .init(
                open: "<span class=\"term term-unknown\" data-term-unknown=\"\(HTML.escape(key.rawValue))\" title=\"No definition found\">",
                close: "</span>")
        }
        return .init(open: "<a class=\"term\" href=\"\(HTML.escape("\(rootPath)terms/\(slug)/"))\" data-term=\"\(HTML.escape(slug))\">", close: "</a>")
    }

    /// The wrappers of `references`, index-aligned with them: each made once per term and kind on the page (a page of
    /// a million references names a few hundred terms), so the page's equal wrappers share their strings.
    static func wrappers(_ references: [TermReference], rootPath: String, linkedSlug: (TermKey) -> String?) -> [MarkdownDocument.Wrapper] {
        var made: [Use: MarkdownDocument.Wrapper] = [:]
        return references.map { reference in
            let use = Use(key: reference.key, isAutomatic: reference.isAutomatic)
            if let wrapper = made[use] { return wrapper }
            let wrapper = wrapper(key: reference.key, linkedSlug: linkedSlug(reference.key), rootPath: rootPath, isAutomatic: reference.isAutomatic)
            made[use] = wrapper
            return wrapper
        }
    }

    /// What a reference's wrapper depends on, the site aside.
    private struct Use: Hashable {
        var key: TermKey
        var isAutomatic: Bool
    }
}
