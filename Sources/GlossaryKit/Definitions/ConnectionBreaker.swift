import Synchronization

/// Counts transfers in a row that came to the kind of failure the client retries — no connection (refused, no
/// such host, connect timeout), no complete answer (a timeout, a dropped transfer), or a 5xx — across every word
/// of a fetch, and stops the client's pacer once there are `threshold` of them. An API that isn't there, never
/// answers or only fails is not asked 4 times for each of hundreds of words: a fetch against it ends after at most
/// `threshold` such failures, a few timeouts however many words there are.
///
/// The transport records each result where it is made (`CurlTransport`'s loop thread, before it starts another
/// transfer): recorded later, by the tasks that asked, a refused port answers faster than they run, and every
/// queued word has been tried before the count reaches the threshold.
///
/// Any other answer resets the count (a 2xx, the API's 404, a 429, any status below 500): the server is there and
/// answering. A 503 whose `Retry-After` pauses the pacer is the pacer's to handle, within its budget, and leaves
/// the count alone; so does a failure where a redirect led, which is not the API's own.
public final class ConnectionBreaker: Sendable {
    public let threshold: Int
    /// The transport's timeout, for the message of a breaker opened by timeouts.
    public let timeout: Double
    private let failures = Mutex(0)

    public init(threshold: Int, timeout: Double) {
        self.threshold = max(threshold, 1)
        self.timeout = timeout
    }

    /// Notes one transfer's result; stops `pacer` when it makes `threshold` failures in a row.
    func record(_ result: Result<TransportResponse, TransportFailure>, stopping pacer: RequestPacer) {
        let reason: (Int) -> Problem.APIStop
        switch result {
        case .success(let response) where (500...599).contains(response.status):
            if response.status == 503 && response.retryAfter ?? 0 > 0 { return }
            reason = { .serverError(status: response.status, failures: $0) }
        case .success:
            failures.withLock { $0 = 0 }
            return
        case .failure(let failure):
            guard failure.redirectedTo == nil else { return }
            switch failure.kind {
            case .cannotConnect: reason = { .cannotConnect(failures: $0) }
            case .cannotResolve: reason = { .cannotResolve(failures: $0) }
            case .connectTimedOut: reason = { .connectTimedOut(seconds: self.timeout, failures: $0) }
            case .timedOut: reason = { .timedOut(seconds: self.timeout, failures: $0) }
            case .network: reason = { .transferFailed(detail: failure.detail, failures: $0) }
            case .bodyTooLarge:
                failures.withLock { $0 = 0 }
                return
            case .badURL, .notSent, .cancelled:
                return
            }
        }
        let count = failures.withLock { count in
            count += 1
            return count
        }
        if count >= threshold { pacer.stop(reason(count)) }
    }
}
