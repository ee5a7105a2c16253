import Foundation

/// What one request for a word came to, and the text of every problem the dictionary client reports.
enum FetchAttempt: Sendable {
    /// A usable answer: a 200 with entries, or the API's 404 "No Definitions Found".
    case answered(CacheEntry)
    /// An answer that will not improve by asking again (not JSON, wrong shape, too large, odd status).
    case rejected(Diagnostic)
    /// Worth retrying after a backoff: network trouble or a 5xx.
    case transient(Transient)
    /// A 429: the whole client pauses for `retryAfter` seconds (when the server said) before asking again.
    case rateLimited(retryAfter: Double?)

    enum Transient: Sendable, Equatable {
        case transport(TransportFailure)
        case serverError(status: Int, retryAfter: Double?)
    }

    /// Reads one transfer's result for `key`; pure, so every case is testable without a server.
    static func interpret(
        _ result: Result<HTTPResponse, TransportFailure>, key: TermKey, language: String, url: String,
        maxBodyBytes: Int, fetchedAt: Date
    ) -> FetchAttempt {
        let response: HTTPResponse
        switch result {
        case .failure(let failure):
            switch failure.kind {
            case .bodyTooLarge:
                return .rejected(badResponse("response for '\(key)' is larger than \(byteCount(maxBodyBytes))", url: url))
            case .badURL:
                return .rejected(Diagnostic(.error, "bad-api-url", "can't request '\(key)': not an http or https URL", subject: url))
            case .timedOut, .cannotConnect, .cannotResolve, .network:
                return .transient(.transport(failure))
            }
        case .success(let success):
            response = success
        }
        switch response.status {
        case 200, 404:
            let entries: [DictionaryEntry]
            do {
                entries = try CacheEntry.decodeBody(response.body, status: response.status)
            } catch .notJSON {
                return .rejected(badResponse("response for '\(key)' is not valid JSON", url: url))
            } catch {
                return .rejected(badResponse("response for '\(key)' \(error)", url: url))
            }
            // Canonical JSON (sorted keys), as a cache entry read back from disk holds it.
            let body =
                (try? JSONSerialization.jsonObject(with: response.body, options: [.fragmentsAllowed]))
                .flatMap { try? JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys, .fragmentsAllowed]) } ?? response.body
            return .answered(CacheEntry(key: key, language: language, url: url, status: response.status, fetchedAt: fetchedAt, entries: entries, body: body))
        case 429:
            return .rateLimited(retryAfter: response.retryAfter)
        case 500...599:
            return .transient(.serverError(status: response.status, retryAfter: response.retryAfter))
        default:
            return .rejected(badResponse("unexpected HTTP \(response.status) from the dictionary API for '\(key)'", url: url))
        }
    }

    /// The problem reported once retries are spent; a warning, since the build can go on without the word.
    static func givenUp(_ transient: Transient, key: TermKey, url: String, attempts: Int, timeout: Double) -> Diagnostic {
        let tries = attempts == 1 ? "1 attempt" : "\(attempts) attempts"
        switch transient {
        case .transport(let failure):
            let message: String
            switch failure.kind {
            case .timedOut: message = "no answer from the dictionary API for '\(key)' within \(seconds(timeout)) (\(tries))"
            case .cannotConnect: message = "can't connect to the dictionary API for '\(key)' (\(tries))"
            case .cannotResolve: message = "can't resolve the dictionary API's host for '\(key)' (\(tries))"
            case .network, .bodyTooLarge, .badURL: message = "the dictionary API's response for '\(key)' failed: \(lowercasedFirst(failure.detail)) (\(tries))"
            }
            return Diagnostic(.warning, "api-unreachable", message, subject: url)
        case .serverError(let status, _):
            return Diagnostic(.warning, "api-error", "the dictionary API answered HTTP \(status) for '\(key)' (\(tries))", subject: url)
        }
    }

    /// The problem reported when the API still answers 429 after the allowed number of pauses.
    static func stillRateLimited(key: TermKey, url: String, attempts: Int) -> Diagnostic {
        Diagnostic(
            .warning, "api-rate-limited", "the dictionary API kept answering HTTP 429 (too many requests) for '\(key)' (\(attempts) attempts)", subject: url)
    }

    static func cancelled(key: TermKey, url: String) -> Diagnostic {
        Diagnostic(.warning, "api-unreachable", "fetching '\(key)' was cancelled", subject: url)
    }

    private static func badResponse(_ message: String, url: String) -> Diagnostic {
        Diagnostic(.error, "bad-response", message, subject: url)
    }

    static func byteCount(_ bytes: Int) -> String {
        if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    private static func lowercasedFirst(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.lowercased() + text.dropFirst()
    }
}
