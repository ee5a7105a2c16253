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
}
