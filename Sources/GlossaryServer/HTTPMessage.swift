import Foundation

/// A request as the server hands it to its handler. Only valid during the handler call.
public struct HTTPRequest {
    public var method: String
    /// The request target's path exactly as the client sent it: not percent-decoded, query removed.
    public var rawPath: String
    /// Looks up a request header by name (case-insensitive).
    public var header: (String) -> String?

    public init(method: String, rawPath: String, header: @escaping (String) -> String? = { _ in nil }) {
        self.method = method
        self.rawPath = rawPath
        self.header = header
    }
}

/// What the handler answers.
public struct HTTPResponse {
    public enum Body {
        case bytes(Data)
        /// An open file the response takes ownership of (sent with sendfile, closed when done).
        case file(descriptor: Int32, size: UInt64)
        /// A body of unknown length, produced as it goes (Server-Sent Events).
        case stream(any HTTPStream)
    }

    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: Body

    public init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .bytes(Data())) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// A response body produced while the connection stays open (one per client, on that client's thread).
public protocol HTTPStream: AnyObject, Sendable {
    /// Blocks until there is something to send; nil ends the response.
    func next() -> Data?
    /// The client went away, or the response ended: release what the stream holds. May come more than once,
    /// and from another thread while `next()` is blocked, which must then return promptly.
    func close()
}
