import Foundation

/// Where the server listens: a numeric IPv4 or IPv6 address (or `localhost`) and a port.
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: UInt16
    private var storage: Storage

    private enum Storage: Equatable {
        case ipv4(in_addr_t)
        case ipv6([UInt8])
    }

    /// Nil when `host` is not a numeric address or `localhost`.
    public init?(host: String, port: UInt16) {
        self.host = host
        self.port = port
        var name = host
        if name == "localhost" { name = "127.0.0.1" }
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, name, &v4) == 1 {
            storage = .ipv4(v4.s_addr)
        } else if inet_pton(AF_INET6, name, &v6) == 1 {
            storage = .ipv6(withUnsafeBytes(of: &v6) { Array($0) })
        } else {
            return nil
        }
    }

    public var isIPv6: Bool {
        if case .ipv6 = storage { return true }
        return false
    }

    /// 127.0.0.0/8 and ::1: only this machine can connect.
    public var isLoopback: Bool {
        switch storage {
        case .ipv4(let address): return UInt32(bigEndian: address) >> 24 == 127
        case .ipv6(let bytes): return bytes == Array(repeating: 0, count: 15) + [1]
        }
    }

    /// `http://HOST:PORT` with IPv6 hosts in brackets.
    public func url(port: UInt16? = nil) -> String {
        let shownHost = isIPv6 && !host.hasPrefix("[") ? "[\(host)]" : host
        return "http://\(shownHost):\(port ?? self.port)"
    }

    public var description: String {
        isIPv6 && !host.hasPrefix("[") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    public static func == (lhs: ListenAddress, rhs: ListenAddress) -> Bool {
        lhs.storage == rhs.storage && lhs.port == rhs.port
    }

    /// Calls `body` with the address as a `sockaddr`.
    func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>) -> T) -> T {
        switch storage {
        case .ipv4(let address):
            var socketAddress = sockaddr_in()
            socketAddress.sin_family = sa_family_t(AF_INET)
            socketAddress.sin_port = port.bigEndian
            socketAddress.sin_addr = in_addr(s_addr: address)
            return withUnsafePointer(to: &socketAddress) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
        case .ipv6(let bytes):
            var socketAddress = sockaddr_in6()
            socketAddress.sin6_family = sa_family_t(AF_INET6)
            socketAddress.sin6_port = port.bigEndian
            withUnsafeMutableBytes(of: &socketAddress.sin6_addr) { $0.copyBytes(from: bytes) }
            return withUnsafePointer(to: &socketAddress) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
        }
    }

    private var socketLength: socklen_t {
        socklen_t(isIPv6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
    }

    /// Tries to bind a socket of its own to the address (as a listening server would) and returns the
    /// `errno` of the failure, or 0 when binding works.
    func probe() -> Int32 {
        let descriptor = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return errno }
        defer { close(descriptor) }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        let length = socketLength
        let bound = withSockaddr { bind(descriptor, $0, length) }
        guard bound == 0 else { return errno }
        return listen(descriptor, 1) == 0 ? 0 : errno
    }
}
