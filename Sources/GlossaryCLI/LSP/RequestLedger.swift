import GlossaryKit
import Synchronization

/// What the reading thread learns while requests run: which requests the client cancelled, and whether it asked the
/// server to shut down.
final class RequestLedger: Sendable {
    private let cancelled = Mutex<Set<String>>([])
    private let shutDown = Mutex(false)

    func cancel(_ id: JSONValue) { _ = cancelled.withLock { $0.insert(Self.key(id)) } }

    /// Whether `id` was cancelled; forgets it (each request is answered once).
    func takeCancellation(_ id: JSONValue) -> Bool { cancelled.withLock { $0.remove(Self.key(id)) != nil } }

    func isCancelled(_ id: JSONValue) -> Bool { cancelled.withLock { $0.contains(Self.key(id)) } }

    var isShutDown: Bool {
        get { shutDown.withLock { $0 } }
        set { shutDown.withLock { $0 = newValue } }
    }

    static func key(_ id: JSONValue) -> String { JSONWriter.text(id, pretty: false) }
}
