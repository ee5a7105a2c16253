import Foundation

/// Fetches definitions from the dictionary API, politely: a fixed number of requests in flight, never faster
/// than the configured rate, pausing everything when the API says 429, and retrying transient failures with
/// exponential backoff and jitter a bounded number of times.
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
        /// `Retry-After` is honoured up to this many seconds, so a hostile value can't stall a build for hours.
        public var maxRetryAfter: Double = 60
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
        await fetch(keys, language: language, progress: progress, received: { _, _ in })
    }

    public func fetch(
        _ keys: [TermKey], language: String, progress: @escaping @Sendable (FetchProgress) -> Void,
        received: @escaping @Sendable (TermKey, FetchOutcome) -> Void
    ) async -> [TermKey: FetchOutcome] {
        var seen = Set<TermKey>()
        let unique = keys.filter { seen.insert($0).inserted }
        guard !unique.isEmpty else { return [:] }
        let pacer = RequestPacer(
            limit: configuration.rateLimitRequests, window: .seconds(clamping: configuration.rateLimitWindow),
            longestPause: .seconds(clamping: configuration.maxRetryAfter))
        let transport = makeTransport(configuration, pacer)
        var meter = FetchProgressMeter(total: unique.count, report: progress)
        var outcomes: [TermKey: FetchOutcome] = [:]

        // Every word is handed to the transport at once; its window keeps `concurrency` of them in flight and
        // starts the next the moment one finishes. Retries rejoin the queue after their backoff.
        await withTaskGroup(of: (TermKey, FetchOutcome).self) { group in
            for key in unique {
                group.addTask { (key, await fetchOne(key, language: language, transport: transport)) }
            }
            for await (key, outcome) in group {
                outcomes[key] = outcome
                received(key, outcome)
                if case .failed = outcome { meter.recordFailure() } else { meter.recordSuccess() }
            }
        }
        return outcomes
    }

    /// Fetches one word, retrying as the configuration allows.
    func fetchOne(_ key: TermKey, language: String, transport: any HTTPTransport) async -> FetchOutcome {
        let url = configuration.template.url(for: key, language: language)
        var attempts = 0
        var failures = 0
        var throttles = 0
        while true {
            // A cancelled build asks for nothing more.
            if Task.isCancelled { return .failed(FetchAttempt.cancelled(key: key, url: url), unreachable: false) }
            attempts += 1
            let result = await transport.get(url)
            // Whole seconds, as the cache file records them: the entry in hand equals the one read back later.
            let fetchedAt = Date(timeIntervalSince1970: now().timeIntervalSince1970.rounded(.down))
            switch FetchAttempt.interpret(result, key: key, language: language, url: url, maxBodyBytes: configuration.maxBodyBytes, fetchedAt: fetchedAt) {
            case .answered(let entry):
                return .fetched(entry)
            case .rejected(let diagnostic):
                return .failed(diagnostic, unreachable: false)
            case .rateLimited:
                // The transport has already paused every send (the pacer) and holds this retry until then.
                throttles += 1
                guard throttles <= configuration.rateLimitedRetries else {
                    return .failed(FetchAttempt.stillRateLimited(key: key, url: url, attempts: attempts), unreachable: true)
                }
            case .transient(let transient):
                failures += 1
                guard failures <= configuration.retries else {
                    let diagnostic = FetchAttempt.givenUp(transient, key: key, url: url, attempts: attempts, timeout: configuration.timeoutSeconds)
                    return .failed(diagnostic, unreachable: true)
                }
                var wait = backoff(retry: failures)
                if case .serverError(_, let retryAfter?) = transient { wait = max(wait, min(retryAfter, configuration.maxRetryAfter)) }
                do {
                    try await Task.sleep(for: .seconds(clamping: wait))
                } catch {
                    return .failed(FetchAttempt.cancelled(key: key, url: url), unreachable: false)
                }
            }
        }
    }

    /// Exponential backoff with "equal jitter": retries from many words spread out instead of arriving together.
    func backoff(retry: Int) -> Double {
        let ceiling = min(configuration.maxBackoff, configuration.backoffBase * pow(2, Double(max(retry, 1) - 1)))
        return ceiling * Double.random(in: 0.5...1)
    }
}
