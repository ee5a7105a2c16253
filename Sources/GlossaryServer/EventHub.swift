import Foundation

/// Server-Sent Events to every connected browser.
///
/// Each client's stream blocks its own connection thread until there is news; when there has been none for
/// `heartbeat` seconds it sends a comment line, which keeps the connection inside the server's idle timeout
/// and lets a dead client be noticed. `close()` ends every stream (before the server stops).
public final class EventHub: @unchecked Sendable {
    public let heartbeat: TimeInterval
    private let condition = NSCondition()
    private var clients: [ObjectIdentifier: Client] = [:]
    private var closed = false

    public init(heartbeat: TimeInterval = 10) {
        self.heartbeat = heartbeat
    }

    /// Connected clients (streams not yet ended).
    public var clientCount: Int {
        condition.withLock { clients.count }
    }

    /// A new client's stream; it starts with `greeting` (an event) after telling the browser to reconnect
    /// one second after losing the connection.
    func subscribe(greeting: String) -> Client {
        let client = Client(hub: self)
        condition.withLock {
            client.queue.append(Data(("retry: 1000\n\n" + greeting).utf8))
            if !closed { clients[ObjectIdentifier(client)] = client }
        }
        return client
    }

    /// Sends an event to every client: `event: NAME` and one `data:` line per line of `data`.
    public func publish(_ name: String, _ data: String) {
        let message = Data(Self.format(name, data).utf8)
        condition.withLock {
            for client in clients.values { client.queue.append(message) }
            condition.broadcast()
        }
    }

    static func format(_ name: String, _ data: String) -> String {
        "event: \(name)\n" + data.split(separator: "\n", omittingEmptySubsequences: false).map { "data: \($0)\n" }.joined() + "\n"
    }

    /// Ends every stream and refuses new ones.
    public func close() {
        condition.withLock {
            closed = true
            clients.removeAll()
            condition.broadcast()
        }
    }

    fileprivate func next(for client: Client) -> Data? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: heartbeat)
        while client.queue.isEmpty && !client.ended && !closed {
            if !condition.wait(until: deadline) { return Data(": heartbeat\n\n".utf8) }
        }
        if !client.queue.isEmpty {
            let data = client.queue.reduce(into: Data()) { $0.append($1) }
            client.queue.removeAll()
            return data
        }
        return nil
    }

    fileprivate func remove(_ client: Client) {
        condition.withLock {
            client.ended = true
            clients[ObjectIdentifier(client)] = nil
            condition.broadcast()
        }
    }

    /// One browser's stream. Its state is guarded by the hub's lock.
    final class Client: HTTPStream, @unchecked Sendable {
        private let hub: EventHub
        fileprivate var queue: [Data] = []
        fileprivate var ended = false

        fileprivate init(hub: EventHub) {
            self.hub = hub
        }

        func next() -> Data? { hub.next(for: self) }
        func close() { hub.remove(self) }
    }
}
