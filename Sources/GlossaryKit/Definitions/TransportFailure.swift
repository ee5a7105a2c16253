import Foundation

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
    /// connecting timed out. These don't count against the rate limit.
    public var neverConnected: Bool {
        switch kind {
        case .cannotConnect, .cannotResolve, .connectTimedOut: true
        case .timedOut, .network, .bodyTooLarge, .badURL, .notSent, .cancelled: false
        }
    }
}
