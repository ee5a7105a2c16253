import Foundation
import Testing

@testable import GlossaryServer

@Suite struct WatchScopeTests {
    let root = URL(fileURLWithPath: "/site")

    @Test func pathsAreNormalisedAndNoneLiesInsideAnother() {
        let scope = WatchScope(root: root, paths: ["content/", "./themes", "content/glossary", "../outside", "a/../b", "", ".glossary//cache"])
        #expect(scope.paths == [".glossary/cache", "content", "themes"])
        #expect(scope.parents == ["": [".glossary", "content", "themes"], ".glossary": ["cache"]])
    }

    @Test(arguments: [
        ("content", true), ("content/guide/intro.md", true), ("glossary.yml", true), ("themes/default/assets/site.css", true),
        (".glossary", true), (".glossary/cache/en/word.json", true), ("", true),
        ("content/.well-known/page.md", true), ("content/.git/config", false), ("content/guide/intro.md~", false), ("content/guide/4913", false),
        ("site/index.html", false),
        ("glossary.yml.swp", false), (".glossary/lock", false), ("contents/x.md", false),
    ])
    func containsWhatTheBuildReads(path: String, contained: Bool) {
        let scope = WatchScope(root: root, paths: WatchScope.sitePaths + [".glossary/cache"])
        #expect(scope.contains(path) == contained)
    }
}
