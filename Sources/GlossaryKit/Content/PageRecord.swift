import Foundation

/// Everything the rest of the build needs from one markdown file, without its markdown tree: its page and
/// front matter, the terms it references, its links, its title and summary text, and the problems found in
/// it. The build state keeps records, so an unchanged file is never parsed again; its HTML is made from the file
/// again only when something it shows changed.
///
/// Immutable and shared: a class, so the thousands of places that pass records around (every term's list of
/// the pages using it) pass a reference, not a copy of every field.
public final class PageRecord: Sendable {
    public let page: Page
    /// The `[[references]]` in the text, in reading order.
    public let references: [TermReference]
    /// Terms the front matter's `terms:` declares, as references at their front-matter location.
    public let declaredTerms: [TermReference]
    public let links: [MarkdownLink]
    /// The first heading's plain text, used as a title when front matter has none.
    public let firstHeading: String?
    /// Whether the document's first block is a level-1 heading (the page brings its own title).
    public let startsWithTitleHeading: Bool
    /// Plain text of the first paragraph (a glossary entry's one-line summary).
    public let firstParagraph: String?
    /// Every heading with its id, in document order: the table of contents, `#anchor` checks, the search index.
    public let headings: [PageHeading]
    /// The body's text as the search index counts it (headings are a field of their own).
    public let searchText: SearchTerms
    /// A glossary entry's card text as HTML: its `summary:`, else its first paragraph (see
    /// `MarkdownDocument.firstParagraphHTML`).
    public let summaryHTML: String?
    /// The fingerprint of the auto-linking the references were found with (`AutolinkSettings.fingerprint`); nil
    /// when the page was not auto-linked. A record is only reused under the same auto-linking.
    public let autolink: Fingerprint?
    /// Problems found in this file while reading and parsing it.
    public let diagnostics: [Diagnostic]
    /// The fingerprint of the file's bytes: equal bytes make equal records.
    public let contentHash: Fingerprint
    /// False for a draft read without `--drafts`: only its front matter was read (nothing of it is published).
    public let hasBody: Bool
    /// The title the page is shown with: front matter, else its first heading, else its file name.
    public let title: String
    /// Every reference: written and automatic ones, then the terms the front matter declares. Made when asked, not
    /// kept: kept, it held every reference twice (most pages declare none, and then it is `references` itself).
    public var allReferences: [TermReference] { declaredTerms.isEmpty ? references : references + declaredTerms }

    /// `allReferences[index]`, without making the array.
    public func reference(at index: Int) -> TermReference {
        index < references.count ? references[index] : declaredTerms[index - references.count]
    }

    public init(
        page: Page, references: [TermReference], declaredTerms: [TermReference], links: [MarkdownLink], firstHeading: String?,
        startsWithTitleHeading: Bool, firstParagraph: String?, summaryHTML: String? = nil, autolink: Fingerprint? = nil,
        headings: [PageHeading] = [], searchText: SearchTerms = .empty, diagnostics: [Diagnostic], contentHash: Fingerprint, hasBody: Bool
    ) {
        self.page = page
        self.references = references
        self.declaredTerms = declaredTerms
        self.links = links
        self.firstHeading = firstHeading
        self.startsWithTitleHeading = startsWithTitleHeading
        self.firstParagraph = firstParagraph
        self.headings = headings
        self.searchText = searchText
        self.summaryHTML = summaryHTML
        self.autolink = autolink
        self.diagnostics = diagnostics
        self.contentHash = contentHash
        self.hasBody = hasBody
        title = page.metadata.title ?? firstHeading ?? Self.titleFromPath(page.contentPath)
    }

    /// The record of the same file as a page of `language` (`Page.language`): its references and declared terms
    /// are that language's terms. Itself when it is already.
    public func localized(_ language: String) -> PageRecord {
        guard page.language != language else { return self }
        var page = page
        page.language = language
        let localize = { (references: [TermReference]) in
            references.map { reference in
                var reference = reference
                reference.key = reference.key.inLanguage(language)
                return reference
            }
        }
        return PageRecord(
            page: page, references: localize(references), declaredTerms: localize(declaredTerms), links: links, firstHeading: firstHeading,
            startsWithTitleHeading: startsWithTitleHeading, firstParagraph: firstParagraph, summaryHTML: summaryHTML, autolink: autolink,
            headings: headings, searchText: searchText, diagnostics: diagnostics, contentHash: contentHash, hasBody: hasBody)
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
