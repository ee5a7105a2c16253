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
