import Foundation
import Testing

@testable import GlossaryServer

/// Slow and greedy clients against the real server over real sockets: slowloris connections, held streams,
/// departed streams, one address taking every slot.
@Suite struct ConnectionGuardTests {
    /// A stream that sends one line, then stays silent — no heartbeat — until it is closed, so only the
    /// server's watch on the socket can notice its client leaving.
    final class SilentStream: HTTPStream, @unchecked Sendable {
        private let condition = NSCondition()
        private var started = false
        private var closed = false

        func next() -> Data? {
            condition.lock()
            defer { condition.unlock() }
            if !started {
                started = true
                return Data("ready\n".utf8)
            }
            while !closed { condition.wait() }
            return nil
        }

        func close() {
            condition.withLock {
                closed = true
                condition.broadcast()
            }
        }
    }

    /// A server of pages and silent streams. `stop()` ends the streams it made first, so a test whose
    /// server fails to notice a stream's end fails instead of hanging in `HTTPServer.stop()`.
    final class Server: @unchecked Sendable {
        let http: HTTPServer
        private let lock = NSLock()
        private var streams: [SilentStream] = []

        init(_ adjust: (inout HTTPServer.Configuration) -> Void) throws {
            var configuration = HTTPServer.Configuration(address: ListenAddress(host: "127.0.0.1", port: 0)!)
            adjust(&configuration)
            nonisolated(unsafe) weak var made: Server?
            http = HTTPServer(configuration: configuration) { request in
                guard request.rawPath == "/stream" else { return .plain(200, "page\n") }
                let stream = SilentStream()
                made?.lock.withLock { made?.streams.append(stream) }
                return HTTPResponse(status: 200, headers: [("Content-Type", "text/event-stream")], body: .stream(stream))
            }
            made = self
            try http.start()
        }

        var port: UInt16 { http.port }
        var configuration: HTTPServer.Configuration { http.configuration }
        var counts: ConnectionGuard.Counts { http.connectionGuard.current }

        func stop() {
            for stream in lock.withLock({ streams }) { stream.close() }
            http.stop()
        }
    }

    /// Header and idle deadlines no run of these tests reaches, even when a busy machine stalls a test for a minute:
    /// the tests that use them are about the other limits.
    static func farDeadlines(_ configuration: inout HTTPServer.Configuration) {
        configuration.headerTimeout = 3600
        configuration.idleTimeoutSeconds = 3600
    }

    static func server(_ adjust: (inout HTTPServer.Configuration) -> Void = { _ in }) throws -> Server {
        try Server(adjust)
    }

