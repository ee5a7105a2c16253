import Foundation
import GlossaryKit
import Testing

@testable import GlossaryServer

/// The preview server over real sockets: what it serves, and what it refuses.
@Suite struct SiteResponderTests {
    static let files =
        ServerTestSite.basic + """

            -- content/images/logo.svg --
            <svg xmlns="http://www.w3.org/2000/svg"/>
            -- content/files/notes.txt --
            plain notes
            -- content/files/feed.xml --
            <feed/>
            -- content/files/data.json --
            {"a": 1}
            -- content/.well-known/security.txt --
            Contact: mailto:security@example.org
            """

    @Test func startsOnAFreePortAndAnswersGETAndHEAD() async throws {
        let site = try ServerTestSite(Self.files)
        let running = try await site.serve()
        #expect(running.port != 0)
        #expect(running.server.url == "http://127.0.0.1:\(running.port)/")

        let get = try running.get("/")
        #expect(get.status == 200)
        #expect(get.header("Content-Type") == "text/html; charset=utf-8")
        #expect(get.text.contains(#"<a class="term" href="/terms/kerning/" data-term="kerning">Kerning</a>"#))
        let head = try running.get("/", method: "HEAD")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.header("Content-Length") == String(get.body.count))
        #expect(head.header("ETag") == get.header("ETag"))
        await running.stop()
    }

    @Test func theTermAPIAndEmbedScriptAreReadableFromAnyOrigin() async throws {
        let site = try ServerTestSite(Self.files)
        let running = try await site.serve()
        for target in ["/terms/api.json", "/terms/index.json", "/embed.js"] {
            let response = try running.get(target)
            #expect(response.status == 200, "\(target)")
            #expect(response.header("Access-Control-Allow-Origin") == "*", "\(target)")
        }
        for target in ["/", "/assets/site.css", "/files/data.json"] {
            #expect(try running.get(target).header("Access-Control-Allow-Origin") == nil, "\(target)")
        }
        await running.stop()
    }

    @Test func keepsTheConnectionAliveBetweenRequests() async throws {
        let site = try ServerTestSite(Self.files)
        let running = try await site.serve()
        let client = try RawHTTPClient(port: running.port)
        for target in ["/", "/guide/intro/", "/terms/kerning/", "/assets/site.css", "/images/logo.svg"] {
            let response = try client.request("GET", target)
            #expect(response.status == 200, "\(target)")
            #expect(response.header("Connection")?.lowercased() != "close")
        }
        await running.stop()
    }

    static let types: [(name: String, type: String)] = [
        ("a.html", "text/html; charset=utf-8"), ("a.css", "text/css; charset=utf-8"), ("a.js", "text/javascript; charset=utf-8"),
        ("a.json", "application/json"), ("a.svg", "image/svg+xml"), ("a.png", "image/png"), ("a.jpg", "image/jpeg"),
        ("a.jpeg", "image/jpeg"), ("a.gif", "image/gif"), ("a.webp", "image/webp"), ("favicon.ico", "image/x-icon"),
        ("a.woff2", "font/woff2"), ("a.woff", "font/woff"), ("a.mp3", "audio/mpeg"), ("a.ogg", "audio/ogg"), ("a.wav", "audio/wav"),
        ("a.txt", "text/plain; charset=utf-8"), ("a.xml", "application/xml"), ("a.pdf", "application/pdf"),
        ("a.mp4", "video/mp4"), ("B.PNG", "image/png"), ("a.unknownext", "application/octet-stream"), ("noextension", "application/octet-stream"),
    ]

    @Test func servesEachFileTypeWithItsContentType() async throws {
        let site = try ServerTestSite()
        let bytes = Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0x01])
        for (name, _) in Self.types { try site.write("content/files/\(name)", bytes) }
        let running = try await site.serve()
        let client = try RawHTTPClient(port: running.port)
        for (name, type) in Self.types {
            let response = try client.request("GET", "/files/\(name)")
            #expect(response.status == 200, "\(name)")
            #expect(response.header("Content-Type") == type, "\(name)")
            #expect(response.body == bytes, "\(name)")
        }
        await running.stop()
    }

    @Test func renderedAndGeneratedFilesHaveTheirTypes() async throws {
        let site = try ServerTestSite(Self.files)
        let running = try await site.serve()
        #expect(try running.get("/terms/index.json").header("Content-Type") == "application/json")
        #expect(try running.get("/assets/app.js").header("Content-Type") == "text/javascript; charset=utf-8")
        #expect(try running.get("/files/feed.xml").header("Content-Type") == "application/xml")
        #expect(try running.get("/search/").header("Content-Type") == "text/html; charset=utf-8")
        await running.stop()
    }

    @Test(arguments: ["/guide/intro/", "/assets/site.css", "/images/logo.svg"])
    func answersNotModifiedToMatchingValidators(target: String) async throws {
        let site = try ServerTestSite(Self.files)
        let running = try await site.serve()
        let first = try running.get(target)
        let etag = try #require(first.header("ETag"))
        let lastModified = try #require(first.header("Last-Modified"))
        #expect(first.header("Cache-Control") == "no-cache")

        let byTag = try running.get(target, headers: ["If-None-Match: \(etag)"])
        #expect(byTag.status == 304)
        #expect(byTag.body.isEmpty)
        #expect(byTag.header("ETag") == etag)
        #expect(try running.get(target, headers: ["If-None-Match: \"other\", \(etag)"]).status == 304)
        #expect(try running.get(target, headers: ["If-None-Match: W/\(etag)"]).status == 304)
        #expect(try running.get(target, method: "HEAD", headers: ["If-None-Match: \(etag)"]).status == 304)
        #expect(try running.get(target, headers: ["If-Modified-Since: \(lastModified)"]).status == 304)

        #expect(try running.get(target, headers: ["If-None-Match: \"stale\""]).status == 200)
        #expect(try running.get(target, headers: ["If-Modified-Since: Thu, 01 Jan 1970 00:00:00 GMT"]).status == 200)
        // If-None-Match decides when both are sent.
        #expect(try running.get(target, headers: ["If-None-Match: \"stale\"", "If-Modified-Since: \(lastModified)"]).status == 200)
        await running.stop()
    }

    @Test func validatorsChangeOnlyWhenTheFileChanges() async throws {
        let site = try ServerTestSite(Self.files)
        let running = try await site.serve()
        let events = try running.events()
        #expect(await events.next("hello") != nil)
        let intro = try #require(try running.get("/guide/intro/").header("ETag"))
        let home = try #require(try running.get("/").header("ETag"))
        try site.write("content/guide/intro.md", "---\ntitle: Intro\n---\nChanged text.\n")
        #expect(await events.next("build") != nil)
        #expect(try running.get("/guide/intro/").header("ETag") != intro)
        #expect(try running.get("/guide/intro/", headers: ["If-None-Match: \(intro)"]).status == 200)
        #expect(try running.get("/").header("ETag") == home)
        #expect(try running.get("/", headers: ["If-None-Match: \(home)"]).status == 304)
        await running.stop()
    }

    @Test func redirectsAFolderWithoutItsSlashAndNeverListsOne() async throws {
        let site = try ServerTestSite(Self.files)
        let running = try await site.serve()
        let guide = try running.get("/guide")
        #expect(guide.status == 301)
        #expect(guide.header("Location") == "/guide/")
        let terms = try running.get("/terms/kerning")
        #expect(terms.status == 301)
        #expect(terms.header("Location") == "/terms/kerning/")
        // A folder of copied files has no index.html: redirected, then not found — never a listing.
        #expect(try running.get("/images").header("Location") == "/images/")
        let images = try running.get("/images/")
        #expect(images.status == 404)
        #expect(!images.text.contains("logo.svg"))
        #expect(try running.get("/guide/intro/index.html").status == 200)
        await running.stop()
    }

    @Test(arguments: ["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "PROPFIND"])
    func refusesOtherMethods(method: String) async throws {
        let site = try ServerTestSite(Self.files)
        let running = try await site.serve()
        let response = try RawHTTPClient(port: running.port).request(method, "/")
        #expect(response.status == 405)
        #expect(response.header("Allow") == "GET, HEAD")
        await running.stop()
    }

    @Test func aRequestWithABodyIsRefusedWithoutReadingIt() async throws {
        let site = try ServerTestSite(Self.files)
        let running = try await site.serve()
        let client = try RawHTTPClient(port: running.port)
        try client.send("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\npartial")
        #expect(try client.readResponse().status == 405)
        await running.stop()
    }

    @Test func missingPathsGetTheThemes404PageWithStatus404() async throws {
        let site = try ServerTestSite(Self.files)
        let running = try await site.serve()
        let notFoundPage = try #require(FileManager.default.contents(atPath: running.server.folder.appendingPathComponent("404.html").path))
        for target in ["/nope/", "/nope", "/guide/nope.html", "/terms/nope/", "/.DS_Store", "/.git/config"] {
            let response = try running.get(target)
            #expect(response.status == 404, "\(target)")
            #expect(response.header("Content-Type") == "text/html; charset=utf-8")
            #expect(response.text.contains("Not found (theme 404)"))
            #expect(response.text.contains("data-glossary-live-reload"))
            #expect(response.body == notFoundPage)
        }
        await running.stop()
    }

    @Test func publishedDotfilesAreServedAsTheyWillBeDeployed() async throws {
        let site = try ServerTestSite(Self.files)
        let running = try await site.serve()
        let response = try running.get("/.well-known/security.txt")
        #expect(response.status == 200)
        #expect(response.text == "Contact: mailto:security@example.org\n")
        await running.stop()
    }

    /// Request targets sent byte for byte; none may reveal anything outside the built site.
    static let hostileTargets = [
        "/../secret.txt", "/../../secret.txt", "/guide/../../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/%2E%2E/secret.txt",
        "/.%2e/secret.txt", "/%2e./secret.txt", "/..%2fsecret.txt", "/..%2Fsecret.txt", "/guide/..%2f..%2fsecret.txt",
        "/%2e%2e%2fsecret.txt", "/%252e%252e/secret.txt", "/%252e%252e%252fsecret.txt", "/..%5csecret.txt", "/..\\secret.txt",
        "/guide\\..\\..\\secret.txt", "/%5c..%5c..%5csecret.txt", "//etc/passwd", "/etc/passwd", "/%2fetc%2fpasswd",
        "/secret.txt%00.html", "/guide/intro/%00", "/%00", "/index.html%00", "/..%00/secret.txt", "/%c0%ae%c0%ae/secret.txt",
        "/%ff%fe", "/%zz", "/%2", "/./secret.txt", "/guide/./intro/", "/private/secret.txt", "/leak.txt", "/outside/secret.txt",
        "/glossary.yml", "/../site-source/glossary.yml", "/content/index.md", "/themes/default/templates/base.mustache",
        "/.git/config", "/.glossary/cache", "/guide/.%2e/.%2e/secret.txt", "http://127.0.0.1/../secret.txt", "*",
        "/%2e%2e%5c%2e%2e%5csecret.txt", "/....//secret.txt", "/..;/secret.txt",
    ]

    @Test func neverServesAFileFromOutsideTheSite() async throws {
        let site = try ServerTestSite(Self.files)
        // Symlinks inside content/ that lead out: to a file, and to a folder.
        try FileManager.default.createSymbolicLink(
            atPath: site.url("content/leak.txt").path, withDestinationPath: site.sandbox.appendingPathComponent("secret.txt").path)
        try FileManager.default.createSymbolicLink(
            atPath: site.url("content/outside").path, withDestinationPath: site.sandbox.appendingPathComponent("private").path)
        let running = try await site.serve()
        #expect(Self.hostileTargets.count >= 40)
        for target in Self.hostileTargets {
            let client = try RawHTTPClient(port: running.port)
            try client.send("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            let response: RawHTTPClient.Response
            do {
                response = try client.readResponse()
            } catch {
                continue  // the server may drop a request line it can't parse: nothing was revealed
            }
            #expect([301, 400, 403, 404].contains(response.status), "\(target) → \(response.status)")
            #expect(!response.text.contains(site.secret), "\(target) revealed the secret")
            #expect(!response.text.contains("title: Test Glossary"), "\(target) revealed glossary.yml")
        }
        // The build leaves the link out of content/ unpublished, and the server would refuse it anyway.
        #expect(running.first.result.outputs?.paths.contains("leak.txt") == false)
        #expect(try running.get("/leak.txt").status == 404)
        #expect(try running.get("/outside/secret.txt").status == 404)
        await running.stop()
    }

    @Test func aSymlinkThatStaysInsideContentIsServed() async throws {
        let site = try ServerTestSite(Self.files)
        try FileManager.default.createSymbolicLink(atPath: site.url("content/alias.txt").path, withDestinationPath: site.url("content/files/notes.txt").path)
        let running = try await site.serve()
        let response = try running.get("/alias.txt")
        #expect(response.status == 200)
        #expect(response.text == "plain notes\n")
        await running.stop()
    }

    @Test func oversizedHeadersAreRefusedAndTheServerCarriesOn() async throws {
        let site = try ServerTestSite(Self.files)
        let running = try await site.serve()
        let client = try RawHTTPClient(port: running.port)
        try client.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: \(String(repeating: "a", count: 64 * 1024))\r\n\r\n")
        if let response = try? client.readResponse() {
            #expect([400, 413, 414, 431].contains(response.status))
        }
        #expect(try running.get("/").status == 200)
        await running.stop()
    }

    @Test func idleConnectionsAreClosedAfterTheTimeout() async throws {
        let site = try ServerTestSite(Self.files)
        let running = try await site.serve { $0.idleTimeoutSeconds = 1 }
        let client = try RawHTTPClient(port: running.port, timeout: 6)
        #expect(try client.request("GET", "/").status == 200)
        let (closed, seconds) = await blocking {
            let start = Date()
            return (client.isClosedByServer(), Date().timeIntervalSince(start))
        }
        #expect(closed)
        print("closed after \(seconds) s")
        await running.stop()
    }

    @Test func fiftyConcurrentClientsAreAllAnswered() async throws {
        let site = try ServerTestSite(Self.files)
        let running = try await site.serve()
        let port = running.port
        let statuses = await withTaskGroup(of: [Int].self) { group in
            for index in 0..<50 {
                group.addTask {
                    // Each client opens its own connection and makes a few keep-alive requests.
                    guard let client = try? RawHTTPClient(port: port) else { return [-1] }
                    return ["/", "/guide/intro/", "/terms/\(index % 2 == 0 ? "kerning" : "leading")/"].map { (try? client.request("GET", $0).status) ?? -1 }
                }
            }
            var all: [Int] = []
            for await result in group { all += result }
            return all
        }
        #expect(statuses.count == 150)
        #expect(statuses.allSatisfy { $0 == 200 })
        await running.stop()
    }

    @Test func servesTheSiteUnderItsBaseURLPath() async throws {
        let site = try ServerTestSite(Self.files.replacingOccurrences(of: "title: Test Glossary", with: "title: Test Glossary\nbase_url: /docs/"))
        let running = try await site.serve()
        #expect(running.server.url == "http://127.0.0.1:\(running.port)/docs/")
        #expect(try running.get("/").header("Location") == "/docs/")
        #expect(try running.get("/docs").header("Location") == "/docs/")
        let home = try running.get("/docs/")
        #expect(home.status == 200)
        #expect(home.text.contains(#"href="/docs/terms/kerning/""#))
        #expect(try running.get("/docs/assets/site.css").status == 200)
        #expect(try running.get("/guide/intro/").status == 404)
        await running.stop()
    }

    @Test func theLinksOfABuildLeadToFoldersNamedWithEscapes() async throws {
        let site = try ServerTestSite(
            ServerTestSite.basic + """

                -- content/C#/index.md --
                ---
                title: C Sharp
                ---
                [[kerning]] in C#.
                -- content/100%/full.md --
                ---
                title: Full
                ---
                [[kerning]], fully.
                -- content/a b/index.md --
                ---
                title: A B
                ---
                [[kerning]] spaced.
                -- content/é/index.md --
                ---
                title: E acute
                ---
                [[kerning]] accented.
                """)
        let running = try await site.serve()
        let page = try running.get("/terms/kerning/").text
        let usedOn = try #require(page.components(separatedBy: "<ul class=\"used-on\">").last?.components(separatedBy: "</ul>").first)
        let hrefs = usedOn.components(separatedBy: "href=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(hrefs == ["/100%25/full/", "/C%23/", "/a%20b/", "/guide/intro/", "/", "/%C3%A9/"])
        for href in hrefs {
            // What a browser requests for the href: its path, nothing cut off as a fragment or query.
            let components = try #require(URLComponents(string: href), "\(href)")
            #expect(components.fragment == nil && components.query == nil, "\(href)")
            let response = try running.get(components.percentEncodedPath)
            #expect(response.status == 200, "\(href)")
            #expect(response.text.contains("/terms/kerning/"), "\(href)")
        }
        await running.stop()
    }

    @Test func aRootThatNeedsEncodingIsRedirectedToAndAnnouncedEncoded() async throws {
        let site = try ServerTestSite(Self.files.replacingOccurrences(of: "title: Test Glossary", with: "title: Test Glossary\nbase_url: /my docs/"))
        let running = try await site.serve()
        #expect(running.server.url == "http://127.0.0.1:\(running.port)/my%20docs/")
        #expect(try running.get("/").header("Location") == "/my%20docs/")
        let home = try running.get("/my%20docs/")
        #expect(home.status == 200)
        #expect(home.text.contains(#"href="/my%20docs/terms/kerning/""#))
        await running.stop()
    }

    @Test func onLoopbackOnlyRequestsForThisMachineAreAnswered() async throws {
        let site = try ServerTestSite(Self.files)
        let running = try await site.serve()
        for host in ["127.0.0.1", "127.0.0.1:\(running.port)", "localhost:\(running.port)", "LOCALHOST", "preview.localhost", "[::1]:80", "127.1.2.3"] {
            #expect(try running.get("/", headers: ["Host: \(host)"]).status == 200, "\(host)")
        }
        for host in ["evil.example", "evil.example:\(running.port)", "127.0.0.1.evil.example", "10.0.0.1", "[::2]", "localhost.evil"] {
            let response = try RawHTTPClient(port: running.port).request("GET", "/", headers: ["Host: \(host)"])
            #expect(response.status == 403, "\(host)")
            #expect(response.text.contains("only answers requests for localhost or 127.0.0.1"))
        }
        await running.stop()
    }
}
