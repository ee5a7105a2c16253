import Foundation

/// A deliberately dumb HTTP/1.1 client over a plain socket: it sends the request bytes exactly as given
/// (no URL normalisation, so traversal tests test the server) and parses one response at a time, so
/// keep-alive can be checked by sending several requests on one connection. Used by one thread at a time
/// (it may be handed to another, as to `blocking`).
final class RawHTTPClient: @unchecked Sendable {
    struct Response {
        var status: Int
        var headers: [(String, String)]
        var body: Data

        func header(_ name: String) -> String? {
            headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
        }

        var text: String { String(decoding: body, as: UTF8.self) }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let descriptor: Int32
    private var buffer = Data()

    /// Connects to 127.0.0.1:`port` from `source`, another loopback address (`127.0.0.2`…) when a test needs
    /// a second client machine.
    init(port: UInt16, from source: String = "127.0.0.1", timeout: TimeInterval = 5) throws {
        // The descriptor is only stored once connected: a failed init must not leave it to deinit to close
        // a second time (by then the number may belong to someone else).
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(errno)") }
        var time = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        func call(_ name: String, _ address: String, port: UInt16, _ body: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Int32) throws {
            var socketAddress = sockaddr_in()
            socketAddress.sin_family = sa_family_t(AF_INET)
            socketAddress.sin_port = port.bigEndian
            socketAddress.sin_addr = in_addr(s_addr: inet_addr(address))
            let result = withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard result == 0 else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw Failure(description: "\(name) \(address): \(reason)")
            }
        }
        if source != "127.0.0.1" { try call("bind", source, port: 0, bind) }
        try call("connect", "127.0.0.1", port: port, connect)
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    func send(_ text: String) throws {
        try send(Data(text.utf8))
    }

    func send(_ data: Data) throws {
        let sent = data.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == data.count else { throw Failure(description: "send: \(String(cString: strerror(errno)))") }
    }

    /// Sends `GET|HEAD target` with the given extra header lines and reads the response.
    func request(_ method: String, _ target: String, headers: [String] = []) throws -> Response {
        let host = headers.contains { $0.lowercased().hasPrefix("host:") } ? "" : "Host: 127.0.0.1\r\n"
        try send("\(method) \(target) HTTP/1.1\r\n\(host)" + headers.map { $0 + "\r\n" }.joined() + "\r\n")
        return try readResponse(head: method == "HEAD")
    }

    /// Reads more bytes; false on end of stream.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = recv(descriptor, &chunk, chunk.count, 0)
        if count < 0 { throw Failure(description: "recv: \(String(cString: strerror(errno)))") }
        if count == 0 { return false }
        buffer.append(contentsOf: chunk[..<count])
        return true
    }

    private func readLine() throws -> String {
        while true {
            if let end = buffer.firstRange(of: Data("\r\n".utf8)) {
                let line = String(decoding: buffer[buffer.startIndex..<end.lowerBound], as: UTF8.self)
                buffer = Data(buffer[end.upperBound...])
                return line
            }
            guard try fill() else { throw Failure(description: "connection closed mid-response") }
        }
    }

    private func readBytes(_ count: Int) throws -> Data {
        while buffer.count < count {
            guard try fill() else { throw Failure(description: "connection closed mid-body") }
        }
        let bytes = Data(buffer.prefix(count))
        buffer = Data(buffer.dropFirst(count))
        return bytes
    }

    func readResponse(head: Bool = false) throws -> Response {
        var response = try readHead()
        if head || response.status == 304 || response.status == 204 { return response }
        if let length = response.header("Content-Length").flatMap(Int.init) {
            response.body = try readBytes(length)
        } else if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            while true {
                let size = Int(try readLine(), radix: 16) ?? 0
                if size == 0 {
                    _ = try readLine()
                    break
                }
                response.body.append(try readBytes(size))
                _ = try readLine()
            }
        } else {
            while try fill() {}
            response.body = buffer
            buffer = Data()
        }
        return response
    }

    /// Reads a response's status line and headers, leaving its body unread (a stream's never ends).
    func readHead() throws -> Response {
        let statusLine = try readLine()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else { throw Failure(description: "bad status line '\(statusLine)'") }
        var headers: [(String, String)] = []
        while true {
            let line = try readLine()
            if line.isEmpty { break }
            if let colon = line.firstIndex(of: ":") {
                headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
            }
        }
        return Response(status: status, headers: headers, body: Data())
    }

    /// Whether the server closes the connection (end of stream before the read timeout); anything still to
    /// be read before the end, such as the rest of a stream, is skipped.
    func isClosedByServer() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count <= 0 { return count == 0 }
        }
    }

    /// Waits until the server has closed at least `count` of `clients` (end of stream or reset, seen by `poll`),
    /// then gives the indices of those it has closed; the ones closed by then if `timeout` seconds pass first.
    static func closedByServer(among clients: [RawHTTPClient], count: Int = 1, timeout: TimeInterval = 5) -> [Int] {
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int64(timeout * 1000)))
        while true {
            let closed = clients.indices.filter { clients[$0].hasEnded() }
            let left = ContinuousClock.now.duration(to: deadline)
            if closed.count >= count || left <= .zero { return closed }
            var polled = clients.indices.filter { !closed.contains($0) }.map { pollfd(fd: clients[$0].descriptor, events: Int16(POLLIN), revents: 0) }
            _ = poll(&polled, nfds_t(polled.count), Int32(SlowlorisSwarm.seconds(left) * 1000) + 1)
        }
    }

    /// Whether the server has closed the connection (end of stream or reset); never blocks, reads nothing.
    private func hasEnded() -> Bool {
        var byte: UInt8 = 0
        let count = recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// One request on a fresh connection.
    static func get(_ port: UInt16, _ target: String, method: String = "GET", headers: [String] = []) throws -> Response {
        try RawHTTPClient(port: port).request(method, target, headers: headers)
    }
}
