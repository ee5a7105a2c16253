/// What one page shows of the site's navigation: the sidebar of its branch (the top level, and the levels down to
/// the page opened), its breadcrumbs, the previous and next pages in reading order, and for a section's page the
/// pages and sections it holds.
///
/// Only the page's own branch is in it, and a long level only around the open entry (`SiteNavigation.window`),
/// so a page's navigation is small whatever the site's size. Rendering and the page's fingerprint both read this
/// value, so an output is rendered again exactly when what it shows of the navigation changed.
public struct PageNavigation: Hashable, Sendable {
    /// Where an entry leads: a page of the site (its URL path below the root), a link out, or nowhere.
    public struct Link: Hashable, Sendable {
        public var title: String
        public var urlPath: String?
        public var externalURL: String?
    }

    /// One level of the sidebar: its entries, and how many were left out before and after them.
    public struct Level: Hashable, Sendable {
        public var items: [Item]
        public var hiddenBefore: Int = 0
        public var hiddenAfter: Int = 0
        /// The page listing the whole level (its section's page), when entries were left out.
        public var listedAt: String?
    }

    public struct Item: Hashable, Sendable {
        public var link: Link
        public var isCurrent: Bool
        /// On the way to the current page (or the current page itself): its level below is shown.
        public var isOpen: Bool
        public var isSection: Bool
        /// The level below, for open sections.
        public var children: Level?
    }

    public var sidebar: Level
    /// From the home page down to the current page's parent (the current page is not among them).
    public var breadcrumbs: [Link]
    public var previous: Link?
    public var next: Link?
    /// For a section's page: what the section holds, all of it.
    public var sectionEntries: [Link]

    /// A page the navigation doesn't have (left out of `nav:`): the top level, nothing open.
    static func unplaced(_ navigation: SiteNavigation) -> PageNavigation {
        PageNavigation(
            sidebar: navigation.level(of: 0, open: [], current: nil), breadcrumbs: [navigation.link(0)], previous: nil, next: nil, sectionEntries: [])
    }
}
