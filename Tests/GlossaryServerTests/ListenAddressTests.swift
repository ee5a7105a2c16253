import Foundation
import Testing

@testable import GlossaryServer

@Suite struct ListenAddressTests {
    @Test func knowsLoopbackFromTheRest() throws {
        #expect(try #require(ListenAddress(host: "127.0.0.1", port: 1)).isLoopback)
        #expect(try #require(ListenAddress(host: "127.1.2.3", port: 1)).isLoopback)
        #expect(try #require(ListenAddress(host: "localhost", port: 1)).isLoopback)
        #expect(try #require(ListenAddress(host: "::1", port: 1)).isLoopback)
        #expect(try #require(ListenAddress(host: "[::1]", port: 1)).isLoopback)
        #expect(try #require(ListenAddress(host: "0.0.0.0", port: 1)).isLoopback == false)
        #expect(try #require(ListenAddress(host: "192.168.1.4", port: 1)).isLoopback == false)
        #expect(try #require(ListenAddress(host: "::", port: 1)).isLoopback == false)
        #expect(ListenAddress(host: "example.com", port: 1) == nil)
        #expect(ListenAddress(host: "::1", port: 8080)?.url() == "http://[::1]:8080")
    }

    @Test func aBusyPortIsAClearError() throws {
        let first = HTTPServer(configuration: .init(address: ListenAddress(host: "127.0.0.1", port: 0)!)) { _ in .plain(200, "") }
        try first.start()
        defer { first.stop() }
        let second = HTTPServer(configuration: .init(address: ListenAddress(host: "127.0.0.1", port: first.port)!)) { _ in .plain(200, "") }
        #expect(throws: HTTPServer.StartError.addressInUse("127.0.0.1:\(first.port)")) { try second.start() }
        #expect(HTTPServer.StartError.addressInUse("127.0.0.1:8080").description.hasPrefix("127.0.0.1:8080 is already in use"))
    }

    @Test func servesOnIPv6Loopback() throws {
        let server = HTTPServer(configuration: .init(address: ListenAddress(host: "::1", port: 0)!)) { _ in .plain(200, "six\n") }
        do {
            try server.start()
        } catch {
            return  // no IPv6 on this machine
        }
        defer { server.stop() }
        #expect(server.port != 0)
    }
}
