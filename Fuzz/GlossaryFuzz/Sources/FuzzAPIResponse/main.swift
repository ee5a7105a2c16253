import Foundation
import FuzzSupport

@testable import GlossaryKit

// The dictionary API's answers: FetchAttempt.interpret and CacheEntry.decodeBody on a fuzzed status, body and
// Retry-After, then what the client does with the outcome: a 429 pauses the request pacer for the
// Retry-After (as CurlTransport does), an answer is written to the cache and read back.
//
// Input: an optional head line `STATUS[ RETRY-AFTER]` (`429 120`) and the body after it; without one, the
// whole input is a 200's body, so the API recordings serve as seeds as they are. `!K DETAIL` instead makes
// a failed transfer of kind K (0–5) with that detail text.

let key = TermKey("word")!
let url = "http://127.0.0.1/api/v2/entries/en/word"
let fetchedAt = Date(timeIntervalSince1970: 1_700_000_000)
let failureKinds: [TransportFailure.Kind] = [.timedOut, .cannotConnect, .cannotResolve, .bodyTooLarge, .badURL, .network]

func interpret(_ result: Result<TransportResponse, TransportFailure>) -> FetchAttempt {
    FetchAttempt.interpret(result, key: key, language: "en", url: url, maxBodyBytes: 2 << 20, fetchedAt: fetchedAt)
}

Fuzzer.run { bytes in
    let input = Array(bytes)
    let newline = input.firstIndex(of: UInt8(ascii: "\n"))
    let head = String(decoding: input[..<(newline ?? input.endIndex)], as: UTF8.self)
    let headWords = head.split(separator: " ", maxSplits: 1)

    if head.hasPrefix("!"), let kind = Int(head.dropFirst().prefix(1)), failureKinds.indices.contains(kind) {
        let failure = TransportFailure(failureKinds[kind], detail: String(head.dropFirst(2)))
        let attempt = interpret(.failure(failure))
        switch attempt {
        case .transient(let transient):
            Fuzzer.expect(failure.isTransient, "\(failure.kind) retried")
            Checks.wellFormed(FetchAttempt.givenUp(transient, key: key, url: url, attempts: 4, timeout: 10))
        case .rejected(let diagnostic):
            Fuzzer.expect(!failure.isTransient, "\(failure.kind) not retried")
            Checks.wellFormed(diagnostic)
        default:
            Fuzzer.expect(false, "a failed transfer came to \(attempt)")
        }
        return
    }

    var status = 200
    var retryAfter: Double?
    var body = input[...]
    if let newline, let first = headWords.first, first.count == 3, let number = Int(first) {
        status = number
        if headWords.count == 2 {
            guard let seconds = Int64(headWords[1]) else { return }
            retryAfter = Double(seconds)
        }
        body = input[(newline + 1)...]
    }
    let response = TransportResponse(status: status, body: Data(body), retryAfter: retryAfter)
    let attempt = interpret(.success(response))
    let decoded = try? CacheEntry.decodeBody(response.body, status: status)

    switch attempt {
    case .answered(let entry):
        Fuzzer.expect(status == 200 || status == 404, "a \(status) answered")
        Fuzzer.expect(decoded == entry.entries, "interpret and decodeBody disagree")
        Fuzzer.expect(entry.status == status && entry.key == key && entry.url == url, "the entry does not say where it is from")
        // Stored and read back, the entry is the same (the cache holds what the API said).
        let reread = try? CacheEntry.decode(entry.encoded())
        Fuzzer.expect(reread == entry, "the cached answer reads back differently")
    case .rejected(let diagnostic):
        Fuzzer.expect(decoded == nil || ![200, 404].contains(status), "a decodable \(status) rejected")
        Checks.wellFormed(diagnostic)
    case .rateLimited(let pause):
        Fuzzer.expect(status == 429, "a \(status) rate-limited")
        Fuzzer.expect(pause == retryAfter, "Retry-After lost")
        // What CurlTransport does the moment a 429 arrives.
        // A pause longer than the client's Retry-After budget stops it instead.
        let pacer = RequestPacer(limit: 1, window: .seconds(1))
        pacer.rateLimited(retryAfter: pause)
        if let pause, RequestPacer.duration(seconds: pause) > pacer.retryAfterBudget {
            let stop = pacer.stopReason
            Fuzzer.expect(stop == .retryAfterTooLong(requested: pause, budget: 60), "a \(pause) s Retry-After came to \(String(describing: stop))")
        } else {
            Fuzzer.expect(pacer.stopReason == nil, "a \(pause ?? -1) s Retry-After stopped the client")
            if (pause ?? 1) >= 1 { Fuzzer.expect(pacer.reserve(now: .now) != nil, "no pause after a 429") }
        }
    case .transient(let transient):
        Fuzzer.expect((500...599).contains(status), "a \(status) retried")
        Checks.wellFormed(FetchAttempt.givenUp(transient, key: key, url: url, attempts: 4, timeout: 10))
    case .notSent:
        Fuzzer.expect(false, "a \(status) answer came to not sent")
    }
}
