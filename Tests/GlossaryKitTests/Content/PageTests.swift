import Testing

@testable import GlossaryKit

@Suite struct PageTests {
    @Test(arguments: [
        ("index.md", ""), ("about.md", "about/"), ("guide/intro.md", "guide/intro/"), ("guide/index.md", "guide/"),
        ("guide/_index.md", "guide/"), ("a/b/c.md", "a/b/c/"), ("notes", "notes/"), ("a/index", "a/"), ("a/my.index.md", "a/my.index/"),
        ("café/naïve.md", "café/naïve/"), ("a/.md", "a//"),
        // Empty components (never from the scanner) are dropped, as splitting at slashes drops them.
        ("guide//intro.md", "guide/intro/"), ("/about.md", "about/"), ("guide/", "guide/"), ("a//index.md", "a/"),
    ])
    func prettyURLs(_ path: String, _ url: String) {
        #expect(Page.urlPath(forContentPath: path) == url)
    }
}

@Suite struct EntryFolderTests {
    static let threeLanguages = SiteLanguages(codes: ["en", "fr", "de"])

    @Test(arguments: [
        ("glossary/kerning.md", true), ("fr/glossary/serveur.md", true), ("de/glossary/sub/datenbank.md", true),
        ("en/glossary/kerning.md", false), ("es/glossary/servidor.md", false), ("guide/glossary/x.md", false), ("fr/guide.md", false),
    ])
    func eachLanguageHasItsGlossaryFolder(_ path: String, _ isEntry: Bool) {
        #expect(Page.isEntry(contentPath: path, languages: Self.threeLanguages) == isEntry)
    }

    @Test func theDefaultLanguageOutOfTheRootHasItsGlossaryInItsFolder() {
        let languages = SiteLanguages(codes: ["en", "fr"], defaultAtRoot: false)
        #expect(Page.isEntry(contentPath: "en/glossary/kerning.md", languages: languages))
        #expect(!Page.isEntry(contentPath: "glossary/kerning.md", languages: languages))
        #expect(languages.entryLanguage(ofContentPath: "fr/glossary/serveur.md") == "fr")
    }

    @Test func aSiteInOneLanguageHasOneGlossaryFolder() {
        let languages = SiteLanguages(codes: ["en"])
        #expect(Page.isEntry(contentPath: "glossary/kerning.md", languages: languages))
        #expect(!Page.isEntry(contentPath: "fr/glossary/serveur.md", languages: languages))
    }
}
