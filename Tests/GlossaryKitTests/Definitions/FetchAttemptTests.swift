import Foundation
import Testing

@testable import GlossaryKit

/// Every answer the client can meet, read without a network, and the exact text of every problem.
@Suite struct FetchAttemptTests {
    let key = TermKey("Serendipity")!
    let url = "https://api.dictionaryapi.dev/api/v2/entries/en/serendipity"
    let time = Date(timeIntervalSince1970: 1_800_000_000)

    func interpret(_ result: Result<TransportResponse, TransportFailure>) -> FetchAttempt {
        FetchAttempt.interpret(result, key: key, language: "en", url: url, maxBodyBytes: 2 << 20, fetchedAt: time)
    }

    func rejection(_ attempt: FetchAttempt) -> String? {
        if case .rejected(let diagnostic) = attempt { return diagnostic.description }
        return nil
    }

    @Test func a200BecomesAnEntryWithCanonicalBody() throws {
        let attempt = interpret(.success(TransportResponse(status: 200, body: Data(#"[{"word":"serendipity","phonetic":""}]"#.utf8))))
        guard case .answered(let entry) = attempt else {
            Issue.record("\(attempt)")
            return
        }
        #expect(
            entry
                == CacheEntry(
                    key: key, language: "en", url: url, status: 200, fetchedAt: time,
                    entries: [DictionaryEntry(word: "serendipity")], body: Data(#"[{"phonetic":"","word":"serendipity"}]"#.utf8)))
    }

    @Test func a404ObjectIsANegativeEntry() {
        let attempt = interpret(.success(TransportResponse(status: 404, body: Data(#"{"title":"No Definitions Found"}"#.utf8))))
        guard case .answered(let entry) = attempt else {
            Issue.record("\(attempt)")
            return
        }
        #expect(entry.status == 404)
        #expect(entry.entries.isEmpty)
    }

    @Test func ratesAndServerErrorsAreTransient() {
        guard case .rateLimited(let after) = interpret(.success(TransportResponse(status: 429, body: Data(), retryAfter: 30))) else {
            Issue.record("429 not rate-limited")
            return
        }
        #expect(after == 30)
        guard case .transient(let transient) = interpret(.success(TransportResponse(status: 503, body: Data(), retryAfter: 2))) else {
            Issue.record("503 not transient")
            return
        }
        #expect(transient == .serverError(status: 503, retryAfter: 2))
        for kind in [TransportFailure.Kind.timedOut, .cannotConnect, .cannotResolve, .network] {
            guard case .transient(.transport(let failure)) = interpret(.failure(TransportFailure(kind, detail: "x"))) else {
                Issue.record("\(kind) not transient")
                continue
            }
            #expect(failure.kind == kind)
        }
    }

    @Test func unusableAnswersAreErrorsNamingTheWordAndURL() {
        #expect(
            rejection(interpret(.success(TransportResponse(status: 200, body: Data("<html>".utf8)))))
                == "\(url): error: response for 'serendipity' is not valid JSON [bad-response]")
        #expect(
            rejection(interpret(.success(TransportResponse(status: 200, body: Data("{}".utf8)))))
                == "\(url): error: response for 'serendipity' does not have the expected shape (expected a non-empty array of entries) [bad-response]")
        #expect(
            rejection(interpret(.success(TransportResponse(status: 404, body: Data("[]".utf8)))))
                == "\(url): error: response for 'serendipity' does not have the expected shape (a 404 body should be an object) [bad-response]")
        #expect(
            rejection(interpret(.success(TransportResponse(status: 200, body: Data(#"[{"word":7}]"#.utf8)))))
                == "\(url): error: response for 'serendipity' does not have the expected shape (wrong type at [0].word) [bad-response]")
        #expect(
            rejection(interpret(.success(TransportResponse(status: 301, body: Data()))))
                == "\(url): error: unexpected HTTP 301 from the dictionary API for 'serendipity' [bad-response]")
        #expect(
            rejection(interpret(.failure(TransportFailure(.bodyTooLarge, detail: "Maximum file size exceeded"))))
                == "\(url): error: response for 'serendipity' is larger than 2 MiB [bad-response]")
        #expect(
            rejection(interpret(.failure(TransportFailure(.badURL, detail: "Unsupported protocol"))))
                == "\(url): error: can't request 'serendipity': not an http or https URL [bad-api-url]")
    }

    @Test func givingUpNamesTheCauseAndTheAttempts() {
        func text(_ transient: FetchAttempt.Transient, attempts: Int = 4, timeout: Double = 10) -> String {
            FetchAttempt.givenUp(transient, key: key, url: url, attempts: attempts, timeout: timeout).description
        }
        #expect(
            text(.transport(TransportFailure(.timedOut, detail: "Timeout was reached")))
                == "\(url): warning: no answer from the dictionary API for 'serendipity' within 10 s (4 attempts) [api-unreachable]")
        #expect(
            text(.transport(TransportFailure(.timedOut, detail: "Timeout was reached")), attempts: 1, timeout: 2.5)
                == "\(url): warning: no answer from the dictionary API for 'serendipity' within 2.5 s (1 attempt) [api-unreachable]")
        #expect(
            text(.transport(TransportFailure(.cannotConnect, detail: "Couldn't connect to server")))
                == "\(url): warning: can't connect to the dictionary API for 'serendipity' (4 attempts) [api-unreachable]")
        #expect(
            text(.transport(TransportFailure(.cannotResolve, detail: "Couldn't resolve host name")))
                == "\(url): warning: can't resolve the dictionary API's host for 'serendipity' (4 attempts) [api-unreachable]")
        #expect(
            text(.transport(TransportFailure(.network, detail: "Failure when receiving data from the peer")))
                == "\(url): warning: the dictionary API's response for 'serendipity' failed: failure when receiving data from the peer (4 attempts) [api-unreachable]"
        )
        #expect(
            text(.serverError(status: 503, retryAfter: nil))
                == "\(url): warning: the dictionary API answered HTTP 503 for 'serendipity' (4 attempts) [api-error]")
        #expect(
            FetchAttempt.stillRateLimited(key: key, url: url, attempts: 6).description
                == "\(url): warning: the dictionary API kept answering HTTP 429 (too many requests) for 'serendipity' (6 attempts) [api-rate-limited]")
        #expect(FetchAttempt.cancelled(key: key, url: url).description == "\(url): warning: fetching 'serendipity' was cancelled [api-unreachable]")
    }

    @Test(arguments: [(2 << 20, "2 MiB"), (1536, "1536 bytes"), (4096, "4 KiB"), (100, "100 bytes")])
    func sizesReadNaturally(bytes: Int, text: String) {
        #expect(Problem.byteCount(bytes) == text)
    }
}
