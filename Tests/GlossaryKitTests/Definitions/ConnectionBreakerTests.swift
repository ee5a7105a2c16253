import Foundation
import Testing

@testable import GlossaryKit

/// What the breaker counts, what starts the count again, and what the stop it makes says; no network. The
/// transport's part (recording, abandoning transfers) is in `DictionaryClientTests`.
@Suite struct ConnectionBreakerTests {
    typealias TransferResult = Result<TransportResponse, TransportFailure>

    static func answer(_ status: Int, retryAfter: Double? = nil) -> TransferResult {
        .success(TransportResponse(status: status, body: Data(), retryAfter: retryAfter))
    }

    static func failure(_ kind: TransportFailure.Kind, detail: String = "", redirectedTo: String? = nil) -> TransferResult {
        .failure(TransportFailure(kind, detail: detail, redirectedTo: redirectedTo))
    }

    /// The pacer's stop reason after recording `results` in order, with a threshold of 3.
    static func stopAfter(_ results: [TransferResult]) -> Problem.APIStop? {
        let pacer = RequestPacer(limit: 100, window: .seconds(1), breaker: ConnectionBreaker(threshold: 3, timeout: 2))
        for result in results { pacer.record(result) }
        return pacer.stopReason
    }

    @Test(arguments: [
        (failure(.cannotConnect), Problem.APIStop.cannotConnect(failures: 3)),
        (failure(.cannotResolve), .cannotResolve(failures: 3)),
        (failure(.connectTimedOut), .connectTimedOut(seconds: 2, failures: 3)),
        (failure(.timedOut), .timedOut(seconds: 2, failures: 3)),
        (failure(.network, detail: "Empty reply from server"), .transferFailed(detail: "Empty reply from server", failures: 3)),
        (answer(500), .serverError(status: 500, failures: 3)),
        (answer(503), .serverError(status: 503, failures: 3)),
        (answer(503, retryAfter: 0), .serverError(status: 503, failures: 3)),
    ])
    func failuresARetryWouldMeetStopTheClientAtTheThreshold(result: TransferResult, stop: Problem.APIStop) {
        #expect(Self.stopAfter([result, result]) == nil)
        #expect(Self.stopAfter([result, result, result]) == stop)
    }

    @Test(arguments: [answer(200), answer(404), answer(429, retryAfter: 1), answer(403), failure(.bodyTooLarge)])
    func anyOtherAnswerStartsTheCountAgain(answer: TransferResult) {
        let timeout = Self.failure(.timedOut)
        #expect(Self.stopAfter([timeout, timeout, answer, timeout, timeout]) == nil)
        #expect(Self.stopAfter([timeout, timeout, answer, timeout, timeout, timeout]) == .timedOut(seconds: 2, failures: 3))
    }

    /// A 503's Retry-After pauses the pacer, whose budget bounds the wait; failures where a redirect led are not the
    /// API's; a transfer never sent or cancelled says nothing of the API.
    @Test(arguments: [
        answer(503, retryAfter: 5), failure(.cannotConnect, redirectedTo: "http://elsewhere/"), failure(.notSent), failure(.cancelled),
        failure(.badURL),
    ])
    func someResultsLeaveTheCountAlone(result: TransferResult) {
        let refused = Self.failure(.cannotConnect)
        #expect(Self.stopAfter([refused, result, result, result, refused]) == nil)
        #expect(Self.stopAfter([refused, refused, result, refused]) == .cannotConnect(failures: 3))
    }

    @Test(arguments: [
        (
            Problem.APIStop.timedOut(seconds: 1, failures: 5),
            "no answer from the dictionary API at api.example:8080 within 1 s (5 attempts in a row); stopped asking it, so 75 words were not looked up there [api-unreachable]"
        ),
        (
            .transferFailed(detail: "Empty reply from server", failures: 5),
            "the dictionary API's responses from api.example:8080 failed: empty reply from server (5 attempts in a row); stopped asking it, so 75 words were not looked up there [api-unreachable]"
        ),
        (
            .serverError(status: 502, failures: 5),
            "the dictionary API at api.example:8080 answered HTTP 502 (5 attempts in a row failed); stopped asking it, so 75 words were not looked up there [api-error]"
        ),
    ])
    func theStopSaysWhatFailedAndHowManyWordsWereGivenUp(stop: Problem.APIStop, message: String) {
        let diagnostic = Diagnostic(.apiStoppedAsking(host: "api.example:8080", reason: stop, words: 75), subject: "http://api.example:8080")
        #expect(diagnostic.description == "http://api.example:8080: warning: " + message)
    }
}
