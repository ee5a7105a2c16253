import Testing

@testable import GlossaryServer

@Suite struct RequestPathTests {
    @Test(arguments: [
        ("/", ""), ("/index.html", "index.html"), ("/guide/", "guide/"), ("/guide/intro/", "guide/intro/"), ("/guide", "guide"),
        ("/assets/site.css", "assets/site.css"), ("/caf%C3%A9/", "café/"), ("/a%20b.txt", "a b.txt"), ("/100%25.png", "100%.png"),
        ("/%252e%252e/x", "%2e%2e/x"), ("/a..b/", "a..b/"), ("/terms/x/", "terms/x/"), ("/C%23/", "C#/"), ("/%3Fq/", "?q/"),
        ("/pct%252e%252e/", "pct%2e%2e/"),
    ])
    func decodesOnce(raw: String, path: String) {
        #expect(RequestPath(raw: raw) == .path(path))
    }

    @Test(arguments: [
        "/..", "/../x", "/a/../b", "/%2e%2e/x", "/%2E%2e/x", "/.%2e/x", "/./x", "/a/%2e/b", "/..%2fx", "/a%2Fb", "/a%5cb", "/a\\b",
        "/a%00b", "/%00", "/a%0ab", "/a%7f", "//x", "/a//b",
    ])
    func refusesTraversalsAndOddBytes(raw: String) {
        #expect(RequestPath(raw: raw) == .forbidden)
    }

    @Test(arguments: ["", "*", "x", "http://host/x", "/%", "/%2", "/%zz", "/%ff", "/%c0%ae", "/a b", "/a\tb", "/caf\u{E9}"])
    func refusesWhatIsNotAPath(raw: String) {
        #expect(RequestPath(raw: raw) == .malformed)
    }

    @Test(arguments: ["/.git/config", "/a/.gitignore", "/.hg/x", "/.svn/", "/%2egit/config", "/a/.DS_Store", "/a/.page.md.swp", "/a/page~"])
    func hidesWhatABuildNeverPublishes(raw: String) {
        #expect(RequestPath(raw: raw) == .hidden)
    }

    @Test(arguments: [("/.well-known/security.txt", ".well-known/security.txt"), ("/.nojekyll", ".nojekyll"), ("/a/%2ehtaccess", "a/.htaccess")])
    func servesDotfilesABuildPublishes(raw: String, path: String) {
        #expect(RequestPath(raw: raw) == .path(path))
    }

    /// Found by fuzzing (Fuzz/, request-path): a combining mark after `.` makes another Swift character, but the
    /// name still starts with a dot; one after `/` must not hide the segment's bytes either.
    @Test func combiningMarksDoNotHideADot() throws {
        #expect(RequestPath(raw: "/.%CC%81git") == .path(".\u{301}git"))
        #expect(RequestPath(raw: "/a/.%cc%81/x") == .path("a/.\u{301}/x"))
        let path = try #require(
            {
                if case .path(let path) = RequestPath(raw: "/%Cc%A9/ca") { return path }
                return nil
            }())
        #expect(Array(path.utf8) == [0xCC, 0xA9, 0x2F, 0x63, 0x61])
    }
}

@Suite struct ContentTypeTests {
    @Test func unknownAndMissingExtensionsAreOctetStreams() {
        #expect(ContentType.of("a/b") == "application/octet-stream")
        #expect(ContentType.of("a/.profile") == "application/octet-stream")
        #expect(ContentType.of("a.tar.unknown") == "application/octet-stream")
        #expect(ContentType.of("a.d/b") == "application/octet-stream")
        #expect(ContentType.of("A.HTML") == "text/html; charset=utf-8")
    }

    @Test func theExportsAndCrawlerFilesHaveTheirTypes() {
        #expect(ContentType.of("glossary.json") == "application/json")
        #expect(ContentType.of("glossary.csv") == "text/csv; charset=utf-8")
        #expect(ContentType.of("glossary.tbx") == "application/xml")
        #expect(ContentType.of("sitemap.xml") == "application/xml")
        #expect(ContentType.of("robots.txt") == "text/plain; charset=utf-8")
    }
}

@Suite struct HTTPDateTests {
    @Test func formatsAndParsesIMFFixdate() throws {
        let date = try #require(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT"))
        #expect(date.timeIntervalSince1970 == 784_111_777)
        #expect(HTTPDate.format(date) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == nil)
        #expect(HTTPDate.parse("garbage") == nil)
    }
}
