import CMicroHTTPD
import Foundation
import GlossaryKit

/// libmicrohttpd's functions, from `libmicrohttpd.so.12` loaded when a server first starts (or `glossary --version`
/// asks): only `glossary serve` has a server, and libmicrohttpd with the TLS library it brings would otherwise be loaded
/// and relocated at every start of every command.
private struct MicroHTTPD: @unchecked Sendable {
    let getVersion: glossary_mhd_get_version_fn
    let stopDaemon: glossary_mhd_stop_daemon_fn
    let lookupConnectionValue: glossary_mhd_lookup_connection_value_fn
    let createResponseFromBuffer: glossary_mhd_create_response_from_buffer_fn
    let createResponseFromFd64: glossary_mhd_create_response_from_fd64_fn
    let createResponseFromCallback: glossary_mhd_create_response_from_callback_fn
    let destroyResponse: glossary_mhd_destroy_response_fn
    let addResponseHeader: glossary_mhd_add_response_header_fn
    let queueResponse: glossary_mhd_queue_response_fn
    /// The variadic ones, called through the shim's typed wrappers.
    let startDaemon: UnsafeMutableRawPointer
    let getDaemonInfo: UnsafeMutableRawPointer
    let getConnectionInfo: UnsafeMutableRawPointer

    /// libmicrohttpd, or why it can't be used (not installed, a function missing).
    static let loaded: Result<MicroHTTPD, SharedLibrary.LoadError> = SharedLibrary.load("libmicrohttpd.so.12") { library in
        MicroHTTPD(
            getVersion: library.function("MHD_get_version", as: glossary_mhd_get_version_fn.self),
            stopDaemon: library.function("MHD_stop_daemon", as: glossary_mhd_stop_daemon_fn.self),
            lookupConnectionValue: library.function("MHD_lookup_connection_value", as: glossary_mhd_lookup_connection_value_fn.self),
            createResponseFromBuffer: library.function("MHD_create_response_from_buffer", as: glossary_mhd_create_response_from_buffer_fn.self),
            createResponseFromFd64: library.function("MHD_create_response_from_fd64", as: glossary_mhd_create_response_from_fd64_fn.self),
            createResponseFromCallback: library.function(
                "MHD_create_response_from_callback", as: glossary_mhd_create_response_from_callback_fn.self),
            destroyResponse: library.function("MHD_destroy_response", as: glossary_mhd_destroy_response_fn.self),
            addResponseHeader: library.function("MHD_add_response_header", as: glossary_mhd_add_response_header_fn.self),
            queueResponse: library.function("MHD_queue_response", as: glossary_mhd_queue_response_fn.self),
            startDaemon: library.symbol("MHD_start_daemon"), getDaemonInfo: library.symbol("MHD_get_daemon_info"),
            getConnectionInfo: library.symbol("MHD_get_connection_info"))
    }

    /// The functions, for a daemon `HTTPServer.start()` started and its callbacks: it starts one only once they loaded.
    static var started: MicroHTTPD {
        guard case .success(let functions) = loaded else { preconditionFailure("libmicrohttpd used without being loaded") }
        return functions
    }
}

/// An HTTP/1.1 server on libmicrohttpd — the only file that touches it.
///
/// One thread per connection (MHD's), so a handler or a streaming body may block its own client without
/// holding up others; keep-alive; limits on header size, connections and idle time. The handler sees the
/// path as the client sent it (MHD's unescaping is switched off) so it can refuse every odd encoding itself.
///
/// Slow clients can't hold the server: a request head must arrive whole within `headerTimeout` however
/// slowly it trickles in; one client address holds at most `perAddressConnectionLimit` connections, a newer
/// one making room by closing the one of them longest without a request; and streaming responses are counted
/// apart (at most `streamLimit`, the rest answered 503 at once) and end as soon as their client hangs up (see
/// `ConnectionGuard`).
public final class HTTPServer: @unchecked Sendable {
    /// The version of the libmicrohttpd the program runs with (`0.9.75`), for `glossary --version`.
    public static var microhttpdVersion: String {
        switch MicroHTTPD.loaded {
        case .success(let mhd): mhd.getVersion().map { String(cString: $0) } ?? "unknown"
        case .failure(let error): "not loaded (\(error.reason))"
        }
    }

