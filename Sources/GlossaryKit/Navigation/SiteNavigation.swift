import Foundation

/// The site's navigation: a tree of sections and pages, made from the folders of `content/` or from `nav:` in
/// glossary.yml, and what each page shows of it (`PageNavigation`).
///
/// Made from folders, a folder is a section titled by its `index.md` (or `_index.md`, or the page publishing
/// the folder's URL), else by its name; children are ordered by `weight:` (lower first, pages without one
/// last), then by title. A folder without its own page gets one generated: a list of what it holds.
public struct SiteNavigation: Sendable {
    public struct Node: Sendable {
        public var title: String
        /// The page's URL path below the root (`guide/`); nil for a section of `nav:` without a page of its own,
        /// and for a link out of the site.
        public var urlPath: String?
        public var externalURL: String?
        public var parent: Int?
        public var children: [Int] = []
        public var isSection: Bool
        /// Whether the node's page is generated (a folder without a page of its own).
        public var isGeneratedPage: Bool = false
        /// Ordering among siblings made from folders.
        var weight: Int?
        var sortPath: String = ""
    }

    /// The tree; `nodes[0]` is the root, the home page.
    public private(set) var nodes: [Node]
    /// Problems with `nav:` (pages it lists that don't exist, or twice).
    public private(set) var diagnostics: [Diagnostic] = []
    /// The node showing each page, by URL path (a page listed twice: its first place).
    private var nodeOfURL: [String: Int] = [:]
    /// Nodes with a page of the site, in reading order (previous and next follow it).
    private(set) var readingOrder: [Int] = []
    private(set) var readingPosition: [Int: Int] = [:]
    /// Each node's index among its parent's children (0 for the root).
    private(set) var positionInParent: [Int] = []

    /// How many entries of a long level the sidebar shows around the open one; the rest are counted, and
    /// listed on the section's page. A page carries its own branch only, so the site grows with its pages.
    public static let window = 7

    /// - Parameters:
    ///   - pages: the published content pages.
    ///   - unpublished: paths below `content/` of markdown files not published (drafts): `nav:` may list them.
    public init(pages: [PageRecord], nav: [NavEntry]?, unpublished: Set<String> = []) {
        let home = pages.first { $0.page.urlPath.isEmpty }
        nodes = [Node(title: home?.title ?? "Home", urlPath: home == nil ? nil : "", parent: nil, isSection: true)]
        if let nav {
            var placed: [String: SourceLocation] = [:]
            let byPath = Dictionary(pages.map { ($0.page.contentPath, $0) }, uniquingKeysWith: { first, _ in first })
            for entry in nav { add(entry, under: 0, byPath: byPath, pages: pages, unpublished: unpublished, placed: &placed) }
            if home != nil, nodeOfURL[""] == nil { nodeOfURL[""] = 0 }
        } else {
            addFolder("", as: 0, pages: pages)
            // The root's page is the home page or none: it is never generated.
            nodes[0].isGeneratedPage = false
            nodes[0].urlPath = home == nil ? nil : ""
            if home == nil { nodeOfURL[""] = nil }
        }
        // The root stands for the home page in breadcrumbs, whatever the page's own title.
        nodes[0].title = "Home"
        order(from: 0)
        positionInParent = Array(repeating: 0, count: nodes.count)
        for node in nodes {
            for (position, child) in node.children.enumerated() { positionInParent[child] = position }
        }
    }

    // MARK: Building

    private mutating func append(_ node: Node, under parent: Int) -> Int {
        var node = node
        node.parent = parent
        nodes.append(node)
        nodes[parent].children.append(nodes.count - 1)
        nodes[parent].isSection = true
        return nodes.count - 1
    }

    /// Fills `node` with the pages below the URL path `prefix` (`""`: the whole site) as a tree of their URL
    /// paths, which is the tree of their folders: a URL path without a page (a folder without an index) gets a
    /// section whose page is generated. Then sorts it.
    private mutating func addFolder(_ prefix: String, as node: Int, pages: [PageRecord]) {
        var byURL: [String: Int] = [prefix: node]
        func ensure(_ url: String) -> Int {
            if let known = byURL[url] { return known }
            let parent = ensure(Self.parentURL(of: url))
            let name = String(url.dropLast().split(separator: "/").last ?? "")
            let index = append(Node(title: PageRecord.titleFromPath(name), urlPath: url, isSection: true, isGeneratedPage: true, sortPath: url), under: parent)
            byURL[url] = index
            return index
        }
        for record in pages where record.page.urlPath.hasPrefix(prefix) {
            let url = record.page.urlPath
            let index: Int
            if let known = byURL[url] {
                index = known
                nodes[index].isGeneratedPage = false
                nodes[index].urlPath = url
            } else {
                index = append(
                    Node(title: record.title, urlPath: url, isSection: false, sortPath: record.page.contentPath), under: ensure(Self.parentURL(of: url)))
                byURL[url] = index
            }
            nodes[index].title = record.title
            nodes[index].weight = record.page.metadata.weight
        }
        for (url, index) in byURL where nodeOfURL[url] == nil { nodeOfURL[url] = index }
        sortChildren(of: node)
    }

