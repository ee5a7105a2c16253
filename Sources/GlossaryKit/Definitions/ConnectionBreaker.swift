import Synchronization

/// Counts connection attempts in a row that reached no server (refused, no such host, connect timeout), across
/// every word of a fetch, and stops the client's pacer once there are `threshold` of them: an API that isn't
/// there is not asked 4 times for each of hundreds of words.
///
/// Any answer from a server, whatever its status, resets the count; so do failures after a connection was made
/// (a dropped transfer, a timeout mid-answer), which say the server is there. A failure where a redirect led is
/// not the API's own and leaves the count alone.
final class ConnectionBreaker: Sendable {
    let threshold: Int
    /// The connect timeout, for the message of a breaker opened by timeouts.
    let timeout: Double
    let pacer: RequestPacer
    private let failures = Mutex(0)

    init(threshold: Int, timeout: Double, pacer: RequestPacer) {
        self.threshold = max(threshold, 1)
        self.timeout = timeout
        self.pacer = pacer
    }

    /// Notes one transfer's result; stops the pacer when it makes `threshold` failures in a row.
    func record(_ result: Result<HTTPResponse, TransportFailure>) {
        let failure: TransportFailure
        switch result {
        case .success:
            failures.withLock { $0 = 0 }
            return
        case .failure(let transportFailure):
            failure = transportFailure
        }
        guard failure.redirectedTo == nil, failure.kind != .notSent else { return }
        guard failure.neverConnected else {
            failures.withLock { $0 = 0 }
            return
        }
        let count = failures.withLock { count in
            count += 1
            return count
        }
        guard count >= threshold else { return }
        switch failure.kind {
        case .cannotResolve: pacer.stop(.cannotResolve(failures: count))
        case .connectTimedOut: pacer.stop(.connectTimedOut(seconds: timeout, failures: count))
        default: pacer.stop(.cannotConnect(failures: count))
        }
    }
}