    public struct Configuration: Sendable {
        public var address: ListenAddress
        /// Per-connection memory, which bounds the request line and headers (MHD answers 431 or 414 above it).
        public var connectionMemoryLimit = 32 * 1024
        public var connectionLimit = 256
        /// Connections one client address may hold at once. A newer one closes the one of them that has waited
        /// longest for a request (an idle one before one part way through its head); it is itself closed at
        /// once only when all the others are being answered.
        public var perAddressConnectionLimit = 64
        /// Streaming responses (live-reload event streams) open at once; more are answered 503.
        public var streamLimit = 32
        /// Seconds a connection has to deliver a whole request line and headers, counted from when it opens
        /// or its previous request ends — not restarted by each byte, unlike the idle timeout.
        public var headerTimeout: TimeInterval = 10
        /// A connection with no traffic for this long is closed (streams stay alive by sending heartbeats).
        public var idleTimeoutSeconds = 30

        public init(address: ListenAddress) {
            self.address = address
        }
    }

    public enum StartError: Error, CustomStringConvertible, Equatable {
        case addressInUse(String)
        case cannotBind(String, reason: String)
        /// libmicrohttpd can't be loaded: what the loader said.
        case unavailable(reason: String)

        public var description: String {
            switch self {
            case .addressInUse(let address):
                "\(address) is already in use (is another server running?); choose another port with --port, or --port 0 for any free one"
            case .cannotBind(let address, let reason): "can't listen on \(address): \(reason)"
            case .unavailable(let reason): "can't start the server: libmicrohttpd can't be used: \(reason)"
            }
        }
    }

    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    public let configuration: Configuration
    /// The port actually bound (the system's pick when asked for port 0); 0 before `start()`.
    public var port: UInt16 { lock.withLock { boundPort } }
    private var boundPort: UInt16 = 0
    private let handler: Handler
    private var daemon: OpaquePointer?
    private let lock = NSLock()
    let connectionGuard: ConnectionGuard

    public init(configuration: Configuration, handler: @escaping Handler) {
        self.configuration = configuration
        self.handler = handler
        connectionGuard = ConnectionGuard(
            headerTimeout: configuration.headerTimeout, perAddressLimit: configuration.perAddressConnectionLimit, streamLimit: configuration.streamLimit)
    }

    deinit {
        stop()
    }

