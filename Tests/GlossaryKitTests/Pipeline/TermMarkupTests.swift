import Testing

@testable import GlossaryKit

/// A wrapper cache shared across pages and sites gives each reference the wrapper made without it.
@Suite struct TermMarkupTests {
    private static func references(_ words: [(String, Bool)]) -> [TermReference] {
        words.map { word, isAutomatic in
            TermReference(
                shown: word, word: word, key: TermKey(word)!, location: GlossaryKit.SourceLocation(file: "a.md", line: 1, column: 1),
                isAutomatic: isAutomatic)
        }
    }

    @Test func aSharedCacheGivesWhatNoCacheGivesWhateverTheSlugRootOrKind() {
        let cache = TermMarkup.Cache()
        let references = Self.references([("ship", false), ("ship", true), ("sail", false), ("ship", false), ("mast", true)])
        // The same uses met with other slugs (a definition added or gone), another root and other kinds, in turn.
        let slugSets: [[String: String]] = [["ship": "ship", "sail": "sail"], ["ship": "ship-2"], [:], ["ship": "ship", "mast": "mast"]]
        for rootPath in ["/", "/docs/", "/"] {
            for slugs in slugSets {
                let target = { (key: TermKey) in slugs[key.rawValue].map { TermMarkup.Target(slug: $0, key: key.rawValue) } }
                let cached = TermMarkup.wrappers(references, rootPath: rootPath, cache: cache, linked: target)
                let fresh = TermMarkup.wrappers(references, rootPath: rootPath, linked: target)
                #expect(cached == fresh, "\(rootPath) \(slugs)")
            }
        }
        let linked = TermMarkup.wrappers(references, rootPath: "/docs/", cache: cache) { _ in TermMarkup.Target(slug: "x", key: "x <y>") }
        #expect(linked[0].open == #"<a class="term" href="/docs/terms/x/" data-term="x &lt;y&gt;">"#)
    }
}
