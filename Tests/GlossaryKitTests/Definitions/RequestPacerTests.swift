import Testing

@testable import GlossaryKit

@Suite struct RequestPacerTests {
    let start = ContinuousClock.now

    func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }

    @Test func letsTheLimitThroughThenWaitsForTheOldestToLeaveTheWindow() {
        let pacer = RequestPacer(limit: 3, window: .seconds(1), margin: .zero)
        #expect(pacer.reserve(now: at(0)) == nil)
        #expect(pacer.reserve(now: at(100)) == nil)
        #expect(pacer.reserve(now: at(200)) == nil)
        #expect(pacer.reserve(now: at(300)) == at(1000))
        #expect(pacer.reserve(now: at(1000)) == nil)
        #expect(pacer.reserve(now: at(1050)) == at(1100))
        #expect(pacer.reserve(now: at(1100)) == nil)
    }

    @Test func neverGrantsMoreThanTheLimitInAnyWindow() {
        let pacer = RequestPacer(limit: 5, window: .milliseconds(500), margin: .zero)
        var granted: [Int] = []
        for time in stride(from: 0, to: 3000, by: 7) where pacer.reserve(now: at(time)) == nil {
            granted.append(time)
        }
        for index in 5..<granted.count { #expect(granted[index] - granted[index - 5] >= 500) }
        #expect(granted.count >= 25)
    }

    @Test func theMarginWidensTheWindow() {
        let pacer = RequestPacer(limit: 1, window: .seconds(1), margin: .milliseconds(20))
        #expect(pacer.reserve(now: at(0)) == nil)
        #expect(pacer.reserve(now: at(1000)) == at(1020))
    }

    @Test func aPauseHoldsEverySendAndOnlyALaterPauseExtendsIt() {
        let pacer = RequestPacer(limit: 100, window: .seconds(1), margin: .zero)
        pacer.pause(until: at(2000))
        pacer.pause(until: at(1000))
        #expect(pacer.reserve(now: at(10)) == at(2000))
        #expect(pacer.reserve(now: at(1999)) == at(2000))
        #expect(pacer.reserve(now: at(2000)) == nil)
        pacer.pause(until: at(3000))
        #expect(pacer.reserve(now: at(2500)) == at(3000))
    }

    /// Found by fuzzing (Fuzz/, api-response): a Retry-After too long for Int64 milliseconds trapped here.
    @Test(arguments: [1e17, Double(Int64.max), .infinity])
    func aRetryAfterTooLongForMillisecondsPausesForTheLongestPause(seconds: Double) {
        let pacer = RequestPacer(limit: 100, window: .seconds(1), margin: .zero, longestPause: .seconds(60))
        pacer.rateLimited(retryAfter: seconds, now: at(0))
        #expect(pacer.reserve(now: at(10)) == at(60_000))
    }

    @Test(arguments: [-1, -Double(Int64.max), .nan])
    func aNegativeOrMeaninglessRetryAfterIsNoPause(seconds: Double) {
        let pacer = RequestPacer(limit: 100, window: .seconds(1), margin: .zero)
        pacer.rateLimited(retryAfter: seconds, now: at(0))
        #expect(pacer.reserve(now: at(0)) == nil)
    }

}