    /// Binds and starts serving; throws a clear error when the address can't be had.
    public func start() throws(StartError) {
        let mhd: MicroHTTPD
        switch MicroHTTPD.loaded {
        case .success(let loaded): mhd = loaded
        case .failure(let error): throw .unavailable(reason: error.reason)
        }
        signal(SIGPIPE, SIG_IGN)
        var flags = MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_POLL.rawValue | MHD_USE_ITC.rawValue
        if configuration.address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        guard connectionGuard.start() else {
            throw .cannotBind(configuration.address.description, reason: "can't start the connection watchdog: \(String(cString: strerror(errno)))")
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        var settings = glossary_mhd_settings(
            connection_memory_limit: configuration.connectionMemoryLimit, connection_limit: UInt32(configuration.connectionLimit),
            connection_timeout_seconds: UInt32(configuration.idleTimeoutSeconds), unescape: Self.keepEscaped,
            request_line: Self.requestLineReceived, notify_connection: Self.connectionChanged, notify_completed: Self.requestCompleted,
            callback_cls: context)
        let started: OpaquePointer? = configuration.address.withSockaddr { address in
            glossary_mhd_start(mhd.startDaemon, flags, address, Self.accessHandler, context, &settings)
        }
        guard let started else {
            connectionGuard.stop()
            // MHD doesn't say why; binding a socket of our own does.
            try Self.checkAvailable(configuration.address)
            throw .cannotBind(configuration.address.description, reason: "libmicrohttpd could not start")
        }
        lock.withLock {
            daemon = started
            boundPort = glossary_mhd_bound_port(mhd.getDaemonInfo, started)
        }
    }

    /// Throws the reason a server can't listen on `address` (libmicrohttpd can't be loaded; the address is busy, not
    /// this machine's, not allowed), if any.
    public static func checkAvailable(_ address: ListenAddress) throws(StartError) {
        if case .failure(let error) = MicroHTTPD.loaded { throw .unavailable(reason: error.reason) }
        switch address.probe() {
        case 0: return
        case EADDRINUSE: throw .addressInUse(address.description)
        case let code: throw .cannotBind(address.description, reason: String(cString: strerror(code)))
        }
    }

    /// Stops listening, closes every connection and waits for their threads. A stream blocked waiting for news
    /// is cancelled when MHD shuts its socket down, but ending streams first is quicker.
    public func stop() {
        let running: OpaquePointer? = lock.withLock {
            defer { daemon = nil }
            return daemon
        }
        guard let running else { return }
        MicroHTTPD.started.stopDaemon(running)
        connectionGuard.stop()
    }

    // MARK: Callbacks (C function pointers: context only through the `void *`)

    /// Leaves the URL as sent; `RequestPath` decodes it, refusing what a file server must not accept.
    private static let keepEscaped: glossary_mhd_unescape_callback = { _, _, text in
        text.map { strlen($0) } ?? 0
    }

    /// Connections are keyed by MHD's pointer to them, which stays the same from start to close.
    private static func key(_ connection: OpaquePointer) -> Int { Int(bitPattern: connection) }

    private static let connectionChanged: MHD_NotifyConnectionCallback = { cls, connection, _, code in
        guard let cls, let connection else { return }
        let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
        switch code {
        case .CONNECTION_NOTIFY_STARTED:
            let socket = glossary_mhd_connection_socket(MicroHTTPD.started.getConnectionInfo, connection)
            server.connectionGuard.opened(key(connection), socket: socket, address: clientAddress(connection))
        case .CONNECTION_NOTIFY_CLOSED: server.connectionGuard.closed(key(connection))
        }
    }

    /// The client's IP address as bytes (4 for IPv4, 16 for IPv6); empty if MHD doesn't know it.
    private static func clientAddress(_ connection: OpaquePointer) -> [UInt8] {
        guard let address = glossary_mhd_connection_client_address(MicroHTTPD.started.getConnectionInfo, connection) else { return [] }
        switch Int32(address.pointee.sa_family) {
        case AF_INET: return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { withUnsafeBytes(of: $0.pointee.sin_addr) { Array($0) } }
        case AF_INET6: return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { withUnsafeBytes(of: $0.pointee.sin6_addr) { Array($0) } }
        default: return []
        }
    }

    /// Returns nil: the access handler's first call must find no request state.
    private static let requestLineReceived: glossary_mhd_request_line_callback = { cls, _, connection in
        guard let cls, let connection else { return nil }
        Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue().connectionGuard.requestLineReceived(key(connection))
        return nil
    }

    private static let requestCompleted: MHD_RequestCompletedCallback = { cls, connection, _, _ in
        guard let cls, let connection else { return }
        Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue().connectionGuard.requestEnded(key(connection))
    }

    private static let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, _, uploadSize, requestState in
        guard let cls, let connection, let url, let method, let requestState else { return MHD_Result.NO }
        let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
        let methodName = String(cString: method)
        if requestState.pointee == nil {
            // First call: headers are in (the header deadline no longer applies). Answer GET and HEAD on the
            // next call, which keeps the connection alive; refuse anything else now, before reading a body
            // (MHD then closes the connection).
            server.connectionGuard.requestStarted(key(connection))
            requestState.pointee = UnsafeMutableRawPointer(bitPattern: 1)
            let hasBody = lookup(connection, "Content-Length").map { $0 != "0" } ?? false || lookup(connection, "Transfer-Encoding") != nil
            if methodName != "GET" && methodName != "HEAD" {
                return queue(HTTPResponse.plain(405, "Method not allowed\n", headers: [("Allow", "GET, HEAD")]), on: connection, server: server)
            }
            if hasBody { return queue(HTTPResponse.plain(400, "A \(methodName) request has no body\n"), on: connection, server: server) }
            return MHD_Result.YES
        }
        if let uploadSize, uploadSize.pointee > 0 {
            uploadSize.pointee = 0
            return MHD_Result.YES
        }
        let request = HTTPRequest(method: methodName, rawPath: String(cString: url)) { name in lookup(connection, name) }
        return queue(server.handler(request), on: connection, server: server)
    }

