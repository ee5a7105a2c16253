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

    @Test func aRefundedSendGivesItsTurnBack() {
        let pacer = RequestPacer(limit: 2, window: .seconds(1), margin: .zero)
        #expect(pacer.reserve(now: at(0)) == nil)
        #expect(pacer.reserve(now: at(10)) == nil)
        #expect(pacer.reserve(now: at(20)) == at(1000))
        pacer.refund(at(10))
        #expect(pacer.reserve(now: at(20)) == nil, "the refused send no longer counts")
        #expect(pacer.reserve(now: at(30)) == at(1000))
        pacer.refund(at(500))
        #expect(pacer.reserve(now: at(30)) == at(1000), "refunding a send never made changes nothing")
    }

    @Test func retryAfterPausesAreBudgetedForTheWholeFetch() {
        let pacer = RequestPacer(limit: 100, window: .seconds(1), margin: .zero, retryAfterBudget: .seconds(3))
        pacer.rateLimited(retryAfter: 2, now: at(0))
        #expect(pacer.reserve(now: at(100)) == at(2000))
        // Overlapping pauses count once: this one adds half a second to the wait.
        pacer.rateLimited(retryAfter: 1, now: at(1500))
        #expect(pacer.reserve(now: at(2000)) == at(2500))
        #expect(pacer.stopReason == nil)
        pacer.rateLimited(retryAfter: 1, now: at(2500))
        #expect(pacer.stopReason == .retryAfterSpent(budget: 3))
    }

    @Test func aRetryAfterBeyondTheBudgetStopsAtOnce() {
        let pacer = RequestPacer(limit: 100, window: .seconds(1), margin: .zero, retryAfterBudget: .seconds(60))
        pacer.rateLimited(retryAfter: 999_999, now: at(0))
        #expect(pacer.stopReason == .retryAfterTooLong(requested: 999_999, budget: 60))
        #expect(pacer.reserve(now: at(0)) == nil, "no pause was set: the caller checks stopReason first")
        pacer.stop(.cannotConnect(failures: 5))
        #expect(pacer.stopReason == .retryAfterTooLong(requested: 999_999, budget: 60), "the first reason stays")
    }

    /// Whatever a server sends: no value traps the duration arithmetic.
    @Test(arguments: [Double.nan, -.infinity, -1, 0, 1e300, .infinity, 9_223_372_036_854_775_808])
    func anyRetryAfterIsSafe(seconds: Double) {
        let pacer = RequestPacer(limit: 1, window: .seconds(1), margin: .zero)
        pacer.rateLimited(retryAfter: seconds, now: at(0))
        let duration = RequestPacer.duration(seconds: seconds)
        #expect(duration >= .zero && duration <= .seconds(100 * 365 * 86_400))
        if seconds > 60 { #expect(pacer.stopReason != nil) } else { #expect(pacer.stopReason == nil) }
    }
}
