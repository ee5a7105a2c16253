import Foundation

/// A slowloris attack: connections that start a request head and then send one more header byte every
/// `interval`, never finishing it — each byte restarts an idle timeout. One thread paces them all and notes
/// the moment the server closes each one (end of stream, or an error, seen by `poll`).
final class SlowlorisSwarm: @unchecked Sendable {
    private struct Member {
        let descriptor: Int32
        let opened: ContinuousClock.Instant
        var closed: ContinuousClock.Instant?
    }

    let interval: TimeInterval
    private let condition = NSCondition()
    private var members: [Member] = []
    private var bytesSent = 0
    private var stopping = false
    private var finished = false

    /// Opens `count` connections from `source` to 127.0.0.1:`port`; each sends the start of a request head
    /// at once (after `prefix`, e.g. a whole request to test a keep-alive connection's next head).
    init(count: Int, port: UInt16, from source: String = "127.0.0.1", interval: TimeInterval = 0.1, prefix: String = "") throws {
        self.interval = interval
        for _ in 0..<count {
            let client = try RawHTTPClient(port: port, from: source)
            let descriptor = dup(client.descriptor)
            let start = ContinuousClock.now
            // The server may close it at once (a per-address limit): that is noted by the pacing thread.
            _ = Data((prefix + "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ").utf8).withUnsafeBytes {
                send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            members.append(Member(descriptor: descriptor, opened: start))
        }
        Thread { [self] in pace() }.start()
    }

    deinit {
        stop()
        for member in members { close(member.descriptor) }
    }

    /// Stops sending and waits for the pacing thread (the connections stay open until deinit).
    func stop() {
        condition.lock()
        stopping = true
        while !finished { condition.wait() }
        condition.unlock()
    }

    /// Connections the server has not closed.
    var open: Int { condition.withLock { members.count(where: { $0.closed == nil }) } }
    var closed: Int { condition.withLock { members.count(where: { $0.closed != nil }) } }
    /// The connections the server has closed, by their place in the order they were opened.
    var closedMembers: [Int] { condition.withLock { members.indices.filter { members[$0].closed != nil } } }
    var headerBytesSent: Int { condition.withLock { bytesSent } }

    /// How long each closed connection lived, in seconds.
    var lifetimes: [Double] {
        condition.withLock {
            members.compactMap { member in member.closed.map { Self.seconds(member.opened.duration(to: $0)) } }
        }
    }

    /// Waits until `count` connections have been closed by the server; false after `timeout`.
    func waitUntilClosed(_ count: Int, timeout: TimeInterval) async -> Bool {
        await blocking {
            let deadline = Date(timeIntervalSinceNow: timeout)
            self.condition.lock()
            defer { self.condition.unlock() }
            while self.members.count(where: { $0.closed != nil }) < count {
                if !self.condition.wait(until: deadline) { return false }
            }
            return true
        }
    }

    private func pace() {
        var nextTick = ContinuousClock.now
        while true {
            let descriptors: [Int32] = condition.withLock {
                stopping ? [] : members.filter { $0.closed == nil }.map(\.descriptor)
            }
            if condition.withLock({ stopping }) { break }
            let now = ContinuousClock.now
            if now >= nextTick {
                for descriptor in descriptors {
                    var byte = UInt8(ascii: "a")
                    if send(descriptor, &byte, 1, Int32(MSG_NOSIGNAL)) == 1 { condition.withLock { bytesSent += 1 } }
                }
                nextTick = now.advanced(by: .milliseconds(Int64(interval * 1000)))
            }
            var polled = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let wait = max(1, Int32(Self.seconds(ContinuousClock.now.duration(to: nextTick)) * 1000))
            // Short waits, so `stop()` is noticed soon even with nothing to watch.
            _ = poll(&polled, nfds_t(polled.count), min(wait, 50))
            let now2 = ContinuousClock.now
            for entry in polled where entry.revents != 0 {
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = recv(entry.fd, &chunk, chunk.count, Int32(MSG_DONTWAIT))
                if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
                    condition.withLock {
                        if let index = members.firstIndex(where: { $0.descriptor == entry.fd }) { members[index].closed = now2 }
                        condition.broadcast()
                    }
                }
            }
        }
        condition.withLock {
            finished = true
            condition.broadcast()
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
