import Foundation

/// The renderer's two memo points (see `BuildMemo`); without a memo they render as a plain build does.
extension SiteRenderer {
    /// One file of the site from a template: the previous build's bytes when nothing the template sees changed.
    func rendered(_ template: String, _ context: MustacheValue, at path: String) -> String {
        guard let memo else { return finish(theme.render(template, context)) }
        return memo.output(path, template: template, context: context) { finish(theme.render(template, context)) }
    }

    /// A page's body HTML with its references linked (`BuiltSite.fragment`), reused when its inputs are unchanged.
    func fragment(_ parsed: ParsedPage) -> String {
        guard let memo else { return site.fragment(parsed) }
        let wrappers = parsed.document.references.map { reference in memo.wrapper(for: reference) { site.termWrapper($0) } }
        let links = parsed.document.links.map { site.rewrittenLink($0.destination, from: parsed.page) }
        return memo.fragment(parsed, wrappers: wrappers, links: links) { document in
            var copy = parsed
            copy.document = document
            return site.fragment(copy)
        }
    }
}
