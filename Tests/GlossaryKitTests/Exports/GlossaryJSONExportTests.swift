import Foundation
import Testing

@testable import GlossaryKit

/// `glossary.json`: every term with what the schema in `docs/glossary.schema.json` promises, URLs absolute under
/// the site's address and subpath, or site-absolute without an address.
@Suite struct GlossaryJSONExportTests {
    static let expected = #"""
        {
          "absolute_urls": true,
          "description": "Words about <type>.",
          "format": 1,
          "language": "en",
          "terms": [
            {
              "aliases": [
                "pair kerning"
              ],
              "audio": [],
              "concept": null,
              "definition": {
                "html": "<p>The space between two <em>letters</em>; see the <a href=\"https://docs.example.org/docs/guide/intro/\">intro</a> and <a class=\"term\" href=\"https://docs.example.org/docs/terms/quill/\" data-term=\"quill\">quill</a>.</p>\n<p>A second paragraph.</p>\n",
                "text": "The space between two letters; see the intro and quill.\nA second paragraph."
              },
              "forms": [
                "Kerning",
                "kerning",
                "pair kerning"
              ],
              "key": "kerning",
              "language": "en",
              "pages": [
                {
                  "title": "Intro",
                  "url": "https://docs.example.org/docs/guide/intro/"
                },
                {
                  "title": "Home",
                  "url": "https://docs.example.org/docs/"
                }
              ],
              "part_of_speech": "noun",
              "phonetic": "/ˈkɜːnɪŋ/",
              "sense": null,
              "slug": "kerning",
              "source": {
                "kind": "glossary",
                "licenses": [],
                "retrieved": null,
                "urls": []
              },
              "statuses": {},
              "summary": "The space between two letters; see the intro and quill.",
              "url": "https://docs.example.org/docs/terms/kerning/",
              "use": null,
              "word": "Kerning"
            },
            {
              "aliases": [],
              "audio": [
                {
                  "accent": "US",
                  "license": {
                    "name": "BY-SA 4.0",
                    "url": "https://creativecommons.org/licenses/by-sa/4.0"
                  },
                  "source_url": "https://commons.example/quill.mp3",
                  "text": "/kwɪl/",
                  "url": "https://media.example/quill-us.mp3"
                }
              ],
              "concept": null,
              "definition": {
                "html": "<p><em>noun</em></p>\n<ol>\n<li>A pen made from a feather.</li>\n<li>A spine of a porcupine.</li>\n</ol>\n<p><em>verb</em></p>\n<ol>\n<li>To pleat.</li>\n</ol>\n",
                "text": "noun\n1. A pen made from a feather.\n2. A spine of a porcupine.\nverb\n1. To pleat."
              },
              "forms": [
                "quill"
              ],
              "key": "quill",
              "language": null,
              "pages": [
                {
                  "title": "Home",
                  "url": "https://docs.example.org/docs/"
                }
              ],
              "part_of_speech": "noun",
              "phonetic": "/kwɪl/",
              "sense": null,
              "slug": "quill",
              "source": {
                "kind": "dictionary",
                "licenses": [
                  {
                    "name": "CC BY-SA 3.0",
                    "url": "https://creativecommons.org/licenses/by-sa/3.0"
                  }
                ],
                "retrieved": "2025-03-04",
                "urls": [
                  "https://en.wiktionary.org/wiki/quill"
                ]
              },
              "statuses": {},
              "summary": "A pen made from a feather.",
              "url": "https://docs.example.org/docs/terms/quill/",
              "use": null,
              "word": "quill"
            }
          ],
          "title": "Type & Co",
          "url": "https://docs.example.org/docs/"
        }

        """#

    @Test func everyTermWithItsDefinitionNamesFormsSourceAndPages() async throws {
        let site = try ExportTestSite(ExportTestSite.typeSite)
        defer { site.remove() }
        let (result, files) = await site.build()
        #expect(result.diagnostics == [])
        #expect(files["glossary.json"] == Self.expected)
        // Written term by term, it is the document written whole.
        let built = try #require(result.site)
        let model = GlossaryExport.make(site: built, definitions: built.termPages.values.sorted { $0.key < $1.key }) { _ in "<p>A <b>body</b> & more</p>" }
        #expect(GlossaryJSONExport.text(model) == JSONWriter.text(GlossaryJSONExport.document(model), pretty: true, htmlSafe: false) + "\n")
        // And Foundation reads it back as JSON.
        let data = try #require(files["glossary.json"]).data(using: .utf8)!
        #expect(try JSONSerialization.jsonObject(with: data) is [String: Any])
    }

    @Test func withoutAnAddressURLsAreSiteAbsoluteAndRelativeLinksResolved() async throws {
        let site = try ExportTestSite(
            """
            -- glossary.yml --
            title: T
            base_url: /docs/
            -- content/index.md --
            [[Kerning]]
            -- content/glossary/kerning.md --
            ---
            term: Kerning
            ---
            See [leading](../leading/), [the top](#top), [home](/) and [out](https://example.com/x?a=1&b=2).
            -- content/glossary/leading.md --
            ---
            term: Leading
            ---
            Line space.
            """)
        defer { site.remove() }
        let (_, files) = await site.build()
        let json = try #require(files["glossary.json"])
        #expect(json.contains(#""absolute_urls": false"#))
        #expect(json.contains(#""url": "/docs/terms/kerning/""#))
        #expect(json.contains(#""url": "/docs/""#))
        #expect(
            json.contains(
                #"<a href=\"/docs/terms/leading/\">leading</a>, <a href=\"/docs/terms/kerning/#top\">the top</a>, <a href=\"/docs/\">home</a> and <a href=\"https://example.com/x?a=1&amp;b=2\">out</a>"#
            ))
    }

    @Test func aFullBaseURLGivesTheAddressAndPagePathsArePercentEncoded() async throws {
        let site = try ExportTestSite(
            """
            -- glossary.yml --
            title: T
            base_url: https://example.org/über docs/
            -- content/café notes.md --
            [[Kerning]]
            -- content/glossary/kerning.md --
            ---
            term: Kerning
            ---
            Space.
            """)
        defer { site.remove() }
        let (_, files) = await site.build()
        let json = try #require(files["glossary.json"])
        #expect(json.contains(#""url": "https://example.org/%C3%BCber%20docs/caf%C3%A9%20notes/""#))
        #expect(json.contains(#""url": "https://example.org/%C3%BCber%20docs/terms/kerning/""#))
    }

    @Test func anEmptyGlossaryHasNoTermsAndNoTBX() async throws {
        let site = try ExportTestSite("-- content/index.md --\nHello.\n")
        defer { site.remove() }
        let (_, files) = await site.build()
        #expect(files["glossary.json"]?.contains(#""terms": [],"#) == true)
        #expect(files["glossary.csv"] == GlossaryCSVExport.row(GlossaryCSVExport.columns))
        #expect(files["glossary.tbx"] == nil, "TBX-Basic needs at least one conceptEntry")
    }

    @Test func aContentFileCantTakeAnExportsPath() async throws {
        let site = try ExportTestSite("-- content/index.md --\nHello.\n-- content/glossary.json --\n{}\n")
        defer { site.remove() }
        let (result, _) = await site.build()
        #expect(
            result.diagnostics.map(\.description) == [
                "content/glossary.json:1:1: error: /glossary.json is generated by glossary; move this file elsewhere [reserved-path]"
            ])
    }
}
