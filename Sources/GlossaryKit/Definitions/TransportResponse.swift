import Foundation

/// A complete HTTP response.
public struct TransportResponse: Sendable, Equatable {
    public var status: Int
    public var body: Data
    /// A 429's or 503's `Retry-After`, in seconds, when the server sent one.
    public var retryAfter: Double?

    public init(status: Int, body: Data, retryAfter: Double? = nil) {
        self.status = status
        self.body = body
        self.retryAfter = retryAfter
    }
}
