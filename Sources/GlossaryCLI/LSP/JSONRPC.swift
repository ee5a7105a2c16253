import GlossaryKit

/// JSON-RPC 2.0 as the Language Server Protocol uses it: requests (with an id), notifications (without), responses.
enum JSONRPC {
    /// An incoming message, sorted by kind.
    enum Message: Sendable {
        case request(id: JSONValue, method: String, params: JSONValue)
        case notification(method: String, params: JSONValue)
        /// An answer to a request the server sent (`client/registerCapability`): nothing waits for it.
        case response(id: JSONValue)
    }

    /// An error answer: its code (JSON-RPC's and the LSP's own) and message.
    struct Failure: Error, Sendable {
        var code: Int
        var message: String

        static let parseError = -32700
        static let invalidRequest = -32600
        static let methodNotFound = -32601
        static let invalidParams = -32602
        static let internalError = -32603
        static let serverNotInitialized = -32002
        static let requestCancelled = -32800
        static let requestFailed = -32803

        static func invalidParams(_ message: String) -> Failure { Failure(code: invalidParams, message: message) }
    }

    /// A message that can't be handled: the failure to answer, under the message's id (null when unknown).
    struct Rejection: Error, Sendable {
        var id: JSONValue
        var failure: Failure

        init(_ id: JSONValue, _ failure: Failure) {
            self.id = id
            self.failure = failure
        }

        /// A header block without a usable `Content-Length`: its message can't be read, nor its id.
        init(_ header: MessageFraming.BadHeader) {
            self.init(.null, Failure(code: Failure.parseError, message: "A message's header has no Content-Length"))
        }
    }

    /// Reads one message's body.
    static func parse(_ body: [UInt8]) -> Result<Message, Rejection> {
        let value: JSONValue
        do {
            value = try JSONParser.parse(body)
        } catch {
            return .failure(Rejection(JSONValue.null, Failure(code: Failure.parseError, message: "Parse error: \(error.description)")))
        }
        guard value.isObject else {
            return .failure(Rejection(JSONValue.null, Failure(code: Failure.invalidRequest, message: "A message must be a JSON object")))
        }
        let id = value["id"]
        if let id, !id.isNull, id.intValue == nil, id.stringValue == nil {
            return .failure(Rejection(JSONValue.null, Failure(code: Failure.invalidRequest, message: "A message's id must be a number or a string")))
        }
        guard value["jsonrpc"]?.stringValue == "2.0" else {
            return .failure(Rejection(id ?? .null, Failure(code: Failure.invalidRequest, message: "Not a JSON-RPC 2.0 message")))
        }
        guard let method = value["method"] else {
            if let id, value["result"] != nil || value["error"] != nil { return .success(.response(id: id)) }
            return .failure(Rejection(id ?? .null, Failure(code: Failure.invalidRequest, message: "A request must name its method")))
        }
        guard let name = method.stringValue else {
            return .failure(Rejection(id ?? .null, Failure(code: Failure.invalidRequest, message: "A request's method must be a string")))
        }
        let params = value["params"] ?? .null
        if let id, !id.isNull { return .success(.request(id: id, method: name, params: params)) }
        return .success(.notification(method: name, params: params))
    }

    static func response(id: JSONValue, result: JSONValue) -> JSONValue {
        .object([("jsonrpc", "2.0"), ("id", id), ("result", result)])
    }

    static func response(id: JSONValue, failure: Failure) -> JSONValue {
        .object([("jsonrpc", "2.0"), ("id", id), ("error", .object([("code", .int(failure.code)), ("message", .string(failure.message))]))])
    }

    static func notification(_ method: String, _ params: JSONValue) -> JSONValue {
        .object([("jsonrpc", "2.0"), ("method", .string(method)), ("params", params)])
    }

    static func request(id: Int, _ method: String, _ params: JSONValue) -> JSONValue {
        .object([("jsonrpc", "2.0"), ("id", .int(id)), ("method", .string(method)), ("params", params)])
    }
}

extension JSONValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue {
    static func int(_ value: Int) -> JSONValue { .number(String(value)) }

    /// An object of the members whose values are not nil.
    static func members(_ members: [(String, JSONValue?)]) -> JSONValue {
        .object(members.compactMap { key, value in value.map { (key, $0) } })
    }

    var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }
}
