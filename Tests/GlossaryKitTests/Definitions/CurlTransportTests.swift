import Foundation
import TestSupport
import Testing

@testable import GlossaryKit

/// Real libcurl against a real server on 127.0.0.1.
@Suite struct CurlTransportTests {
    static func options(concurrency: Int = 4, timeout: Double = 5, maxBodyBytes: Int = 2 << 20) -> CurlTransport.Options {
        .init(
            maxConcurrent: concurrency, connectTimeout: timeout, totalTimeout: timeout, userAgent: "glossary/\(GlossaryVersion.current)",
            maxBodyBytes: maxBodyBytes)
    }

    @Test func getsABodyAndSendsTheAgreedHeaders() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.script("/hello", .json(200, #"[{"word":"hello"}]"#))
        let transport = CurlTransport(options: Self.options())

        let result = await transport.get(server.url("/hello"))

        #expect(result == .success(TransportResponse(status: 200, body: Data(#"[{"word":"hello"}]"#.utf8))))
        let headers = try #require(server.requests.first).headers
        #expect(headers["user-agent"] == "glossary/\(GlossaryVersion.current)")
        #expect(headers["accept"] == "application/json")
        #expect(headers["accept-encoding"]?.contains("gzip") == true)
    }

    @Test func reportsStatusAndRetryAfterOfAnError() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.script("/busy", .json(429, "{}", headers: ["Retry-After": "7"]))

        let result = await CurlTransport(options: Self.options()).get(server.url("/busy"))

        #expect(result == .success(TransportResponse(status: 429, body: Data("{}".utf8), retryAfter: 7)))
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.script("/slow", .hang)

        let result = await CurlTransport(options: Self.options(timeout: 0.5)).get(server.url("/slow"))

        #expect(result == .failure(TransportFailure(.timedOut, detail: "Timeout was reached")))
    }

    @Test func aClosedPortRefusesTheConnection() async throws {
        let url = try Self.closedPortURL()
        let result = await CurlTransport(options: Self.options()).get(url)
        #expect(result == .failure(TransportFailure(.cannotConnect, detail: "Couldn't connect to server")))
    }

    /// A refused connection reached no server, so it gives its turn of the rate limit back: with one request in ten
    /// minutes allowed, the second and third refused attempts still leave at once.
    @Test func aRefusedConnectionDoesNotSpendTheRateLimit() async throws {
        let url = try Self.closedPortURL()
        let pacer = RequestPacer(limit: 1, window: .seconds(600))
        var options = Self.options()
        options.pacer = pacer
        let transport = CurlTransport(options: options)

        for _ in 0..<3 {
            #expect(await transport.get(url) == .failure(TransportFailure(.cannotConnect, detail: "Couldn't connect to server")))
        }

        #expect(pacer.reserve(now: .now) == nil, "the one allowed request is still there to be made")
    }

    @Test func onceTheClientStopsNothingIsSent() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let pacer = RequestPacer(limit: 10, window: .seconds(1))
        pacer.stop(.cannotConnect(failures: 5))
        var options = Self.options()
        options.pacer = pacer

        let result = await CurlTransport(options: options).get(server.url("/w"))

        #expect(result == .failure(TransportFailure(.notSent, detail: "not sent: the client stopped asking")))
        #expect(server.requests.isEmpty && server.connectionCount == 0)
    }

    /// A transfer under way when the client stops asking is abandoned, not waited on for its timeout: it comes back
    /// unsent, as a queued one would.
    @Test func onceTheClientStopsTransfersUnderWayAreAbandoned() async throws {
        let (arrivals, arrived) = AsyncStream.makeStream(of: String.self)
        let server = try LoopbackServer { request in
            arrived.yield(request.path)
            return .hang
        }
        defer { server.stop() }
        let pacer = RequestPacer(limit: 10, window: .seconds(1))
        var options = Self.options(timeout: 600)
        options.pacer = pacer
        let transport = CurlTransport(options: options)

        async let result = transport.get(server.url("/slow"))
        for await path in arrivals where path == "/slow" { break }
        pacer.stop(.timedOut(seconds: 600, failures: 5))

        #expect(await result == .failure(TransportFailure(.notSent, detail: "not sent: the client stopped asking")))
    }

    @Test func aBodyCutShortIsANetworkFailure() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.script("/cut", .truncated(declaredLength: 1000, body: Data(#"[{"word":"#.utf8)))

        let result = await CurlTransport(options: Self.options()).get(server.url("/cut"))

        #expect(result == .failure(TransportFailure(.network, detail: "Transferred a partial file")))
    }

    @Test func aDeclaredLengthOverTheCapIsRefusedBeforeTheBody() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.script("/big", .respond(status: 200, body: Data(repeating: UInt8(ascii: " "), count: 5000)))

        let result = await CurlTransport(options: Self.options(maxBodyBytes: 4096)).get(server.url("/big"))

        #expect(result == .failure(TransportFailure(.bodyTooLarge, detail: "Maximum file size exceeded")))
    }

    @Test func anUndeclaredBodyOverTheCapIsAbortedWhileArriving() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.script("/stream", .closeDelimited(body: Data(repeating: UInt8(ascii: " "), count: 100_000)))

        let result = await CurlTransport(options: Self.options(maxBodyBytes: 4096)).get(server.url("/stream"))

        #expect(result == .failure(TransportFailure(.bodyTooLarge, detail: "Failed writing received data to disk/application")))
    }

    @Test func refusesSchemesOtherThanHTTP() async throws {
        let result = await CurlTransport(options: Self.options()).get("file:///etc/passwd")
        #expect(result == .failure(TransportFailure(.badURL, detail: "Unsupported protocol")))
    }

    @Test(arguments: [1, 3, 8])
    func keepsExactlyTheConfiguredNumberOfTransfersInFlight(concurrency: Int) async throws {
        let server = try LoopbackServer { _ in .json(200, "[]", delay: 0.1) }
        defer { server.stop() }
        let transport = CurlTransport(options: Self.options(concurrency: concurrency))

        await withTaskGroup(of: Void.self) { group in
            for index in 0..<(concurrency * 3) {
                group.addTask { _ = await transport.get(server.url("/word\(index)")) }
            }
        }

        #expect(server.requests.count == concurrency * 3)
        #expect(server.maxInFlight == concurrency)
        // Keep-alive: connections are reused rather than opened per request.
        #expect(server.connectionCount == concurrency)
    }

    /// A URL on a port nothing listens on: bind one, note its number, close it.
    static func closedPortURL() throws -> String {
        "http://127.0.0.1:\(try ClosedPort.make())/api/v2/entries/en/word"
    }
}
