/// One entry of `nav:` in glossary.yml, which replaces the navigation made from the folders of `content/` (as
/// MkDocs' `nav` does):
///
/// ```yaml
/// nav:
///   - index.md                          # a page, with its own title
///   - Getting started: guide/intro.md   # a page, with the title the navigation shows
///   - Guide:                            # a section of its own: a title and its entries
///       - guide/structure.md
///       - guide/linking.md
///   - reference/                        # a folder: its pages and folders in their automatic order
///   - Publishing: publishing/           # a folder under another title
///   - Source code: https://example.com/repo   # a link out of the site
/// ```
///
/// Paths are below `content/`. Pages left out of `nav:` are still built; they show the navigation without a
/// place of their own.
public indirect enum NavEntry: Sendable, Equatable {
    case page(path: String, title: String?, location: SourceLocation)
    case folder(path: String, title: String?, location: SourceLocation)
    case section(title: String, entries: [NavEntry], location: SourceLocation)
    case link(title: String, url: String, location: SourceLocation)

    static let requirement = "must be a list of page paths (guide/intro.md), folders (guide/) and 'Title: path' or 'Section: [entries]' mappings"

    /// Reads the value of `nav:`; an entry with a problem is left out and the problem returned.
    static func decode(_ node: YAMLNode) -> ([NavEntry], [Diagnostic]) {
        guard let items = node.items else { return ([], [node.typeError("nav", requirement)]) }
        var entries: [NavEntry] = []
        var diagnostics: [Diagnostic] = []
        for item in items {
            let (entry, problems) = self.entry(item)
            if let entry { entries.append(entry) }
            diagnostics += problems
        }
        return (entries, diagnostics)
    }

    private static func entry(_ node: YAMLNode) -> (NavEntry?, [Diagnostic]) {
        if let path = node.scalarValue, !node.isNull { return (target(path, title: nil, at: node), []) }
        guard let pairs = node.pairs, pairs.count == 1, let title = pairs[0].key.scalarValue, !pairs[0].key.isNull else {
            return (nil, [node.typeError("nav", requirement)])
        }
        let value = pairs[0].value
        if let path = value.scalarValue, !value.isNull { return (target(path, title: title, at: value), []) }
        guard value.items != nil else { return (nil, [value.typeError("nav", requirement)]) }
        let (children, problems) = decode(value)
        return (.section(title: title, entries: children, location: pairs[0].key.location), problems)
    }

    private static func target(_ path: String, title: String?, at node: YAMLNode) -> NavEntry {
        if path.hasPrefix("http://") || path.hasPrefix("https://") {
            return .link(title: title ?? path, url: path, location: node.location)
        }
        var relative = path
        while relative.hasPrefix("./") { relative.removeFirst(2) }
        if relative.hasPrefix("/") { relative.removeFirst() }
        if relative.isEmpty || relative.hasSuffix("/") {
            return .folder(path: String(relative.dropLast(relative.isEmpty ? 0 : 1)), title: title, location: node.location)
        }
        return .page(path: relative, title: title, location: node.location)
    }

    var location: SourceLocation {
        switch self {
        case .page(_, _, let location), .folder(_, _, let location), .section(_, _, let location), .link(_, _, let location): location
        }
    }
}
