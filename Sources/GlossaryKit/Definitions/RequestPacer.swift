import Synchronization

/// Decides when the dictionary client may send its next request: never more than `limit` requests in any
/// sliding `window`, none at all while a 429's `Retry-After` pause lasts, and none ever again once the client
/// has stopped asking (its `breaker` opened, or a `Retry-After` longer than the build is willing to wait).
///
/// A sliding log of send times rather than a token bucket: it is exact (a bucket lets a full burst through
/// at each window edge, which the API's own sliding window would count twice). The transport asks it right
/// before each transfer starts, so the times it records are the times requests leave; a request that never
/// reached a server (refused, unresolvable) is taken off the log again, so a dead API costs no rate limit.
public final class RequestPacer: Sendable {
    public typealias Instant = ContinuousClock.Instant

    public let limit: Int
    public let window: Duration
    /// A 429's pause when it carries no `Retry-After`.
    public let defaultPause: Duration
    /// The most the client waits on `Retry-After` pauses in all (one fetch, so one build): a longer wait stops it.
    public let retryAfterBudget: Duration
    /// Stops this pacer when transfers keep failing (nil: never).
    public let breaker: ConnectionBreaker?
    private let state = Mutex(State())

    private struct State {
        /// Send times, oldest first; `sent[oldest...]` are the ones still inside the window.
        var sent: [Instant] = []
        var oldest = 0
        var pausedUntil: Instant?
        /// How long pauses have held sends so far.
        var waited: Duration = .zero
        var stopped: Problem.APIStop?
    }

    /// `margin` widens the window a little: a request reaches the server a moment after it is granted, and
    /// the first ones also pay for connecting, so the server must never see `limit + 1` inside its window.
    public init(
        limit: Int, window: Duration, margin: Duration = .milliseconds(20), defaultPause: Duration = .seconds(2),
        retryAfterBudget: Duration = .seconds(60), breaker: ConnectionBreaker? = nil
    ) {
        self.breaker = breaker
        self.limit = max(limit, 1)
        self.window = window + margin
        self.retryAfterBudget = max(retryAfterBudget, .zero)
        self.defaultPause = min(defaultPause, self.retryAfterBudget)
    }

    /// Records a send at `now` and returns nil, or returns the earliest instant worth asking again. Once the
    /// client has stopped (`stopReason`), nothing is recorded; the caller must check that first.
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

    /// Takes back the send reserved at `instant`: the request never reached a server, so it doesn't count.
    public func refund(_ instant: Instant) {
        state.withLock { state in
            guard let index = state.sent[state.oldest...].lastIndex(of: instant) else { return }
            state.sent.remove(at: index)
        }
    }

    /// Called the moment a 429 (or a 503 with `Retry-After`) arrives, before anything else is sent: holds every
    /// send for the `Retry-After` seconds, or `defaultPause` without one. A pause longer than what is left of
    /// `retryAfterBudget` stops the client instead: waiting part of it would only meet the next refusal.
    public func rateLimited(retryAfter: Double?, now: Instant = .now) {
        state.withLock { state in
            guard state.stopped == nil else { return }
            let pause = retryAfter.map(Self.duration(seconds:)) ?? defaultPause
            let until = now + pause
            let from = max(now, state.pausedUntil ?? now)
            let added = until > from ? until - from : .zero
            guard state.waited + added <= retryAfterBudget else {
                let budget = Self.seconds(retryAfterBudget)
                if let retryAfter, Self.duration(seconds: retryAfter) > retryAfterBudget {
                    state.stopped = .retryAfterTooLong(requested: retryAfter, budget: budget)
                } else {
                    state.stopped = .retryAfterSpent(budget: budget)
                }
                return
            }
            state.waited += added
            if until > from { state.pausedUntil = until }
        }
    }

    /// Holds every new send until `until` (a later pause extends an earlier one; an earlier one changes nothing).
    public func pause(until: Instant) {
        state.withLock { state in
            if state.pausedUntil.map({ until > $0 }) ?? true { state.pausedUntil = until }
        }
    }

    /// Notes a transfer's result for the breaker: called by the transport as the result is made.
    public func record(_ result: Result<TransportResponse, TransportFailure>) {
        breaker?.record(result, stopping: self)
    }

    /// No request leaves from now on; the first reason given is the one kept.
    public func stop(_ reason: Problem.APIStop) {
        state.withLock { state in
            if state.stopped == nil { state.stopped = reason }
        }
    }

    /// Why the client stopped asking, once it has.
    public var stopReason: Problem.APIStop? {
        state.withLock { $0.stopped }
    }

    /// `seconds` as a duration, whatever a server sends: negative and NaN are zero, and anything beyond a
    /// hundred years is a hundred years (Duration's integer arithmetic would trap far beyond).
    static func duration(seconds: Double) -> Duration {
        guard seconds > 0 else { return .zero }
        let bounded = min(seconds, 100 * 365 * 86_400)
        return .milliseconds(Int64((bounded * 1000).rounded(.up)))
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
