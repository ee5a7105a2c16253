import Synchronization

/// Decides when the dictionary client may send its next request: never more than `limit` requests in any
/// sliding `window`, and none at all while a 429's `Retry-After` pause lasts.
///
/// A sliding log of send times rather than a token bucket: it is exact (a bucket lets a full burst through
/// at each window edge, which the API's own sliding window would count twice). The transport asks it right
/// before each transfer starts, so the times it records are the times requests leave.
public final class RequestPacer: Sendable {
    public typealias Instant = ContinuousClock.Instant

    public let limit: Int
    public let window: Duration
    /// A 429's pause when it carries no `Retry-After`.
    public let defaultPause: Duration
    /// `Retry-After` is honoured up to this, so a hostile value can't stall a build for hours.
    public let longestPause: Duration
    private let state = Mutex(State())

    private struct State {
        /// Send times, oldest first; `sent[oldest...]` are the ones still inside the window.
        var sent: [Instant] = []
        var oldest = 0
        var pausedUntil: Instant?
    }

    /// `margin` widens the window a little: a request reaches the server a moment after it is granted, and
    /// the first ones also pay for connecting, so the server must never see `limit + 1` inside its window.
    public init(
        limit: Int, window: Duration, margin: Duration = .milliseconds(20), defaultPause: Duration = .seconds(2),
        longestPause: Duration = .seconds(60)
    ) {
        self.limit = max(limit, 1)
        self.window = window + margin
        self.defaultPause = min(defaultPause, longestPause)
        self.longestPause = longestPause
    }

    /// Records a send at `now` and returns nil, or returns the earliest instant worth asking again.
    public func reserve(now: Instant) -> Instant? {
        state.withLock { state in
            if let pausedUntil = state.pausedUntil, pausedUntil > now { return pausedUntil }
            while state.oldest < state.sent.count && state.sent[state.oldest] <= now - window { state.oldest += 1 }
            if state.oldest > 1024 && state.oldest * 2 > state.sent.count {
                state.sent.removeFirst(state.oldest)
                state.oldest = 0
            }
            if state.sent.count - state.oldest < limit {
                state.sent.append(now)
                return nil
            }
            return state.sent[state.oldest] + window
        }
    }

    /// Called the moment a 429 arrives, before anything else is sent: holds every send for the `Retry-After`
    /// seconds (bounded), or for `defaultPause`.
    public func rateLimited(retryAfter: Double?, now: Instant = .now) {
        let pause = retryAfter.map { Duration.seconds(clamping: $0) } ?? defaultPause
        self.pause(until: now + min(pause, longestPause))
    }

    /// Holds every new send until `until` (a later pause extends an earlier one; an earlier one changes nothing).
    public func pause(until: Instant) {
        state.withLock { state in
            if state.pausedUntil.map({ until > $0 }) ?? true { state.pausedUntil = until }
        }
    }
}
