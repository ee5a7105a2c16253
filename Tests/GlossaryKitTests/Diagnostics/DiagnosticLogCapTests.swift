import Foundation
import Testing

@testable import GlossaryKit

/// Repeated diagnostics are capped per file and code, the last one shown counting the rest.
@Suite struct DiagnosticLogCapTests {
    @Test func fiftyThousandWarningsOnOneLineAreTwentyAndACount() async throws {
        let site = try ExportTestSite(
            """
            -- content/index.md --
            \(String(repeating: "[[", count: 50_000))
            \(String(repeating: "[[qq]] ", count: 30))
            -- content/other.md --
            [[zzy]] [[zzw]]
            """)
        defer { site.remove() }
        let result = await site.build().result
        let unclosed = result.diagnostics.filter { $0.code == .unclosedTerm }
        #expect(unclosed.count == 20)
        #expect(unclosed.map(\.location?.column) == Array(stride(from: 1, through: 39, by: 2)))
        #expect(unclosed.dropLast().allSatisfy { $0.notes.isEmpty })
        #expect(unclosed.last?.notes == [Diagnostic.Note("… and 49980 more [unclosed-term] in content/index.md, not shown", at: nil)])
        let unknown = result.diagnostics.filter { $0.code == .unknownTerm }
        #expect(unknown.filter { $0.location?.file == "content/index.md" }.count == 20)
        #expect(unknown.last { $0.location?.file == "content/index.md" }?.notes.first?.message == "… and 10 more [unknown-term] in content/index.md, not shown")
        #expect(unknown.filter { $0.location?.file == "content/other.md" }.map(\.notes) == [[], []], "another file has its own count")
    }

    @Test func aFileAtTheLimitIsNotCapped() {
        let diagnostics = (1...20).map { Diagnostic(.emptyTerm, at: SourceLocation(file: "a.md", line: $0, column: 1)) }
        #expect(DiagnosticLog.capped(diagnostics) == diagnostics)
        let more = diagnostics + [Diagnostic(.emptyTerm, at: SourceLocation(file: "a.md", line: 21, column: 1))]
        let capped = DiagnosticLog.capped(more)
        #expect(capped.count == 20)
        #expect(capped.last?.notes.map(\.message) == ["… and 1 more [empty-term] in a.md, not shown"])
        #expect(DiagnosticLog.capped(capped) == capped, "capping twice changes nothing")
        let unplaced = (1...30).map { _ in Diagnostic(.apiCannotConnect(key: "w", attempts: 4), subject: "http://x") }
        #expect(DiagnosticLog.capped(unplaced).count == 30, "diagnostics without a file are all kept")
    }
}
