import Foundation
import Testing

@testable import GlossaryKit

/// A term card's text: a team entry's `summary:`, else its first paragraph, as HTML that keeps inline markup and
/// links (what cmark's safe mode lets through) and as plain text, in `terms/index.json`.
@Suite struct CardSummaryTests {
    /// The terms JSON's entries by key.
    func terms(_ text: String) async throws -> [String: JSONValue] {
        let site = try ExportTestSite(text)
        defer { site.remove() }
        let (result, files) = await site.build()
        #expect(result.diagnostics.map(\.description) == [])
        let json = try JSONParser.parse(Array((files["terms/index.json"] ?? "").utf8))
        var byKey: [String: JSONValue] = [:]
        for term in json["terms"]?.arrayValue ?? [] {
            if let key = term["key"]?.stringValue { byKey[key] = term }
        }
        return byKey
    }

    @Test func summaryFrontMatterIsTheCardTextWithItsMarkupAndLinks() async throws {
        let terms = try await terms(
            """
            -- content/index.md --
            About [[kerning]].
            -- content/glossary/kerning.md --
            ---
            term: Kerning
            summary: "Space *between* two [letters](https://example.org/letters), <b>kept</b> `tight`."
            ---
            The long definition, which the card does not show.
            """)
        #expect(
            terms["kerning"]?["summary_html"]
                == .string(
                    "Space <em>between</em> two <a href=\"https://example.org/letters\">letters</a>, <!-- raw HTML omitted -->kept<!-- raw HTML omitted --> <code>tight</code>."
                ))
        #expect(terms["kerning"]?["summary"] == .string("Space between two letters, kept tight."))
    }

    @Test func withoutSummaryTheFirstParagraphIsUsedAndUnsafeLinksAreEmptied() async throws {
        let terms = try await terms(
            """
            -- content/index.md --
            About [[leading]].
            -- content/glossary/leading.md --
            ---
            term: Leading
            ---
            Space between **lines**, unlike [[kerning|Kerning]]; [run](javascript:alert(1)) & see [tracking](/tracking/).

            Second paragraph.
            -- content/glossary/kerning.md --
            ---
            term: Kerning
            ---
            Kerning.
            -- content/tracking.md --
            Tracking.
            """)
        #expect(
            terms["leading"]?["summary_html"]
                == .string("Space between <strong>lines</strong>, unlike kerning; <a href=\"\">run</a> &amp; see <a href=\"/tracking/\">tracking</a>."))
        #expect(terms["leading"]?["summary"] == .string("Space between lines, unlike kerning; run & see tracking."))
    }
}
