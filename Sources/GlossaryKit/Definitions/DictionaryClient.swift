import Foundation
import Synchronization

/// Fetches definitions from the dictionary API, politely: a fixed number of requests in flight, never faster
/// than the configured rate, pausing everything when the API says 429, and retrying transient failures with
/// exponential backoff and jitter a bounded number of times.
///
/// And it gives up on an API that isn't there, never answers or only fails: after `breakerThreshold` attempts in
/// a row that failed as a retry would (`ConnectionBreaker`), or a `Retry-After` longer than a build waits in all
/// (`maxRetryAfter`), it stops asking; every word not yet answered shares one problem saying so and how many
/// they are, and the build takes them from its other sources.
public struct DictionaryClient: DefinitionFetcher {
    public struct Configuration: Sendable {
        public var template: DictionaryURLTemplate
        /// Requests in flight at once.
        public var concurrency = 8
        /// At most `rateLimitRequests` requests in any `rateLimitWindow` seconds (the public API allows ~450/5 min).
        public var rateLimitRequests = 450
        public var rateLimitWindow: Double = 300
        /// Both the connect timeout and the whole transfer's.
        public var timeoutSeconds: Double = 10
        public var maxBodyBytes = 2 << 20
        /// Retries after a network failure or a 5xx (so `retries + 1` attempts).
        public var retries = 3
        /// Retry n waits `backoffBase · 2ⁿ⁻¹` seconds (at most `maxBackoff`), jittered to 50–100 % of that.
        public var backoffBase: Double = 0.5
        public var maxBackoff: Double = 8
        /// How many 429s one word may meet before it is given up.
        public var rateLimitedRetries = 5
        /// The most one fetch (one build) waits on `Retry-After` pauses in all; the API asking for more stops it, so a
        /// hostile value can't stall a build for hours.
        public var maxRetryAfter: Double = 60
        /// Attempts in a row that fail (refused, no such host, timed out, cut short, a 5xx) before the client stops
        /// asking. Above `retries + 1`, so one word alone still reports its own failure.
        public var breakerThreshold = 5
        public var userAgent = "glossary/\(GlossaryVersion.current)"

        public init(template: DictionaryURLTemplate) {
            self.template = template
        }
    }

    public var configuration: Configuration
    /// Makes the transport for one `fetch`; libcurl unless a test substitutes it. The transport keeps
    /// `concurrency` requests in flight and asks the pacer before each one leaves.
    public var makeTransport: @Sendable (Configuration, RequestPacer) -> any HTTPTransport
    /// The time recorded in fetched entries.
    public var now: @Sendable () -> Date

    public init(
        configuration: Configuration,
        makeTransport: @escaping @Sendable (Configuration, RequestPacer) -> any HTTPTransport = DictionaryClient.curlTransport,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.configuration = configuration
        self.makeTransport = makeTransport
        self.now = now
    }

    @Sendable public static func curlTransport(_ configuration: Configuration, pacer: RequestPacer) -> any HTTPTransport {
        CurlTransport(
            options: .init(
                maxConcurrent: configuration.concurrency, connectTimeout: configuration.timeoutSeconds,
                totalTimeout: configuration.timeoutSeconds, userAgent: configuration.userAgent, maxBodyBytes: configuration.maxBodyBytes,
                pacer: pacer))
    }

    public func fetch(_ keys: [TermKey], language: String, progress: @escaping @Sendable (FetchProgress) -> Void) async -> [TermKey: FetchOutcome] {
        await fetch(keys, language: language, baseForm: { _ in nil }, progress: progress, received: { _, _ in })
    }

    public func fetch(
        _ keys: [TermKey], language: String, progress: @escaping @Sendable (FetchProgress) -> Void,
        received: @escaping @Sendable (TermKey, FetchOutcome) -> Void
    ) async -> [TermKey: FetchOutcome] {
        await fetch(keys, language: language, baseForm: { _ in nil }, progress: progress, received: received)
    }

