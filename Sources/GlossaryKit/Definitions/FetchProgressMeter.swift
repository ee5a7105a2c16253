import Foundation

/// Counts finished fetches and reports them, at most ten times a second plus the first and the last report,
/// so a terminal's progress line stays cheap however fast words arrive.
struct FetchProgressMeter {
    let total: Int
    let host: String
    let report: @Sendable (FetchProgress) -> Void
    private let started = ContinuousClock.now
    private var lastReport: ContinuousClock.Instant?
    private(set) var done = 0
    private(set) var failed = 0

    init(total: Int, host: String = "", report: @escaping @Sendable (FetchProgress) -> Void) {
        self.total = total
        self.host = host
        self.report = report
        emit(force: true)
    }

    mutating func recordSuccess() {
        done += 1
        emit(force: done == total)
    }

    mutating func recordFailure() {
        done += 1
        failed += 1
        emit(force: done == total)
    }

    private mutating func emit(force: Bool) {
        let now = ContinuousClock.now
        if !force, let lastReport, now - lastReport < .milliseconds(100) { return }
        lastReport = now
        let elapsed = now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        report(FetchProgress(done: done, total: total, failed: failed, requestsPerSecond: seconds > 0 ? Double(done) / seconds : 0, host: host))
    }
}
