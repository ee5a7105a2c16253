import Foundation

/// The renderer's two memo points (see `BuildMemo`); without a memo they render as a plain build does.
extension SiteRenderer {
    /// One file of the site from a template: the previous build's bytes when nothing the template sees changed.
    ///
    /// The bytes themselves are reused (not a copy), so successive builds share the memory of unchanged files.
    func rendered(_ template: String, _ context: MustacheValue, at path: String) -> Data {
        guard let memo else { return Data(finish(theme.render(template, context)).utf8) }
        return memo.output(path, template: template, context: context) { Data(finish(theme.render(template, context)).utf8) }
    }

    /// A page's body HTML with its references linked (`BuiltSite.fragment`), reused when its inputs are unchanged.
    func fragment(_ parsed: ParsedPage) -> String {
        guard let memo else { return site.fragment(parsed) }
        let (targets, previous, samePages) = memo.linkTargets {
            var wrappers: [TermKey: MarkdownDocument.Wrapper] = [:]
            for (key, uses) in site.usage {
                if let use = uses.first { wrappers[key] = site.termWrapper(use.reference) }
            }
            let pages = site.pages.map { "\($0.page.kind == .page ? "p" : "e")\u{0}\($0.page.contentPath)\u{0}\($0.page.urlPath)" } + [site.rootPath]
            return BuildMemo.LinkTargets(wrappers: wrappers, pages: pages)
        }
        let unchanged = samePages && previous.map { previous in parsed.document.references.allSatisfy { targets.sameWrapper($0.key, as: previous) } } ?? false
        return memo.fragment(
            parsed, unchangedTargets: unchanged,
            wrappers: { parsed.document.references.map { targets.wrappers[$0.key] ?? site.termWrapper($0) } },
            links: { parsed.document.links.map { site.rewrittenLink($0.destination, from: parsed.page) } },
            render: { document in
                var copy = parsed
                copy.document = document
                return site.fragment(copy)
            })
    }
}

extension SiteOutput {
    mutating func add(_ path: String, _ data: Data) {
        files[path] = data
    }
}
