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