    public func fetch(
        _ keys: [TermKey], language: String, baseForm: @escaping @Sendable (TermKey) -> TermKey?,
        progress: @escaping @Sendable (FetchProgress) -> Void, received: @escaping @Sendable (TermKey, FetchOutcome) -> Void
    ) async -> [TermKey: FetchOutcome] {
        var seen = Set<TermKey>()
        let unique = keys.filter { seen.insert($0).inserted }
        guard !unique.isEmpty else { return [:] }
        let pacer = RequestPacer(
            limit: configuration.rateLimitRequests, window: RequestPacer.duration(seconds: configuration.rateLimitWindow),
            retryAfterBudget: RequestPacer.duration(seconds: configuration.maxRetryAfter),
            breaker: ConnectionBreaker(threshold: configuration.breakerThreshold, timeout: configuration.timeoutSeconds))
        let transport = makeTransport(configuration, pacer)
        var meter = FetchProgressMeter(total: unique.count, host: configuration.template.host, report: progress)
        // Base forms are asked for once each, and never when the batch asks for them anyway.
        let asked = AskedKeys(seen)
        var outcomes: [TermKey: FetchOutcome] = [:]
        var notAsked: [TermKey] = []

        // Every word is handed to the transport at once; its window keeps `concurrency` of them in flight and
        // starts the next the moment one finishes. Retries rejoin the queue after their backoff.
        await withTaskGroup(of: [(TermKey, Answer)].self) { group in
            for key in unique {
                group.addTask {
                    let answer = await fetchOne(key, language: language, transport: transport, pacer: pacer)
                    guard case .outcome(.fetched(let entry)) = answer, entry.isNotFound, let base = baseForm(key), base != key,
                        asked.insert(base)
                    else { return [(key, answer)] }
                    return [(key, answer), (base, await fetchOne(base, language: language, transport: transport, pacer: pacer))]
                }
            }
            for await answers in group {
                for (index, (key, answer)) in answers.enumerated() {
                    switch answer {
                    case .outcome(let outcome):
                        outcomes[key] = outcome
                        received(key, outcome)
                    case .notAsked:
                        // A base form not asked leaves its word's own answer standing; a word not asked is reported below.
                        if index == 0 { notAsked.append(key) }
                    }
                }
                if case .outcome(.fetched) = answers[0].1 { meter.recordSuccess() } else { meter.recordFailure() }
            }
        }
        // One problem for every word the client stopped asking for, rather than one a word.
        if !notAsked.isEmpty {
            let reason = pacer.stopReason ?? .cannotConnect(failures: configuration.breakerThreshold)
            let problem = Problem.apiStoppedAsking(host: configuration.template.host, reason: reason, words: notAsked.count)
            let outcome = FetchOutcome.failed(Diagnostic(problem, subject: configuration.template.origin), unreachable: true)
            for key in notAsked.sorted() {
                outcomes[key] = outcome
                received(key, outcome)
            }
        }
        return outcomes
    }

    /// The keys a fetch has asked for, shared by its tasks.
    final class AskedKeys: Sendable {
        private let keys: Mutex<Set<TermKey>>

        init(_ keys: Set<TermKey>) { self.keys = Mutex(keys) }

        /// Whether `key` is new (and now asked).
        func insert(_ key: TermKey) -> Bool { keys.withLock { $0.insert(key).inserted } }
    }

    /// What asking for one word came to: an outcome, or nothing because the client had stopped asking.
    enum Answer: Sendable {
        case outcome(FetchOutcome)
        case notAsked
    }

    /// Fetches one word, retrying as the configuration allows, until the client stops asking.
    func fetchOne(_ key: TermKey, language: String, transport: any HTTPTransport, pacer: RequestPacer) async -> Answer {
        let url = configuration.template.url(for: key, language: language)
        var attempts = 0
        var failures = 0
        var throttles = 0
        while true {
            // A cancelled build asks for nothing more.
            if Task.isCancelled { return .outcome(.failed(FetchAttempt.cancelled(key: key, url: url), unreachable: false)) }
            guard pacer.stopReason == nil else { return .notAsked }
            attempts += 1
            let result = await transport.get(url)
            // Whole seconds, as the cache file records them: the entry in hand equals the one read back later.
            let fetchedAt = Date(timeIntervalSince1970: now().timeIntervalSince1970.rounded(.down))
            let attempt = FetchAttempt.interpret(result, key: key, language: language, url: url, maxBodyBytes: configuration.maxBodyBytes, fetchedAt: fetchedAt)
            switch attempt {
            case .answered(let entry):
                return .outcome(.fetched(entry))
            case .rejected(let diagnostic):
                return .outcome(.failed(diagnostic, unreachable: false))
            case .notSent:
                return .notAsked
            case .rateLimited:
                // The transport has already paused every send (the pacer) and holds this retry until then.
                throttles += 1
                guard throttles <= configuration.rateLimitedRetries else {
                    return .outcome(.failed(FetchAttempt.stillRateLimited(key: key, url: url, attempts: attempts), unreachable: true))
                }
            case .transient(let transient):
                failures += 1
                // The breaker may have just stopped the client: then this word is one of those not asked.
                guard pacer.stopReason == nil else { return .notAsked }
                guard failures <= configuration.retries else {
                    let diagnostic = FetchAttempt.givenUp(transient, key: key, url: url, attempts: attempts, timeout: configuration.timeoutSeconds)
                    return .outcome(.failed(diagnostic, unreachable: true))
                }
                // A 503's Retry-After has paused the pacer, which holds the retry for it; the backoff spreads retries.
                guard await sleep(seconds: backoff(retry: failures), unlessStopped: pacer) else {
                    return .outcome(.failed(FetchAttempt.cancelled(key: key, url: url), unreachable: false))
                }
            }
        }
    }

    /// Sleeps in short steps, waking early once the client has stopped asking; false when the task was cancelled.
    private func sleep(seconds: Double, unlessStopped pacer: RequestPacer) async -> Bool {
        let deadline = ContinuousClock.now + RequestPacer.duration(seconds: seconds)
        while ContinuousClock.now < deadline && pacer.stopReason == nil {
            do {
                try await Task.sleep(until: min(deadline, .now + .milliseconds(50)), clock: .continuous)
            } catch {
                return false
            }
        }
        return true
    }

    /// Exponential backoff with "equal jitter": retries from many words spread out instead of arriving together.
    func backoff(retry: Int) -> Double {
        let ceiling = min(configuration.maxBackoff, configuration.backoffBase * pow(2, Double(max(retry, 1) - 1)))
        return ceiling * Double.random(in: 0.5...1)
    }
}