    /// Asks for a stream and reads the response head: the client (still connected) and the status.
    static func openStream(_ port: UInt16, from source: String = "127.0.0.1") throws -> (client: RawHTTPClient, status: Int) {
        let client = try RawHTTPClient(port: port, from: source)
        try client.send("GET /stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        return (client, try client.readHead().status)
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        SlowlorisSwarm.seconds(start.duration(to: .now))
    }

    @Test func slowlorisConnectionsAndHeldStreamsLeaveOtherClientsServed() async throws {
        // The default limits; a header deadline far off, so only the per-address and stream limits can help.
        let server = try Self.server { Self.farDeadlines(&$0) }
        defer { server.stop() }
        let limits = server.configuration
        let port = server.port
        var streams: [RawHTTPClient] = []
        for _ in 0..<limits.streamLimit {
            let (client, status) = try Self.openStream(port)
            #expect(status == 200)
            streams.append(client)
        }
        // 300 slowloris connections from the streams' address, 100 more from a second one.
        let first = try SlowlorisSwarm(count: 300, port: port)
        let second = try SlowlorisSwarm(count: 100, port: port, from: "127.0.0.3")
        let firstHeld = limits.perAddressConnectionLimit - limits.streamLimit
        #expect(await first.waitUntilClosed(300 - firstHeld, timeout: 5))
        #expect(await second.waitUntilClosed(100 - limits.perAddressConnectionLimit, timeout: 5))

        let start = ContinuousClock.now
        let page = try RawHTTPClient(port: port, from: "127.0.0.2").request("GET", "/")
        let elapsed = Self.seconds(since: start)
        #expect(page.status == 200)
        // Streams are full for everyone, and say so.
        #expect(try Self.openStream(port, from: "127.0.0.2").status == 503)
        // The attack was really held all along: every admitted connection still open, still sending.
        #expect(first.open == firstHeld)
        #expect(second.open == limits.perAddressConnectionLimit)
        #expect(server.counts.streams == limits.streamLimit)
        #expect(server.counts.headerTimeouts == 0)
        // The attackers' own address is served too: a new request there pushes out one of the slow heads.
        #expect(try RawHTTPClient(port: port).request("GET", "/").status == 200)
        #expect(await first.waitUntilClosed(300 - firstHeld + 1, timeout: 5))
        print(
            "slowloris: \(first.open + second.open) held (of 400), \(streams.count) streams held; a page from 127.0.0.2 in \(String(format: "%.1f", elapsed * 1000)) ms"
        )
    }

    @Test func aSlowlorisConnectionIsClosedAtItsHeaderDeadlineHoweverOftenItSends() async throws {
        let server = try Self.server { $0.headerTimeout = 0.5 }
        defer { server.stop() }
        let swarm = try SlowlorisSwarm(count: 3, port: server.port, interval: 0.05)
        #expect(await swarm.waitUntilClosed(3, timeout: 5))
        // Not before its deadline (how soon after it is the machine's business: `bench/`).
        for lifetime in swarm.lifetimes { #expect(lifetime >= 0.45, "closed after \(lifetime) s") }
        // A byte every 50 ms all along: MHD's idle timeout (30 s) never came near.
        #expect(swarm.headerBytesSent >= 3 * 7)
        #expect(server.counts.headerTimeouts == 3)
        print("slowloris at a 0.5 s header deadline: closed after \(swarm.lifetimes.map { String(format: "%.3f", $0) }) s")
    }

    @Test func theNextRequestHeadOnAKeepAliveConnectionHasItsOwnDeadline() async throws {
        let server = try Self.server { $0.headerTimeout = 0.3 }
        defer { server.stop() }
        // Requests back to back for three deadlines' time: each head is on time, so none is cut off. Then
        // idle: closed about one deadline after the last response. Timed on a thread of its own, so a busy
        // test run can't stretch the measurement.
        let port = server.port
        let (statuses, closedAfter) = await blocking { () -> ([Int], Double?) in
            guard let client = try? RawHTTPClient(port: port) else { return ([], nil) }
            let start = ContinuousClock.now
            var statuses: [Int] = []
            while Self.seconds(since: start) < 0.9 {
                statuses.append((try? client.request("GET", "/").status) ?? -1)
            }
            let idle = ContinuousClock.now
            return (statuses, client.isClosedByServer() ? Self.seconds(since: idle) : nil)
        }
        #expect(statuses.count > 3)
        #expect(statuses.allSatisfy { $0 == 200 })
        // The deadline runs from when the server finished the request, a little before this client read it:
        // the lower bound only rules out a close straight after the response.
        let waited = try #require(closedAfter)
        #expect(waited >= 0.1, "closed after \(waited) s idle")

        // A request answered, then the next head trickles in: cut off at its own deadline.
        let swarm = try SlowlorisSwarm(count: 1, port: server.port, interval: 0.05, prefix: "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(await swarm.waitUntilClosed(1, timeout: 5))
        #expect(swarm.lifetimes.allSatisfy { $0 >= 0.25 }, "\(swarm.lifetimes)")
    }

    @Test func oneAddressCannotTakeEverySlot() throws {
        let server = try Self.server {
            $0.connectionLimit = 8
            $0.perAddressConnectionLimit = 3
        }
        defer { server.stop() }
        // Streams are answered as long as they last, so none of them can make room for a newcomer.
        let held = try (0..<3).map { _ in try Self.openStream(server.port) }
        #expect(held.allSatisfy { $0.status == 200 })
        let oneTooMany = try RawHTTPClient(port: server.port, timeout: 2)
        #expect((try? oneTooMany.request("GET", "/")) == nil)
        #expect(server.counts.overAddressLimit == 1)
        #expect(server.counts.streams == 3)
        #expect(try RawHTTPClient(port: server.port, from: "127.0.0.2").request("GET", "/").status == 200)
    }

    @Test func atTheAddressLimitTheOldestHalfSentHeadMakesRoomForANewRequest() async throws {
        let server = try Self.server {
            $0.perAddressConnectionLimit = 8
            Self.farDeadlines(&$0)
        }
        defer { server.stop() }
        let swarm = try SlowlorisSwarm(count: 8, port: server.port)
        #expect(await waitUntil(timeout: 5) { server.counts.receivingHeads == 8 })
        #expect(try RawHTTPClient(port: server.port).request("GET", "/").status == 200)
        #expect(await swarm.waitUntilClosed(1, timeout: 5))
        #expect(swarm.closedMembers == [0])
        #expect(server.counts.overAddressLimit == 1)
    }

    @Test func atTheAddressLimitTheConnectionIdleLongestMakesRoomForANewRequest() throws {
        let server = try Self.server {
            $0.perAddressConnectionLimit = 8
            Self.farDeadlines(&$0)
        }
        defer { server.stop() }
        // Oldest first: four connections that never send, then four kept alive after a request.
        let silent = try (0..<4).map { _ in try RawHTTPClient(port: server.port) }
        let keptAlive = try (0..<4).map { _ in try RawHTTPClient(port: server.port) }
        for client in keptAlive { #expect(try client.request("GET", "/").status == 200) }
        let idle = silent + keptAlive
        let newcomer = try RawHTTPClient(port: server.port)
        #expect(try newcomer.request("GET", "/").status == 200)
        #expect(RawHTTPClient.closedByServer(among: idle) == [0])
        // The newcomer stays, kept alive for its next request; the second silent connection has waited longer.
        #expect(try RawHTTPClient(port: server.port).request("GET", "/").status == 200)
        #expect(RawHTTPClient.closedByServer(among: idle, count: 2) == [0, 1])
        #expect(server.counts.overAddressLimit == 2)
    }

    @Test func atTheAddressLimitAnIdleConnectionMakesRoomBeforeAnOlderHalfSentHead() async throws {
        let server = try Self.server {
            $0.perAddressConnectionLimit = 8
            Self.farDeadlines(&$0)
        }
        defer { server.stop() }
        let swarm = try SlowlorisSwarm(count: 4, port: server.port)
        #expect(await waitUntil(timeout: 5) { server.counts.receivingHeads == 4 })
        // Kept alive after a request, one at a time, so the first has waited longest for its next one.
        var keptAlive: [RawHTTPClient] = []
        for waiting in 1...4 {
            let client = try RawHTTPClient(port: server.port)
            #expect(try client.request("GET", "/").status == 200)
            keptAlive.append(client)
            #expect(await waitUntil(timeout: 5) { server.counts.idle == waiting })
        }
        #expect(try RawHTTPClient(port: server.port).request("GET", "/").status == 200)
        #expect(RawHTTPClient.closedByServer(among: keptAlive) == [0])
        #expect(server.counts.overAddressLimit == 1)
        #expect(server.counts.receivingHeads == 4)
        #expect(swarm.closed == 0)
    }

    @Test func streamsBeyondTheLimitAreRefusedAtOnceAndPagesStillServed() throws {
        let server = try Self.server { $0.streamLimit = 2 }
        defer { server.stop() }
        let held = try (0..<2).map { _ in try Self.openStream(server.port) }
        #expect(held.allSatisfy { $0.status == 200 })
        let client = try RawHTTPClient(port: server.port)
        let refused = try client.request("GET", "/stream")
        #expect(refused.status == 503)
        #expect(refused.header("Retry-After") == "5")
        #expect(refused.text == "Too many open streams: this server keeps at most 2 at once (one per open page). Close some tabs, then reload.\n")
        // The same connection, and the same address, still get pages.
        #expect(try client.request("GET", "/").status == 200)
        #expect(try RawHTTPClient.get(server.port, "/").status == 200)
    }

    @Test func aDepartedStreamsSlotIsFreeAtOnce() async throws {
        let server = try Self.server { $0.streamLimit = 3 }
        defer { server.stop() }
        var held = try (0..<3).map { _ in try Self.openStream(server.port).client }
        #expect(try Self.openStream(server.port).status == 503)

        // The silent stream writes nothing more, so only the server's watch on its socket sees it go.
        let departing = held.removeFirst()
        let port = server.port
        let (reopened, elapsed) = await blocking { () -> (RawHTTPClient?, Double) in
            shutdown(departing.descriptor, Int32(SHUT_RDWR))
            let start = ContinuousClock.now
            while Self.seconds(since: start) < 30 {
                guard let (client, status) = try? Self.openStream(port) else { break }
                if status == 200 { return (client, Self.seconds(since: start)) }
                usleep(10_000)
            }
            return (nil, Self.seconds(since: start))
        }
        #expect(reopened != nil, "the slot came free (after \(elapsed) s)")
        #expect(server.counts.hangUps == 1)
        #expect(server.counts.streams == 3)
        print("a departed stream's slot was free again after \(String(format: "%.1f", elapsed * 1000)) ms")
    }

    @Test func stoppingEndsSilentStreams() throws {
        let server = try Self.server()
        let held = try (0..<3).map { _ in try Self.openStream(server.port) }
        #expect(held.allSatisfy { $0.status == 200 })
        server.http.stop()
        for stream in held { #expect(stream.client.isClosedByServer()) }
    }
}
