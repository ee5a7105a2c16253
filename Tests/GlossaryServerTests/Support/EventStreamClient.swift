import Foundation

/// How long a test waits for what a server is expected to do: a build, an event, a change seen, a state reached.
/// It bounds a hang only, since a wait ends as soon as the thing happens. In a full test run on two cores, the other
/// tests' builds can hold a server's build back for tens of seconds.
let serverWait: TimeInterval = 120

/// Reads `/_glossary/events` on its own thread and queues each Server-Sent Event it receives.
final class EventStreamClient: @unchecked Sendable {
    struct Event: Sendable {
        var name: String
        var data: String
        /// When the reading thread got it (a test task may look later).
        var receivedAt = Date()
        /// `data` decoded as a JSON object.
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any] ?? [:] }
    }

    private let client: RawHTTPClient
    private let condition = NSCondition()
    private var events: [Event] = []
    private(set) var comments = 0
    private var ended = false
    private var thread: Thread?

    init(port: UInt16) throws {
        client = try RawHTTPClient(port: port, timeout: 30)
        try client.send("GET /_glossary/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        let thread = Thread { [self] in readLoop() }
        self.thread = thread
        thread.start()
    }

    deinit {
        shutdown(client.descriptor, Int32(SHUT_RDWR))
    }

    func disconnect() {
        shutdown(client.descriptor, Int32(SHUT_RDWR))
    }

    fileprivate func nextBlocking(_ name: String?, timeout: TimeInterval) -> Event? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            while !events.isEmpty {
                let event = events.removeFirst()
                if name == nil || event.name == name { return event }
            }
            if ended || !condition.wait(until: deadline) { return nil }
        }
    }

    var heartbeats: Int { condition.withLock { comments } }
    var isEnded: Bool { condition.withLock { ended } }

    private func readLoop() {
        var raw = Data()
        var pending = ""
        var chunk = [UInt8](repeating: 0, count: 16384)
        var headerDone = false
        while true {
            let count = recv(client.descriptor, &chunk, chunk.count, 0)
            if count <= 0 { break }
            raw.append(contentsOf: chunk[..<count])
            if !headerDone {
                guard let end = raw.firstRange(of: Data("\r\n\r\n".utf8)) else { continue }
                raw = Data(raw[end.upperBound...])
                headerDone = true
            }
            // Chunked transfer: strip the size lines, keep the payload.
            while let line = raw.firstRange(of: Data("\r\n".utf8)) {
                let size = Int(String(decoding: raw[raw.startIndex..<line.lowerBound], as: UTF8.self), radix: 16) ?? -1
                guard size >= 0, raw.count >= line.upperBound - raw.startIndex + size + 2 else { break }
                let start = line.upperBound
                pending += String(decoding: raw[start..<(start + size)], as: UTF8.self)
                raw = Data(raw[(start + size + 2)...])
            }
            while let end = pending.range(of: "\n\n") {
                let block = String(pending[..<end.lowerBound])
                pending = String(pending[end.upperBound...])
                parse(block)
            }
        }
        condition.withLock {
            ended = true
            condition.broadcast()
        }
    }

    private func parse(_ block: String) {
        var name = "message"
        var data: [String] = []
        var comment = false
        for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(":") {
                comment = true
            } else if line.hasPrefix("event: ") {
                name = String(line.dropFirst(7))
            } else if line.hasPrefix("data: ") {
                data.append(String(line.dropFirst(6)))
            }
        }
        condition.withLock {
            if data.isEmpty {
                if comment { comments += 1 }
            } else {
                events.append(Event(name: name, data: data.joined(separator: "\n")))
            }
            condition.broadcast()
        }
    }
}

/// Runs blocking work (waiting for an event, a process, a socket) on a thread of its own, so a waiting test
/// never holds one of the few threads that Swift tasks — the server's builds among them — run on.
func blocking<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}

/// Checks `condition` every 10 ms until it holds (true) or `timeout` seconds have passed (false): for states
/// with no event to wait on, such as a count inside the server.
func waitUntil(timeout: TimeInterval, _ condition: @escaping @Sendable () -> Bool) async -> Bool {
    await blocking {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !condition() {
            if Date() >= deadline { return false }
            usleep(10_000)
        }
        return true
    }
}

extension EventStreamClient {
    /// The next event named `name` (others before it are dropped), or nil after `timeout` seconds.
    func next(_ name: String? = nil, timeout: TimeInterval = serverWait) async -> Event? {
        await blocking { self.nextBlocking(name, timeout: timeout) }
    }
}

extension RawHTTPClient {
    /// Whether the server closes the connection (end of stream before the read timeout).
    func closedByServer() async -> Bool {
        await blocking { self.isClosedByServer() }
    }
}