    /// `guide/intro/` → `guide/`; `guide/` → ``.
    static func parentURL(of url: String) -> String {
        let bytes = url.utf8
        // A URL as pages have them (no empty parts): its parent ends at the slash before its last part's.
        if bytes.first != UInt8(ascii: "/"), !url.contains("//") {
            let name = bytes.last == UInt8(ascii: "/") ? bytes.index(before: bytes.endIndex) : bytes.endIndex
            guard let cut = bytes[..<name].lastIndex(of: UInt8(ascii: "/")) else { return "" }
            return String(url[...cut])
        }
        let parts = url.split(separator: "/").dropLast()
        return parts.isEmpty ? "" : parts.joined(separator: "/") + "/"
    }

    /// Sorts the subtree's children: by weight (none last), then by title, case aside, then as written.
    private mutating func sortChildren(of node: Int) {
        let keys = nodes[node].children.map { child in
            (
                child: child, weight: nodes[child].weight ?? Int.max, folded: nodes[child].title.lowercased(), title: nodes[child].title,
                path: nodes[child].sortPath
            )
        }
        nodes[node].children = keys.sorted { a, b in
            if a.weight != b.weight { return a.weight < b.weight }
            if a.folded != b.folded { return a.folded < b.folded }
            if a.title != b.title { return a.title < b.title }
            return a.path < b.path
        }.map(\.child)
        for child in nodes[node].children where nodes[child].isSection { sortChildren(of: child) }
    }

    private mutating func add(
        _ entry: NavEntry, under parent: Int, byPath: [String: PageRecord], pages: [PageRecord], unpublished: Set<String>,
        placed: inout [String: SourceLocation]
    ) {
        switch entry {
        case .page(let path, let title, let location):
            guard let record = byPath[path] else {
                if !unpublished.contains(path) { diagnostics.append(Diagnostic(.navUnknownPage(path: path), at: location)) }
                return
            }
            if let first = placed[path] {
                diagnostics.append(Diagnostic(.navDuplicatePage(path: path), at: location, notes: [Problem.firstNavNote(path, at: first)]))
                return
            }
            placed[path] = location
            let index = append(Node(title: title ?? record.title, urlPath: record.page.urlPath, isSection: false), under: parent)
            if nodeOfURL[record.page.urlPath] == nil { nodeOfURL[record.page.urlPath] = index }
        case .folder(let path, let title, let location):
            let prefix = path.isEmpty ? "" : path + "/"
            let below = pages.filter { $0.page.urlPath.hasPrefix(prefix) && $0.page.kind == .page }
            let inside = below.filter { placed[$0.page.contentPath] == nil }
            guard !inside.isEmpty else {
                if !below.isEmpty {
                    diagnostics.append(Diagnostic(.navDuplicatePage(path: prefix), at: location))
                } else if !unpublished.contains(where: { $0.hasPrefix(prefix) }) {
                    diagnostics.append(Diagnostic(.navUnknownPage(path: prefix), at: location))
                }
                return
            }
            for record in inside { placed[record.page.contentPath] = location }
            let index = append(
                Node(title: PageRecord.titleFromPath(path), urlPath: prefix, isSection: true, isGeneratedPage: true, sortPath: prefix), under: parent)
            addFolder(prefix, as: index, pages: inside)
            if let title { nodes[index].title = title }
        case .section(let title, let entries, _):
            let index = append(Node(title: title, urlPath: nil, isSection: true), under: parent)
            for child in entries { add(child, under: index, byPath: byPath, pages: pages, unpublished: unpublished, placed: &placed) }
        case .link(let title, let url, _):
            _ = append(Node(title: title, urlPath: nil, externalURL: url, isSection: false), under: parent)
        }
    }

    /// Reading order: the root's page, then every node with a page, depth first.
    private mutating func order(from node: Int) {
        if let url = nodes[node].urlPath, nodeOfURL[url] == node, readingPosition[node] == nil {
            readingPosition[node] = readingOrder.count
            readingOrder.append(node)
        }
        for child in nodes[node].children { order(from: child) }
    }

    // MARK: Reading

    /// The node showing the page at `urlPath`, if the navigation has it.
    public func node(forURL urlPath: String) -> Int? { nodeOfURL[urlPath] }

    /// Sections whose page the build generates (folders without a page of their own), as node indices.
    public var generatedSections: [Int] {
        nodes.indices.filter { nodes[$0].isGeneratedPage && nodes[$0].urlPath != nil && nodeOfURL[nodes[$0].urlPath!] == $0 }
    }

    /// Where a node leads: its page, a link out, or (a section of `nav:` without a page) its first page.
    func destination(of node: Int) -> (urlPath: String?, externalURL: String?) {
        if let url = nodes[node].urlPath { return (url, nil) }
        if let external = nodes[node].externalURL { return (nil, external) }
        for child in nodes[node].children {
            let found = destination(of: child)
            if found.urlPath != nil { return found }
        }
        return (nil, nil)
    }

    func link(_ node: Int) -> PageNavigation.Link {
        let (url, external) = destination(of: node)
        return PageNavigation.Link(title: nodes[node].title, urlPath: url, externalURL: external)
    }
}
