import Foundation
import Testing

@testable import GlossaryKit

@Suite struct PageRecordTests {
    static func record(_ markdown: String) throws -> PageRecord {
        let file = SiteSource.File(displayPath: "content/p.md", contentPath: "p.md", url: URL(fileURLWithPath: "/nowhere/p.md"))
        return try #require(PageParser.parse(text: markdown, hash: .zero, file: file, drafts: false).0?.record)
    }

    /// Three or more headings of levels 2 and 3 make a table of contents, unless the front matter says toc: false.
    @Test func theTableOfContentsListsLevelsTwoAndThree() throws {
        let page = "# Title\n\n## One\n\n#### Deep\n\n### Two\n\n## Three\n"
        #expect(try Self.record(page).tableOfContents.map(\.id) == ["one", "two", "three"])
        #expect(try Self.record("---\ntoc: false\n---\n" + page).tableOfContents.isEmpty)
        #expect(try Self.record("---\ntoc: true\n---\n" + page).tableOfContents.count == 3)
        #expect(try Self.record("# Title\n\n## One\n\n### Two\n\n#### Deep\n").tableOfContents.isEmpty, "two are not enough")
    }

    @Test func theRecordKeepsHeadingsAndSearchText() throws {
        let record = try Self.record("---\ntitle: T\n---\n## Setup steps\n\nRun the setup, then run it again.\n")
        #expect(record.headings == [PageHeading(level: 2, text: "Setup steps", id: "setup-steps")])
        #expect(record.searchText == SearchTerms(terms: ["run", "setup", "again"], counts: [2, 1, 1], length: 4))
    }

    /// A record's linkage is what every output but its page and the search index reads (`StateFile.linkage`): an edit of
    /// the text alone, even one that moves references and links down the file, keeps it; anything else they read
    /// changes it.
    @Test func aTextEditKeepsTheLinkageAndNothingElseDoes() throws {
        let base = "---\ntitle: T\ntags: [a]\n---\n# Heading\n\nFirst paragraph with [[kerning]].\n\n## Part\n\nText and a [link](other.md).\n"
        let linkage = StateFile.linkage(of: try Self.record(base))
        let kept = [
            base + "\nMore text at the end.\n",
            base.replacingOccurrences(of: "Text and", with: "Other words and"),
            // References and links further down the file: their locations change, not the linkage.
            base.replacingOccurrences(of: "## Part\n\n", with: "## Part\n\nA new paragraph.\n\n"),
        ]
        for markdown in kept {
            let record = try Self.record(markdown)
            #expect(StateFile.linkage(of: record) == linkage, "\(markdown)")
            #expect(record.searchText != (try Self.record(base)).searchText)
        }
        let changed = [
            base.replacingOccurrences(of: "title: T", with: "title: U"),
            base.replacingOccurrences(of: "tags: [a]", with: "tags: [a, b]"),
            base.replacingOccurrences(of: "# Heading", with: "# Other heading"),
            base.replacingOccurrences(of: "## Part", with: "## Section"),
            base + "\n## More\n",
            base + "\nSee [[leading]].\n",
            base.replacingOccurrences(of: "[[kerning]]", with: "[[the kerning|kerning]]"),
            base.replacingOccurrences(of: "other.md", with: "another.md"),
            base + "\n![a picture](a.png)\n",
            base.replacingOccurrences(of: "tags: [a]\n", with: "tags: [a]\nautolink: all\n"),
        ]
        for markdown in changed {
            #expect(StateFile.linkage(of: try Self.record(markdown)) != linkage, "\(markdown)")
        }
    }
}
