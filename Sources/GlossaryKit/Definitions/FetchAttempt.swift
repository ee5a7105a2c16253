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
    /// Not sent at all: the client had stopped asking the API.
    case notSent

    enum Transient: Sendable, Equatable {
        case transport(TransportFailure)
        case serverError(status: Int, retryAfter: Double?)
    }

    /// Reads one transfer's result for `key`; pure, so every case is testable without a server.
    static func interpret(
        _ result: Result<TransportResponse, TransportFailure>, key: TermKey, language: String, url: String,
        maxBodyBytes: Int, fetchedAt: Date
    ) -> FetchAttempt {
        let response: TransportResponse
        switch result {
        case .failure(let failure):
            switch failure.kind {
            case .bodyTooLarge:
                return .rejected(Diagnostic(.responseTooLarge(key: key.rawValue, limit: maxBodyBytes), subject: url))
            case .badURL:
                return .rejected(Diagnostic(.badAPIURL(key: key.rawValue), subject: url))
            case .cancelled:
                return .rejected(cancelled(key: key, url: url))
            case .timedOut, .connectTimedOut, .cannotConnect, .cannotResolve, .network:
                return .transient(.transport(failure))
            case .notSent:
                return .notSent
            }
        case .success(let success):
            response = success
        }
        switch response.status {
        case 200, 404:
            let json: JSONValue
            let entries: [DictionaryEntry]
            do {
                json = try CacheEntry.parse(response.body)
            } catch {
                return .rejected(Diagnostic(.responseNotJSON(key: key.rawValue), subject: url))
            }
            do {
                entries = try CacheEntry.decodeBody(json, status: response.status)
            } catch {
                return .rejected(Diagnostic(.responseWrongShape(key: key.rawValue, problem: error), subject: url))
            }
            // Canonical JSON (sorted keys), as a cache entry read back from disk holds it.
            return .answered(
                CacheEntry(
                    key: key, language: language, url: url, status: response.status, fetchedAt: fetchedAt, entries: entries,
                    bodyJSON: json))
        case 429:
            return .rateLimited(retryAfter: response.retryAfter)
        case 500...599:
            return .transient(.serverError(status: response.status, retryAfter: response.retryAfter))
        default:
            return .rejected(Diagnostic(.unexpectedStatus(status: response.status, key: key.rawValue), subject: url))
        }
    }

    /// The problem reported once retries are spent; a warning, since the build can go on without the word.
    static func givenUp(_ transient: Transient, key: TermKey, url: String, attempts: Int, timeout: Double) -> Diagnostic {
        let word = key.rawValue
        switch transient {
        case .transport(let failure):
            // Trouble where a redirect led is not the API's own: say where the request went.
            if let target = failure.redirectedTo {
                let problem = Problem.apiRedirectFailed(
                    key: word, to: target, failure: Problem.redirectFailure(failure, timeout: timeout), attempts: attempts)
                return Diagnostic(problem, subject: url)
            }
            let problem: Problem
            switch failure.kind {
            case .timedOut, .connectTimedOut: problem = .apiTimedOut(key: word, seconds: timeout, attempts: attempts)
            case .cannotConnect: problem = .apiCannotConnect(key: word, attempts: attempts)
            case .cannotResolve: problem = .apiCannotResolve(key: word, attempts: attempts)
            case .network, .bodyTooLarge, .badURL, .notSent, .cancelled: problem = .apiTransferFailed(key: word, detail: failure.detail, attempts: attempts)
            }
            return Diagnostic(problem, subject: url)
        case .serverError(let status, _):
            return Diagnostic(.apiError(status: status, key: word, attempts: attempts), subject: url)
        }
    }

    /// The problem reported when the API still answers 429 after the allowed number of pauses.
    static func stillRateLimited(key: TermKey, url: String, attempts: Int) -> Diagnostic {
        Diagnostic(.apiRateLimited(key: key.rawValue, attempts: attempts), subject: url)
    }

    static func cancelled(key: TermKey, url: String) -> Diagnostic {
        Diagnostic(.apiCancelled(key: key.rawValue), subject: url)
    }

}
