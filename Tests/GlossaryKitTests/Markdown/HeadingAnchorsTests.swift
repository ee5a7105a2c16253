import TestSupport
import Testing

@testable import GlossaryKit

@Suite struct HeadingAnchorsTests {
    /// GitHub's slugs (github-slugger): lowercased, punctuation and symbols dropped, each space a hyphen.
    @Test(arguments: [
        ("Install `kubectl` now!", "install-kubectl-now"),
        ("Set up Pods", "set-up-pods"),
        ("Café & Crème", "café--crème"),
        ("C++ and C#", "c-and-c"),
        ("snake_case and kebab-case", "snake_case-and-kebab-case"),
        ("Ünïcödé 東京 2024", "ünïcödé-東京-2024"),
        ("Emoji 🚀 launch", "emoji--launch"),
        ("What's new in v1.2?", "whats-new-in-v12"),
        ("  Spaces  inside  ", "--spaces--inside--"),
    ])
    func slugsAreGitHubs(text: String, slug: String) {
        #expect(HeadingAnchors.slug(text) == slug)
    }

    /// The byte-by-byte slug of ASCII text is the one Unicode's categories give, for every ASCII character.
    @Test func asciiSlugsAreTheUnicodeOnes() throws {
        let everyCharacter = String(decoding: (0..<128).map { UInt8($0) }, as: UTF8.self)
        #expect(try #require(HeadingAnchors.asciiSlug(everyCharacter)) == HeadingAnchors.unicodeSlug(everyCharacter))
        var generator = SeededRandom(seed: 0xee03)
        for _ in 0..<500 {
            let length = Int.random(in: 0..<30, using: &generator)
            let text = String(decoding: (0..<length).map { _ in UInt8.random(in: 0..<128, using: &generator) }, as: UTF8.self)
            #expect(try #require(HeadingAnchors.asciiSlug(text)) == HeadingAnchors.unicodeSlug(text), "\(text.debugDescription)")
        }
        #expect(HeadingAnchors.asciiSlug("Café") == nil)
    }

    @Test func repeatedHeadingsAreNumberedInOrder() {
        var anchors = HeadingAnchors()
        #expect(["Usage", "Usage", "Usage-1", "Usage"].map { anchors.id(for: $0) } == ["usage", "usage-1", "usage-1-1", "usage-2"])
    }

    @Test func headingsNeverTakeTheThemesIdsAndNeverAnEmptyOne() {
        var anchors = HeadingAnchors()
        #expect(["Main", "Top", "Terms on page", "!!!", "???"].map { anchors.id(for: $0) } == ["main-1", "top-1", "terms-on-page-1", "section", "section-1"])
    }
}
