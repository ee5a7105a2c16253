import Foundation
import Testing

@testable import GlossaryServer

/// The libmicrohttpd layer alone, with a trivial handler.
@Suite struct HTTPServerTests {
    static func server(_ adjust: (inout HTTPServer.Configuration) -> Void = { _ in }) throws -> HTTPServer {
        var configuration = HTTPServer.Configuration(address: ListenAddress(host: "127.0.0.1", port: 0)!)
        adjust(&configuration)
        let server = HTTPServer(configuration: configuration) { request in .plain(200, "\(request.method) \(request.rawPath)\n") }
        try server.start()
        return server
    }

    @Test func connectionsBeyondTheLimitAreTurnedAway() async throws {
        let server = try Self.server { $0.connectionLimit = 4 }
        defer { server.stop() }
        let admitted = try (0..<4).map { _ in try RawHTTPClient(port: server.port) }
        for client in admitted { #expect(try client.request("GET", "/").status == 200) }
        let refused = try RawHTTPClient(port: server.port, timeout: 3)
        #expect(await blocking { (try? refused.request("GET", "/")) == nil })
        // Room again once a client leaves.
        shutdown(admitted[0].descriptor, Int32(SHUT_RDWR))
        let port = server.port
        #expect(await waitUntil(timeout: 5) { (try? RawHTTPClient(port: port, timeout: 2).request("GET", "/").status) == 200 })
    }

    @Test func keepsConnectionsAliveAndLetsMHDAnswerHEAD() throws {
        let server = try Self.server()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        let get = try client.request("GET", "/a%2Fb?query=1")
        #expect(get.text == "GET /a%2Fb\n")  // the path as sent: not unescaped, query removed
        #expect(get.header("Connection")?.lowercased() != "close")
        let head = try client.request("HEAD", "/x")
        #expect(head.status == 200)
        #expect(head.header("Content-Length") == "8")
        #expect(try client.request("GET", "/y").text == "GET /y\n")
    }

    @Test func aGETWithABodyIsRefused() throws {
        let server = try Self.server()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        try client.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n\r\nhello")
        #expect(try client.readResponse().status == 400)
    }

    @Test func stopIsPromptAndIdempotent() throws {
        // Its own answer: a port freed by `stop` may be handed to another test's server (port 0) at once.
        let token = UUID().uuidString
        let server = HTTPServer(configuration: HTTPServer.Configuration(address: ListenAddress(host: "127.0.0.1", port: 0)!)) { _ in .plain(200, token) }
        try server.start()
        let port = server.port
        let idle = try RawHTTPClient(port: port)
        #expect(try idle.request("GET", "/").text == token)
        server.stop()
        server.stop()
        #expect(idle.isClosedByServer())
        // Nothing listens there any more, or something else does and answers: not a socket left open unanswered.
        if let other = try? RawHTTPClient(port: port) {
            let answer = try? other.request("GET", "/")
            #expect(answer != nil && answer?.text != token, "the stopped server's port still takes connections")
        }
    }
}
