import Foundation
import Synchronization

/// A loopback port that refuses connections for as long as the test process runs: a TCP socket bound to it and
/// never listening, kept open. A port taken from a server that was then stopped could be bound again by another
/// test's server running beside it (which then answered a test that expected "connection refused").
public enum ClosedPort {
    private static let held = Mutex<[Int32]>([])

    public static func make() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound else {
            close(descriptor)
            throw POSIXError(.EADDRINUSE)
        }
        held.withLock { $0.append(descriptor) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
