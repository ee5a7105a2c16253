import Foundation

/// Performs the dictionary client's GET requests; the seam between the client's policies (retries, decoding)
/// and libcurl, so tests can substitute a transport and the client stays free of C.
///
/// Requests may be handed over all at once: the transport decides when each leaves — no more than its
/// window in flight, and only when the client's `RequestPacer` allows (the rate limit, a 429's pause).
public protocol HTTPTransport: Sendable {
    /// Performs one GET. Never throws: a transfer either yields a response (any status) or a failure.
    func get(_ url: String) async -> Result<TransportResponse, TransportFailure>
}
