import Foundation

/// Everything the rest of the build needs from one markdown file, without its markdown tree: its page and
/// front matter, the terms it references, its links, its title and summary text, and the problems found in
/// it. The build keeps records (and the build manifest stores them), so an unchanged file is never parsed
/// again; its HTML is made from the file again only when something it shows changed.
public struct PageRecord: Sendable {
    public var page: Page
    /// The `[[references]]` in the text, in reading order.
    public var references: [TermReference]
    /// Terms the front matter's `terms:` declares, as references at their front-matter location.
    public var declaredTerms: [TermReference]
    public var links: [MarkdownLink]
    /// The first heading's plain text, used as a title when front matter has none.
    public var firstHeading: String?
    /// Whether the document's first block is a level-1 heading (the page brings its own title).
    public var startsWithTitleHeading: Bool
    /// Plain text of the first paragraph (a glossary entry's one-line summary).
    public var firstParagraph: String?
    /// Every heading with its id, in document order: the table of contents, `#anchor` checks, the search index.
    public var headings: [PageHeading] = []
    /// The body's text as the search index counts it (headings are a field of their own).
    public var searchText: SearchTerms = .empty
    /// Problems found in this file while reading and parsing it.
    public var diagnostics: [Diagnostic]
    /// The fingerprint of the file's bytes: equal bytes make equal records.
    public var contentHash: Fingerprint
    /// False for a draft read without `--drafts`: only its front matter was read (nothing of it is published).
    public var hasBody: Bool

    public var allReferences: [TermReference] { references + declaredTerms }

    /// The title the page is shown with: front matter, else its first heading, else its file name.
    public var title: String {
        page.metadata.title ?? firstHeading ?? Self.titleFromPath(page.contentPath)
    }

    /// The headings the table of contents lists (levels 2 and 3), or none when the page has fewer than three
    /// of them or its front matter says `toc: false`.
    public var tableOfContents: [PageHeading] {
        guard page.metadata.toc != false else { return [] }
        let listed = headings.filter { $0.level == 2 || $0.level == 3 }
        return listed.count >= 3 ? listed : []
    }

    static func titleFromPath(_ contentPath: String) -> String {
        var name = Substring(contentPath.split(separator: "/").last ?? "")
        if name.hasSuffix(".md") { name = name.dropLast(3) }
        return name.replacingOccurrences(of: "-", with: " ").capitalized
    }
}
