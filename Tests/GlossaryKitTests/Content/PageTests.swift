import Testing

@testable import GlossaryKit

@Suite struct PageTests {
    @Test(arguments: [
        ("index.md", ""), ("about.md", "about/"), ("guide/intro.md", "guide/intro/"), ("guide/index.md", "guide/"),
        ("guide/_index.md", "guide/"), ("a/b/c.md", "a/b/c/"),
    ])
    func prettyURLs(_ path: String, _ url: String) {
        #expect(Page.urlPath(forContentPath: path) == url)
    }
}
