import Foundation
import TestSupport
import Testing

@testable import GlossaryKit

/// Where internal links lead and how they are written out.
@Suite struct LinkRewriterTests {
    static let rewriter = LinkRewriter(
        rootPath: "/docs/",
        pages: [
            ("index.md", ""), ("guide/intro.md", "guide/intro/"), ("guide/index.md", "guide/"), ("notes/a b.md", "notes/a b/"), ("C#/intro.md", "C#/intro/"),
            ("100%/full.md", "100%/full/"),
        ])

    static func page(_ contentPath: String) -> Page {
        Page(kind: .page, displayPath: "content/" + contentPath, contentPath: contentPath, metadata: PageMetadata())
    }

    @Test func internalTargets() {
        let intro = Self.page("guide/intro.md")
        let cases: [(String, String?)] = [
            ("/guide/intro/", "guide/intro/"),
            ("/notes/a%20b/", "notes/a b/"),
            ("/", ""),
            ("intro.md", "guide/intro/"),
            ("../index.md", ""),
            ("./index.md#top", "guide/"),
            ("missing.md", "guide/missing.md"),
            ("../../../etc.md", "etc.md"),
            ("other/", "guide/intro/other/"),
            ("../x", "guide/x"),
            ("img.png?v=2", "guide/intro/img.png"),
            // A link's path is decoded once to the names of the site's files; `#` in a name can only be written encoded.
            ("../C%23/intro.md", "C#/intro/"),
            ("../100%25/full.md#top", "100%/full/"),
            ("../notes/a%20b.md", "notes/a b/"),
            ("../notes/a b.md", "notes/a b/"),
            ("my%20image.png", "guide/intro/my image.png"),
            ("/C%23/intro/", "C#/intro/"),
            ("/100%/", "100%/"),
            ("../C#/intro.md", "guide/C"),
            ("#section", nil),
            ("?q=1", nil),
            ("https://example.org/", nil),
            ("HTTPS://example.org/", nil),
            ("mailto:someone@example.org", nil),
            ("//cdn.example.org/x.js", nil),
            ("", nil),
        ]
        for (link, expected) in cases {
            #expect(Self.rewriter.internalTarget(link, from: intro) == expected, "\(link)")
        }
    }

    @Test func rewrittenLinksFollowTheRootAndPrettyURLs() {
        let intro = Self.page("guide/intro.md")
        #expect(Self.rewriter.rewrittenLink("../index.md#top", from: intro) == "/docs/#top")
        #expect(Self.rewriter.rewrittenLink("index.md?x=1", from: intro) == "/docs/guide/?x=1")
        #expect(Self.rewriter.rewrittenLink("/guide/intro/", from: intro) == "/docs/guide/intro/")
        #expect(Self.rewriter.rewrittenLink("missing.md", from: intro) == nil, "a link to no page stays as written (and is reported)")
        #expect(Self.rewriter.rewrittenLink("https://example.org/a.md", from: intro) == nil)
        #expect(Self.rewriter.rewrittenLink("//cdn.example.org/", from: intro) == nil)
        #expect(Self.rewriter.rewrittenLink("other/", from: intro) == nil, "relative links are relative in the output too")
    }

    @Test func rewrittenLinksAreEncodedOnce() {
        let intro = Self.page("guide/intro.md")
        #expect(Self.rewriter.rewrittenLink("../C%23/intro.md#top", from: intro) == "/docs/C%23/intro/#top")
        #expect(Self.rewriter.rewrittenLink("../100%25/full.md", from: intro) == "/docs/100%25/full/")
        #expect(Self.rewriter.rewrittenLink("../notes/a b.md", from: intro) == "/docs/notes/a%20b/")
        #expect(Self.rewriter.rewrittenLink("/C%23/intro/", from: intro) == "/docs/C%23/intro/", "a site-absolute link keeps its spelling")
        #expect(Self.rewriter.rewrittenLink("../C#/intro.md", from: intro) == nil, "a link to `../C` with a fragment")
        let spaced = LinkRewriter(rootPath: "/my docs/", pages: [("C#/intro.md", "C#/intro/")])
        #expect(spaced.rewrittenLink("C%23/intro.md", from: Self.page("index.md")) == "/my%20docs/C%23/intro/")
        #expect(spaced.rewrittenLink("/x/", from: Self.page("index.md")) == "/my%20docs/x/")
    }

    @Test(arguments: [
        ("/", "/"), ("/docs", "/docs/"), ("/docs/", "/docs/"), ("/my%20docs/", "/my docs/"), ("/my docs/", "/my docs/"), ("/100%/", "/100%/"),
        ("https://example.org", "/"), ("https://example.org/", "/"), ("https://example.org:8443/docs", "/docs/"),
        ("https://example.org/%C3%BCber%20docs/", "/über docs/"), ("https://example.org/über docs/", "/über docs/"),
        ("https://example.org/a%23b/", "/a#b/"), ("http://example.org/docs/?x=1#y", "/docs/"),
    ])
    func theRootIsBaseURLsPathDecodedOnce(baseURL: String, rootPath: String) {
        #expect(LinkRewriter.rootPath(baseURL: baseURL) == rootPath)
    }

    @Test func schemesAreASCIIBeforeAColon() {
        for text in ["https:", "mailto:x", "x-y+z.1:", "a:"] { #expect(LinkRewriter.hasScheme(text), "\(text)") }
        for text in [":x", "/a:b", "é:x", "a b:c", "path/to", "", "c++"] { #expect(!LinkRewriter.hasScheme(text), "\(text)") }
    }

    @Test func normalizeMatchesTheSegmentByStepReading() {
        func reference(_ path: String) -> String {
            var parts: [Substring] = []
            for part in path.split(separator: "/") {
                if part == "." { continue }
                if part == ".." { _ = parts.popLast() } else { parts.append(part) }
            }
            return parts.joined(separator: "/")
        }
        let pieces = ["a", "bc", ".", "..", "...", ".x", "x.", "/", "//", "é"]
        var random = SeededRandom(seed: 11)
        for _ in 0..<5000 {
            let path = (0..<Int(random.next() % 7)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            #expect(LinkRewriter.normalize(path) == reference(path), "\(path)")
        }
    }
}