    private static func lookup(_ connection: OpaquePointer, _ name: String) -> String? {
        MicroHTTPD.started.lookupConnectionValue(connection, MHD_ValueKind.HEADER_KIND, name).map { String(cString: $0) }
    }

    private static func queue(_ response: HTTPResponse, on connection: OpaquePointer, server: HTTPServer) -> MHD_Result {
        let mhd = MicroHTTPD.started
        let created: OpaquePointer?
        switch response.body {
        case .bytes(let data):
            created = data.withUnsafeBytes { buffer in
                mhd.createResponseFromBuffer(buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
            }
        case .file(let descriptor, let size):
            created = mhd.createResponseFromFd64(size, descriptor)
            if created == nil { close(descriptor) }
        case .stream(let stream):
            let reader = StreamReader(stream, key: key(connection), connectionGuard: server.connectionGuard)
            guard server.connectionGuard.admitStream(reader.key, cancel: { [weak reader] in reader?.cancel() }) else {
                stream.close()
                let limit = server.configuration.streamLimit
                let text = "Too many open streams: this server keeps at most \(limit) at once (one per open page). Close some tabs, then reload.\n"
                return queue(.plain(503, text, headers: [("Retry-After", "5")]), on: connection, server: server)
            }
            let context = Unmanaged.passRetained(reader).toOpaque()
            created = mhd.createResponseFromCallback(UInt64.max, 4096, Self.readStream, context, Self.freeStream)
            if created == nil { Self.freeStream(context) }
        }
        guard let created else { return MHD_Result.NO }
        defer { mhd.destroyResponse(created) }
        for (name, value) in response.headers {
            _ = mhd.addResponseHeader(created, name, value)
        }
        return mhd.queueResponse(connection, UInt32(response.status), created)
    }

    /// A stream and the bytes of its last chunk that did not fit MHD's buffer. `pending` belongs to the
    /// connection's thread; `cancel()` comes from the guard's.
    private final class StreamReader: @unchecked Sendable {
        let stream: any HTTPStream
        let key: Int
        let connectionGuard: ConnectionGuard
        var pending = Data()
        private let lock = NSLock()
        private var cancelled = false

        init(_ stream: any HTTPStream, key: Int, connectionGuard: ConnectionGuard) {
            self.stream = stream
            self.key = key
            self.connectionGuard = connectionGuard
        }

        var isCancelled: Bool { lock.withLock { cancelled } }

        /// The client hung up: wakes a `next()` blocked waiting for news, and makes the response end in error,
        /// which closes the connection.
        func cancel() {
            lock.withLock { cancelled = true }
            stream.close()
        }
    }

    private static let readStream: MHD_ContentReaderCallback = { cls, _, buffer, capacity in
        guard let cls, let buffer else { return -2 }
        let reader = Unmanaged<StreamReader>.fromOpaque(cls).takeUnretainedValue()
        // -1 is MHD_CONTENT_READER_END_OF_STREAM, -2 MHD_CONTENT_READER_END_WITH_ERROR (close the connection now).
        if reader.isCancelled { return -2 }
        if reader.pending.isEmpty {
            guard let next = reader.stream.next() else { return reader.isCancelled ? -2 : -1 }
            if reader.isCancelled { return -2 }
            reader.pending = next
        }
        let count = min(capacity, reader.pending.count)
        reader.pending.copyBytes(to: UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: UInt8.self), count: count)
        reader.pending = reader.pending.dropFirst(count)
        return count
    }

    private static let freeStream: MHD_ContentReaderFreeCallback = { cls in
        guard let cls else { return }
        let reader = Unmanaged<StreamReader>.fromOpaque(cls).takeRetainedValue()
        reader.stream.close()
        reader.connectionGuard.streamEnded(reader.key)
    }
}

extension HTTPResponse {
    /// A short plain-text response.
    static func plain(_ status: Int, _ text: String, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")] + headers, body: .bytes(Data(text.utf8)))
    }
}
