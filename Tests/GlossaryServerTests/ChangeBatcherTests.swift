import Foundation
import Testing

@testable import GlossaryServer

@Suite struct ChangeBatcherTests {
    @Test func aBatchIsDueOnceChangesStopForTheDebounce() {
        var batcher = ChangeBatcher(debounce: 0.1, maximumDelay: 1)
        let start = ContinuousClock.now
        #expect(batcher.deadline == nil)
        batcher.add(["content/a.md"], at: start)
        batcher.add(["content/b.md"], at: start + .milliseconds(80))
        #expect(batcher.deadline == start + .milliseconds(180))
        #expect(batcher.take(at: start + .milliseconds(150)) == nil)
        #expect(batcher.take(at: start + .milliseconds(180)) == ["content/a.md", "content/b.md"])
        #expect(batcher.deadline == nil)
        #expect(batcher.take(at: start + .seconds(5)) == nil)
    }

    @Test func aBatchOfCompletedWritesWaitsOnlyTheSettledTime() {
        var batcher = ChangeBatcher(debounce: 0.1, settled: 0.01, maximumDelay: 1)
        let start = ContinuousClock.now
        batcher.add(["content/a.md"], completed: ["content/a.md"], at: start)
        #expect(batcher.deadline == start + .milliseconds(10))
        // A path still being written holds the batch for the debounce, until its write completes.
        batcher.add(["content/b.md"], at: start + .milliseconds(5))
        #expect(batcher.deadline == start + .milliseconds(105))
        batcher.add(["content/b.md"], completed: ["content/b.md"], at: start + .milliseconds(8))
        #expect(batcher.deadline == start + .milliseconds(18))
        // A path completed, then changed again, is being written again.
        batcher.add(["content/a.md"], at: start + .milliseconds(9))
        #expect(batcher.deadline == start + .milliseconds(109))
        #expect(batcher.take(at: start + .milliseconds(109)) == ["content/a.md", "content/b.md"])
        // The next batch starts afresh.
        batcher.add(["content/c.md"], completed: ["content/c.md"], at: start + .milliseconds(200))
        #expect(batcher.take(at: start + .milliseconds(210)) == ["content/c.md"])
        // Never longer than the debounce.
        #expect(ChangeBatcher(debounce: 0.1, settled: 0.5, maximumDelay: 1).settled == .milliseconds(100))
    }

    @Test func aSteadyStreamOfChangesIsReportedAfterTheMaximumDelay() {
        var batcher = ChangeBatcher(debounce: 0.1, maximumDelay: 1)
        let start = ContinuousClock.now
        for step in 0..<20 { batcher.add(["content/\(step).md"], at: start + .milliseconds(step * 60)) }
        #expect(batcher.deadline == start + .seconds(1))
        #expect(batcher.take(at: start + .seconds(1))?.count == 20)
    }

    @Test func aFolderStandsForEverythingInIt() {
        #expect(
            ChangeBatcher.collapse(["content/new", "content/new/a.md", "content/new/deeper/b.md", "content/newer.md", "glossary.yml"])
                == ["content/new", "content/newer.md", "glossary.yml"])
        #expect(ChangeBatcher.collapse(["*", "content/a.md"]) == ["*"])
    }
}
