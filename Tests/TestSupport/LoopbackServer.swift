import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A small scripted HTTP/1.1 server on 127.0.0.1 for tests: POSIX sockets, a thread per connection,
/// keep-alive, per-path scripted replies, and counters the tests assert on (requests per path, the most
/// requests in flight at once).
///
/// Replies are looked up by the request target exactly as the client sent it (still percent-encoded), so a
/// test sees the very path libcurl put on the wire.
public final class LoopbackServer: Sendable {
    public struct Request: Sendable {
        public var method: String
        /// The request target as received, e.g. `/api/v2/entries/en/caf%C3%A9`.
        public var path: String
        /// Header names lowercased.
        public var headers: [String: String]
        /// When the request head had fully arrived.
        public var receivedAt: ContinuousClock.Instant
    }

    public enum Reply: Sendable {
        /// A complete response, after waiting `delay` seconds.
        case respond(status: Int, headers: [String: String] = [:], body: Data = Data(), delay: Double = 0)
        /// Headers declaring `declaredLength` bytes, then only `body`, then the connection closes.
        case truncated(declaredLength: Int, body: Data)
        /// A 200 without Content-Length whose body ends when the connection closes (the size isn't known up front).
        case closeDelimited(body: Data)
        /// Never answers; the connection stays open until the client gives up or the server stops.
        case hang
        /// Closes the connection without a word.
        case close

        public static func json(_ status: Int, _ text: String, headers: [String: String] = [:], delay: Double = 0) -> Reply {
            var all = ["Content-Type": "application/json"]
            all.merge(headers) { $1 }
            return .respond(status: status, headers: all, body: Data(text.utf8), delay: delay)
        }
    }

    public let port: Int
    private let listener: Int32
    private let state: Mutex<State>

    private struct State {
        var scripts: [String: [Reply]] = [:]
        var fallback: (@Sendable (Request) -> Reply)?
        var requests: [Request] = []
        var inFlight = 0
        var maxInFlight = 0
        var connections: Set<Int32> = []
        var connectionCount = 0
        var stopped = false
    }

    /// Starts listening on 127.0.0.1 at a port the system picks; `fallback` answers paths with no script.
    public init(fallback: (@Sendable (Request) -> Reply)? = nil) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var reuse: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 128) == 0 else {
            let code = errno
            Glibc.close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        state = Mutex(State(fallback: fallback))
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "loopback-accept"
        thread.start()
    }

    /// A URL on this server.
    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Answers `path` with `replies` in order; the last reply repeats.
    public func script(_ path: String, _ replies: Reply...) {
        state.withLock { $0.scripts[path] = replies }
    }

    /// Every request received so far, in order.
    public var requests: [Request] { state.withLock { $0.requests } }
    public var requestPaths: [String] { requests.map(\.path) }
    public func count(_ path: String) -> Int { state.withLock { $0.requests.filter { $0.path == path }.count } }
    public var maxInFlight: Int { state.withLock { $0.maxInFlight } }
    /// TCP connections accepted so far (keep-alive reuse keeps this below the request count).
    public var connectionCount: Int { state.withLock { $0.connectionCount } }

    public func resetCounters() {
        state.withLock {
            $0.requests = []
            $0.maxInFlight = $0.inFlight
        }
    }

    /// Stops accepting and drops every open connection.
    public func stop() {
        let open = state.withLock { state -> Set<Int32> in
            state.stopped = true
            return state.connections
        }
        shutdown(listener, Int32(SHUT_RDWR))
        for fd in open { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    deinit {
        Glibc.close(listener)
    }

    private func acceptLoop() {
        while true {
            let fd = accept(listener, nil, nil)
            if fd < 0 {
                if errno == EINTR { continue }
                return
            }
            let accepted = state.withLock { state -> Bool in
                guard !state.stopped else { return false }
                state.connections.insert(fd)
                state.connectionCount += 1
                return true
            }
            guard accepted else {
                Glibc.close(fd)
                return
            }
            var noDelay: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
            let thread = Thread { [self] in serve(fd) }
            thread.name = "loopback-connection"
            thread.start()
        }
    }

    /// Serves one connection's requests until either side closes it.
    private func serve(_ fd: Int32) {
        defer {
            state.withLock { _ = $0.connections.remove(fd) }
            Glibc.close(fd)
        }
        var buffer = [UInt8]()
        while let request = readRequest(fd, buffer: &buffer) {
            let reply = state.withLock { state -> Reply in
                state.requests.append(request)
                state.inFlight += 1
                state.maxInFlight = max(state.maxInFlight, state.inFlight)
                if var replies = state.scripts[request.path], let first = replies.first {
                    if replies.count > 1 {
                        replies.removeFirst()
                        state.scripts[request.path] = replies
                    }
                    return first
                }
                return state.fallback?(request) ?? .json(404, #"{"title":"Not scripted"}"#)
            }
            let keepOpen = answer(fd, reply, closeAfter: request.headers["connection"]?.lowercased() == "close")
            state.withLock { $0.inFlight -= 1 }
            if !keepOpen { return }
        }
    }

    /// Sends `reply`; returns whether the connection stays open for another request.
    private func answer(_ fd: Int32, _ reply: Reply, closeAfter: Bool) -> Bool {
        switch reply {
        case .respond(let status, let headers, let body, let delay):
            if delay > 0 { usleep(UInt32(delay * 1_000_000)) }
            var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
            for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
            head += "Content-Length: \(body.count)\r\n"
            head += closeAfter ? "Connection: close\r\n\r\n" : "\r\n"
            // Headers and body in one write: split writes meet Nagle + delayed ACK.
            return write(fd, Data(head.utf8) + body) && !closeAfter
        case .truncated(let declaredLength, let body):
            let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(declaredLength)\r\n\r\n"
            _ = write(fd, Data(head.utf8) + body)
            return false
        case .closeDelimited(let body):
            _ = write(fd, Data("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n".utf8) + body)
            return false
        case .hang:
            var probe = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            while !state.withLock({ $0.stopped }) {
                if poll(&probe, 1, 100) > 0 {
                    var byte: UInt8 = 0
                    if recv(fd, &byte, 1, Int32(MSG_PEEK)) <= 0 { break }
                }
            }
            return false
        case .close:
            return false
        }
    }

    private func write(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent <= 0 { return false }
                offset += sent
            }
            return true
        }
    }

    /// Reads one request head (bodies are not expected); nil when the connection closes.
    private func readRequest(_ fd: Int32, buffer: inout [UInt8]) -> Request? {
        let terminator: [UInt8] = [13, 10, 13, 10]
        while true {
            if let end = Self.find(terminator, in: buffer) {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end + terminator.count)
                var lines = head.components(separatedBy: "\r\n")
                let requestLine = lines.removeFirst().split(separator: " ")
                guard requestLine.count >= 2 else { return nil }
                var headers: [String: String] = [:]
                for line in lines {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                return Request(method: String(requestLine[0]), path: String(requestLine[1]), headers: headers, receivedAt: .now)
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let received = recv(fd, &chunk, chunk.count, 0)
            if received <= 0 { return nil }
            buffer += chunk[..<received]
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<start + needle.count].elementsEqual(needle) {
            return start
        }
        return nil
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 404: "Not Found"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}
