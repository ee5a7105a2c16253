import Synchronization

/// Counts connection attempts in a row that reached no server (refused, no such host, connect timeout), across
/// every word of a fetch, and stops the client's pacer once there are `threshold` of them: an API that isn't
/// there is not asked 4 times for each of hundreds of words.
///
/// The transport records each result where it is made (`CurlTransport`'s loop thread, before it starts another
/// transfer): recorded later, by the tasks that asked, a refused port answers faster than they run, and every
/// queued word has been tried before the count reaches the threshold.
///
/// Any answer from a server, whatever its status, resets the count; so do failures after a connection was made
/// (a dropped transfer, a timeout mid-answer), which say the server is there. A failure where a redirect led is
/// not the API's own and leaves the count alone.
public final class ConnectionBreaker: Sendable {
    public let threshold: Int
    /// The connect timeout, for the message of a breaker opened by timeouts.
    public let timeout: Double
    private let failures = Mutex(0)

    public init(threshold: Int, timeout: Double) {
        self.threshold = max(threshold, 1)
        self.timeout = timeout
    }

    /// Notes one transfer's result; stops `pacer` when it makes `threshold` failures in a row.
    func record(_ result: Result<TransportResponse, TransportFailure>, stopping pacer: RequestPacer) {
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
