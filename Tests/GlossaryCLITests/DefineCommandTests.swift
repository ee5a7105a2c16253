import Foundation
import TestSupport
import Testing

/// `glossary define WORD` run as a user runs it: the real binary, the real WordNet (Debian's data), and a real
/// loopback server standing in for the dictionary API where one is asked.
@Suite struct DefineCommandTests {
    static let site = """
        -- content/index.md --
        Hello.
        -- content/glossary/kerning.md --
        ---
        term: Kerning
        part_of_speech: noun
        synonyms: [pair spacing]
        see_also: [tracking]
        ---
        The space between two letters.
        -- .glossary/cache/en/quill.json --
        {"body": [{"word": "quill", "phonetic": "/kwɪl/", "license": {"name": "CC BY-SA 3.0", "url": "https://creativecommons.org/licenses/by-sa/3.0"},
          "sourceUrls": ["https://en.wiktionary.org/wiki/quill"],
          "meanings": [{"partOfSpeech": "noun", "definitions": [{"definition": "A pen made from a feather.", "example": "She wrote with a quill.",
          "synonyms": ["pen"]}]}]}],
         "fetched_at": "2024-01-02T03:04:05Z", "format": 1, "key": "quill", "language": "en", "status": 200,
         "url": "https://api.dictionaryapi.dev/api/v2/entries/en/quill"}
        """

    @Test func aTeamWordIsTheTeamsEntry() async throws {
        let site = try TestSite(Self.site)
        defer { site.remove() }
        let result = try await site.run(["define", "kerning", "--offline"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout == """
                Kerning
                From the team's entries: content/glossary/kerning.md

                noun
                  1. The space between two letters.
                  Synonyms: pair spacing

                See also: tracking

                """)
        #expect(result.stderr == "")
    }

    @Test func aCachedWordIsTheCachedAnswer() async throws {
        let site = try TestSite(Self.site)
        defer { site.remove() }
        let result = try await site.run(["define", "Quill", "--offline"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout == """
                quill /kwɪl/
                From the cache: the dictionary API's answer of 2024-01-02

                noun
                  1. A pen made from a feather.
                     “She wrote with a quill.”
                     Synonyms: pen

                Source: https://en.wiktionary.org/wiki/quill
                Licence: CC BY-SA 3.0 <https://creativecommons.org/licenses/by-sa/3.0>

                """)
    }

    /// A word the API doesn't know (its 404, from a real server) and WordNet does.
    @Test func aWordOnlyWordNetKnowsIsWordNets() async throws {
        let site = try TestSite(Self.site)
        defer { site.remove() }
        let server = try LoopbackServer { _ in .json(404, #"{"title":"No Definitions Found"}"#) }
        defer { server.stop() }

        let result = try await site.run(["define", "ink"], environment: ["GLOSSARY_API_URL": server.url("/api/v2/entries/{lang}/{word}")])

        #expect(result.status == 0, "\(result.stderr)")
        #expect(server.requestPaths == ["/api/v2/entries/en/ink"])
        #expect(
            result.stdout == """
                ink
                From WordNet 3.0

                noun
                  1. a liquid used for printing or writing or drawing
                  2. dark protective fluid ejected into the water by cuttlefish and other cephalopods

                verb
                  1. append one's signature to
                     “They inked the contract”
                  2. mark, coat, cover, or stain with ink
                     “he inked his finger”
                  3. fill with ink
                     “ink a pen”

                Source: https://wordnet.princeton.edu/
                Licence: WordNet 3.0 <https://wordnet.princeton.edu/license-and-commercial-use>

                """)
        #expect(site.files(under: ".glossary/cache") == ["en/ink.json", "en/quill.json"], "the API's answer is cached, as a build caches it")
    }

    @Test func anUnknownWordExitsOneSayingWhereItLooked() async throws {
        let site = try TestSite(Self.site)
        defer { site.remove() }
        let server = try LoopbackServer { _ in .json(404, #"{"title":"No Definitions Found"}"#) }
        defer { server.stop() }

        let result = try await site.run(["define", "xyz"], environment: ["GLOSSARY_API_URL": server.url("/api/v2/entries/{lang}/{word}")])

        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr == "no definition of 'xyz' in the team's entries, the cache, the dictionary API or WordNet\n")
        let offline = try await site.run(["define", "xyz", "--offline"])
        #expect(offline.stderr == "no definition of 'xyz' in the team's entries, the cache or WordNet (offline: the dictionary API was not asked)\n")
        let closed = try await site.run(["define", "xyzw", "--provider", "api"])
        #expect(
            closed.stderr.hasSuffix("[api-unreachable]\nno definition of 'xyzw' in the cache (the dictionary API could not be reached)\n"),
            "\(closed.stderr)")
    }

    @Test func aFormIsDefinedByItsBase() async throws {
        let site = try TestSite(Self.site)
        defer { site.remove() }
        let result = try await site.run(["define", "geese", "--offline"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("goose\ngeese is a form of goose\nFrom WordNet 3.0\n\nnoun\n  1. web-footed long-necked"), "\(result.stdout)")
    }

    @Test func oneProviderAlone() async throws {
        let site = try TestSite(Self.site)
        defer { site.remove() }
        let wordNet = try await site.run(["define", "quill", "--provider", "wordnet"])
        #expect(wordNet.stdout.hasPrefix("quill\nFrom WordNet 3.0\n\nnoun\n  1. pen made from a bird's feather\n"), "\(wordNet.stdout)")
        let api = try await site.run(["define", "kerning", "--provider", "api", "--offline"])
        #expect(api.status == 1)
        #expect(api.stderr == "no definition of 'kerning' in the cache (offline: the dictionary API was not asked)\n")
        let bad = try await site.run(["define", "ink", "--provider", "wiktionary"])
        #expect(bad.status == 64)
        #expect(bad.stderr.hasPrefix("error: --provider must be api or wordnet, not 'wiktionary'\n"))
        let none = try await site.run(["define"])
        #expect(none.status == 64)
        #expect(none.stderr.hasPrefix("error: missing WORD\n"))
    }

    @Test func jsonIsTheEntryModel() async throws {
        let site = try TestSite(Self.site)
        defer { site.remove() }
        let result = try await site.run(["define", "keyboards", "--offline", "--json"])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["key"] as? String == "keyboards")
        #expect(object["form_of"] as? String == "keyboard")
        #expect(object["source"] as? String == "wordnet")
        let entries = try #require(object["entries"] as? [[String: Any]])
        #expect(entries.first?["word"] as? String == "keyboard")
        #expect((entries.first?["license"] as? [String: Any])?["name"] as? String == "WordNet 3.0")
        #expect(result.stdout.hasPrefix("{\n  \"entries\": [\n    {\n"), "indented with two spaces, keys sorted")
    }

    /// Outside any site there are no team entries and no cache; WordNet still answers, and nothing is written.
    @Test func outsideASiteWordNetStillAnswers() async throws {
        let folder = try InlineSite.temporaryFolder("glossary-define-nowhere")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await TestSite.run(["define", "serendipity", "--offline"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("serendipity\nFrom WordNet 3.0\n\nnoun\n  1. good luck in making unexpected and fortunate discoveries\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
        let unknown = try await TestSite.run(["define", "zzqx", "--offline"], in: folder)
        #expect(unknown.stderr == "no definition of 'zzqx' in WordNet (offline: the dictionary API was not asked)\n")
    }
}
