import CMicroHTTPD
import Foundation

/// An HTTP/1.1 server on libmicrohttpd — the only file that touches it.
///
/// One thread per connection (MHD's), so a handler or a streaming body may block its own client without
/// holding up others; keep-alive; limits on header size, connections and idle time. The handler sees the
/// path as the client sent it (MHD's unescaping is switched off) so it can refuse every odd encoding itself.
public final class HTTPServer: @unchecked Sendable {
    /// The version of the libmicrohttpd the program runs with (`0.9.75`), for `glossary --version`.
    public static var microhttpdVersion: String { MHD_get_version().map { String(cString: $0) } ?? "unknown" }

    public struct Configuration: Sendable {
        public var address: ListenAddress
        /// Per-connection memory, which bounds the request line and headers (MHD answers 431 or 414 above it).
        public var connectionMemoryLimit = 32 * 1024
        public var connectionLimit = 256
        /// A connection with no traffic for this long is closed (streams stay alive by sending heartbeats).
        public var idleTimeoutSeconds = 30

        public init(address: ListenAddress) {
            self.address = address
        }
    }

    public enum StartError: Error, CustomStringConvertible, Equatable {
        case addressInUse(String)
        case cannotBind(String, reason: String)

        public var description: String {
            switch self {
            case .addressInUse(let address):
                "\(address) is already in use (is another server running?); choose another port with --port, or --port 0 for any free one"
            case .cannotBind(let address, let reason): "can't listen on \(address): \(reason)"
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

    public init(configuration: Configuration, handler: @escaping Handler) {
        self.configuration = configuration
        self.handler = handler
    }

    deinit {
        stop()
    }

    /// Binds and starts serving; throws a clear error when the address can't be had.
    public func start() throws(StartError) {
        signal(SIGPIPE, SIG_IGN)
        var flags = MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_POLL.rawValue | MHD_USE_ITC.rawValue
        if configuration.address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        let started: OpaquePointer? = configuration.address.withSockaddr { address in
            glossary_mhd_start(
                flags, address, Self.accessHandler, Unmanaged.passUnretained(self).toOpaque(),
                configuration.connectionMemoryLimit, UInt32(configuration.connectionLimit), UInt32(configuration.idleTimeoutSeconds),
                Self.keepEscaped)
        }
        guard let started else {
            // MHD doesn't say why; binding a socket of our own does.
            try Self.checkAvailable(configuration.address)
            throw .cannotBind(configuration.address.description, reason: "libmicrohttpd could not start")
        }
        lock.withLock {
            daemon = started
            boundPort = glossary_mhd_bound_port(started)
        }
    }

    /// Throws the reason `address` can't be listened on (busy, not this machine's, not allowed), if any.
    public static func checkAvailable(_ address: ListenAddress) throws(StartError) {
        switch address.probe() {
        case 0: return
        case EADDRINUSE: throw .addressInUse(address.description)
        case let code: throw .cannotBind(address.description, reason: String(cString: strerror(code)))
        }
    }

    /// Stops listening, closes every connection and waits for their threads. Streams must have been ended
    /// first (a blocked stream would hold its connection's thread).
    public func stop() {
        let running: OpaquePointer? = lock.withLock {
            defer { daemon = nil }
            return daemon
        }
        guard let running else { return }
        MHD_stop_daemon(running)
    }

    // MARK: Callbacks (C function pointers: context only through the `void *`)

    /// Leaves the URL as sent; `RequestPath` decodes it, refusing what a file server must not accept.
    private static let keepEscaped: glossary_mhd_unescape_callback = { _, _, text in
        text.map { strlen($0) } ?? 0
    }

    private static let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, _, uploadSize, requestState in
        guard let cls, let connection, let url, let method, let requestState else { return MHD_Result.NO }
        let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
        let methodName = String(cString: method)
        if requestState.pointee == nil {
            // First call: headers are in. Answer GET and HEAD on the next call, which keeps the connection
            // alive; refuse anything else now, before reading a body (MHD then closes the connection).
            requestState.pointee = UnsafeMutableRawPointer(bitPattern: 1)
            let hasBody = lookup(connection, "Content-Length").map { $0 != "0" } ?? false || lookup(connection, "Transfer-Encoding") != nil
            if methodName != "GET" && methodName != "HEAD" {
                return queue(HTTPResponse.plain(405, "Method not allowed\n", headers: [("Allow", "GET, HEAD")]), on: connection)
            }
            if hasBody { return queue(HTTPResponse.plain(400, "A \(methodName) request has no body\n"), on: connection) }
            return MHD_Result.YES
        }
        if let uploadSize, uploadSize.pointee > 0 {
            uploadSize.pointee = 0
            return MHD_Result.YES
        }
        let request = HTTPRequest(method: methodName, rawPath: String(cString: url)) { name in lookup(connection, name) }
        return queue(server.handler(request), on: connection)
    }

    private static func lookup(_ connection: OpaquePointer, _ name: String) -> String? {
        MHD_lookup_connection_value(connection, MHD_ValueKind.HEADER_KIND, name).map { String(cString: $0) }
    }

    private static func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let created: OpaquePointer?
        switch response.body {
        case .bytes(let data):
            created = data.withUnsafeBytes { buffer in
                MHD_create_response_from_buffer(buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
            }
        case .file(let descriptor, let size):
            created = MHD_create_response_from_fd64(size, descriptor)
            if created == nil { close(descriptor) }
        case .stream(let stream):
            let reader = Unmanaged.passRetained(StreamReader(stream)).toOpaque()
            created = MHD_create_response_from_callback(UInt64.max, 4096, Self.readStream, reader, Self.freeStream)
            if created == nil { Self.freeStream(reader) }
        }
        guard let created else { return MHD_Result.NO }
        defer { MHD_destroy_response(created) }
        for (name, value) in response.headers {
            MHD_add_response_header(created, name, value)
        }
        return MHD_queue_response(connection, UInt32(response.status), created)
    }

    /// A stream and the bytes of its last chunk that did not fit MHD's buffer.
    private final class StreamReader {
        let stream: any HTTPStream
        var pending = Data()

        init(_ stream: any HTTPStream) {
            self.stream = stream
        }
    }

    private static let readStream: MHD_ContentReaderCallback = { cls, _, buffer, capacity in
        guard let cls, let buffer else { return -2 }
        let reader = Unmanaged<StreamReader>.fromOpaque(cls).takeUnretainedValue()
        if reader.pending.isEmpty {
            guard let next = reader.stream.next() else { return -1 }  // MHD_CONTENT_READER_END_OF_STREAM
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
    }
}

extension HTTPResponse {
    /// A short plain-text response.
    static func plain(_ status: Int, _ text: String, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")] + headers, body: .bytes(Data(text.utf8)))
    }
}
