import Foundation

/// Performs the dictionary client's GET requests; the seam between the client's policies (retries, decoding)
/// and libcurl, so tests can substitute a transport and the client stays free of C.
///
/// Requests may be handed over all at once: the transport decides when each leaves — no more than its
/// window in flight, and only when the client's `RequestPacer` allows (the rate limit, a 429's pause).
public protocol HTTPTransport: Sendable {
    /// Performs one GET. Never throws: a transfer either yields a response (any status) or a failure.
    func get(_ url: String) async -> Result<HTTPResponse, TransportFailure>
}

/// A complete HTTP response.
public struct HTTPResponse: Sendable, Equatable {
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

/// Why a transfer produced no complete response.
public struct TransportFailure: Error, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// No complete answer within the timeout.
        case timedOut
        /// The timeout passed before a connection was made (nothing reached the server).
        case connectTimedOut
        /// The connection was refused or could not be made.
        case cannotConnect
        /// The host name did not resolve.
        case cannotResolve
        /// The body exceeded the size cap; the transfer was aborted.
        case bodyTooLarge
        /// The URL is malformed or uses a scheme other than http and https.
        case badURL
        /// Any other network trouble: the connection dropped, the body was cut short, TLS failed.
        case network
        /// The caller stopped waiting (the build was interrupted).
        case cancelled
        /// Never sent: the client had stopped asking (the API unreachable, or a Retry-After past the build's wait).
        case notSent
    }

    public var kind: Kind
    /// libcurl's description of the failure (stable text, without timings).
    public var detail: String
    /// Where the server redirected the request, when the failure happened there and not at the URL asked.
    public var redirectedTo: String?

    public init(_ kind: Kind, detail: String, redirectedTo: String? = nil) {
        self.kind = kind
        self.detail = detail
        self.redirectedTo = redirectedTo
    }

    /// Network trouble is worth retrying; a bad URL or an oversized body will not improve.
    public var isTransient: Bool {
        switch kind {
        case .timedOut, .connectTimedOut, .cannotConnect, .cannotResolve, .network: true
        case .bodyTooLarge, .badURL, .notSent, .cancelled: false
        }
    }

    /// Whether the request never reached a server: the connection was refused, the host didn't resolve, or
    /// connecting timed out. These don't count against the rate limit, and enough of them in a row mean the API
    /// is not there.
    public var neverConnected: Bool {
        switch kind {
        case .cannotConnect, .cannotResolve, .connectTimedOut: true
        case .timedOut, .network, .bodyTooLarge, .badURL, .notSent, .cancelled: false
        }
    }
}
