import Foundation
import TestSupport
import Testing

@testable import GlossaryKit

/// The renderer's contexts and data files, apart from any theme's markup: `terms/index.json`, the index's letters,
/// the live-reload suffix, the small rules the term page follows.
@Suite struct SiteRendererTests {
    static func renderer(bodySuffix: String? = nil) async throws -> SiteRenderer {
        let site = try await BuiltSiteTests.site()
        let empty = try InlineSite.temporaryFolder("glossary-renderer")
        defer { try? FileManager.default.removeItem(at: empty) }
        let theme = try #require(Theme.load(name: "default", siteRoot: empty, displayPath: { $0.path }).0)
        return SiteRenderer(site: site, theme: theme, bodySuffix: bodySuffix)
    }

    @Test func termsJSONListsEveryTermSortedKeysAndSiteURLs() async throws {
        let renderer = try await Self.renderer()
        let definitions = renderer.site.termPages.values.sorted { $0.key < $1.key }
        let text = renderer.termsJSONText(definitions)
        #expect(text.hasPrefix(#"{"terms":[{"aliases":["pair kerning"],"key":"kerning","slug":"kerning","source":"#))
        #expect(text.contains(#""url":"/docs/terms/kerning/","word":"Kerning"}"#))
        #expect(text.contains(#"{"aliases":[],"key":"leading","slug":"leading""#))
        #expect(text.hasSuffix("}]}\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: renderer.termsJSON(definitions)) as? [String: Any])
        #expect((object["terms"] as? [[String: Any]])?.count == 2)
    }

    @Test func theIndexGroupsTermsByFoldedFirstLetter() {
        #expect(TermIndexPages.letter("Éclair") == "E")
        #expect(TermIndexPages.letter("ångström") == "A")
        #expect(TermIndexPages.letter("3D") == "#")
        #expect(TermIndexPages.letter("Ωmega") == "#")
    }

    @Test func theIndexContextHasEveryLetterMarkedPresentOrNot() async throws {
        let renderer = try await Self.renderer()
        let context = renderer.indexContext(Array(renderer.site.termPages.values))
        guard case .object(let values) = context, case .array(let letters)? = values["letters"], case .array(let alphabet)? = values["alphabet"]
        else {
            Issue.record("no letters in \(context)")
            return
        }
        #expect(letters.count == 2, "K and L")
        #expect(alphabet.count == 26, "no # without a term under it")
        let present = alphabet.compactMap { item -> String? in
            guard case .object(let letter) = item, case .bool(true)? = letter["present"], case .string(let name)? = letter["letter"] else { return nil }
            return name
        }
        #expect(present == ["K", "L"])
        #expect(values["term_count"] == .int(2))
    }

    @Test func theBodySuffixGoesBeforeTheLastBodyEndTag() async throws {
        let renderer = try await Self.renderer(bodySuffix: "<script src=\"/_glossary/live.js\"></script>")
        let finish = { (renderer: SiteRenderer, html: String) in String(decoding: renderer.finish(Data(html.utf8)), as: UTF8.self) }
        #expect(finish(renderer, "<body>a</body> <!-- </body> -->") == "<body>a</body> <!-- <script src=\"/_glossary/live.js\"></script></body> -->")
        #expect(finish(renderer, "no body") == "no body")
        let plain = try await Self.renderer()
        #expect(finish(plain, "<body></body>") == "<body></body>")
    }

    @Test func recordingsTellTheirAccentByFileName() {
        #expect(SiteRenderer.accent(ofRecording: "https://example.org/audio/word-us.mp3") == "US")
        #expect(SiteRenderer.accent(ofRecording: "https://example.org/audio/word-UK.ogg") == "UK")
        #expect(SiteRenderer.accent(ofRecording: "https://example.org/audio/word-au.mp3") == "Australia")
        #expect(SiteRenderer.accent(ofRecording: "https://example.org/audio/us.mp3") == nil)
        #expect(SiteRenderer.accent(ofRecording: "") == nil)
        // The file name is the path's last part, before a query or a fragment, without its extension.
        #expect(SiteRenderer.accentCode(ofRecording: "https://example.org/word-ca.mp3?v=2-us") == "ca")
        #expect(SiteRenderer.accentCode(ofRecording: "https://example.org/word-uk#t=1") == "uk")
        #expect(SiteRenderer.accentCode(ofRecording: "https://example.org/word-us/") == "us")
        #expect(SiteRenderer.accentCode(ofRecording: "https://example.org/-us.tar.mp3") == nil)
        #expect(SiteRenderer.accentCode(ofRecording: "https://example.org/word-us.x/other.mp3") == nil)
        #expect(SiteRenderer.accentCode(ofRecording: "https://example.org/word-fr.mp3") == nil)
    }

    @Test func listsAreFlaggedForTemplates() {
        let flagged = SiteRenderer.flagged(["items": .array([.string("a")]), "none": .array([]), "text": .string("x")])
        guard case .object(let values) = flagged else {
            Issue.record("not an object")
            return
        }
        #expect(values["has_items"] == .bool(true) && values["has_none"] == .bool(false))
        #expect(values["has_text"] == nil)
    }
}
