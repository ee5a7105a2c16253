import GlossaryKit
import Testing

@testable import GlossaryCLI

/// Messages as the server reads them: framing, and JSON-RPC's kinds and errors.
@Suite struct JSONRPCTests {
    @Test func framedMessagesAreReadWhateverTheChunksAndHeaders() {
        #expect(MessageFraming.contentLength("Content-Length: 12\r\nContent-Type: application/vscode-jsonrpc") == 12)
        #expect(MessageFraming.contentLength("content-length:3") == 3)
        #expect(MessageFraming.contentLength("Content-Type: x") == nil)
        #expect(MessageFraming.contentLength("Content-Length: -1") == nil)
        #expect(MessageFraming.framed("{}") == Array("Content-Length: 2\r\n\r\n{}".utf8))
    }

    @Test(arguments: [
        ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\"}", "request 1 a"),
        ("{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"method\":\"a\",\"params\":{}}", "request \"x\" a"),
        ("{\"jsonrpc\":\"2.0\",\"method\":\"b\"}", "notification b"),
        ("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"b\"}", "notification b"),
        ("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":null}", "response 3"),
        ("{\"jsonrpc\":\"2.0\",\"id\":[1],\"method\":\"a\"}", "error null -32600"),
        ("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":7}", "error 4 -32600"),
        ("{\"id\":5,\"method\":\"a\"}", "error 5 -32600"),
        ("[]", "error null -32600"),
        ("{", "error null -32700"),
    ])
    func messagesAreSortedOrRefused(_ body: String, _ expected: String) {
        let shown: String
        switch JSONRPC.parse(Array(body.utf8)) {
        case .success(.request(let id, let method, _)): shown = "request \(JSONWriter.text(id, pretty: false)) \(method)"
        case .success(.notification(let method, _)): shown = "notification \(method)"
        case .success(.response(let id)): shown = "response \(JSONWriter.text(id, pretty: false))"
        case .failure(let rejection): shown = "error \(JSONWriter.text(rejection.id, pretty: false)) \(rejection.failure.code)"
        }
        #expect(shown == expected)
    }
}
