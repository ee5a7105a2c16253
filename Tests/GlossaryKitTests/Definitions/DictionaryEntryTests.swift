import Foundation
import TestSupport
import Testing

@testable import GlossaryKit

/// Decoding the real API's responses, read at run time from the shared fixtures (third-party data).
@Suite struct DictionaryEntryTests {
    static func fixture(_ name: String) throws -> Data {
        try #require(DictionaryFixtures.data(name), "fixture \(name).json: \(DictionaryFixtures.missingMessage)")
    }

    @Test(arguments: ["aaa", "banana", "charlie", "hello", "hi", "honor", "keyboard", "keyboard-duplicated-synonyms"])
    func everyFixtureDecodes(_ name: String) throws {
        let entries = try CacheEntry.decodeBody(try Self.fixture(name), status: 200)
        #expect(!entries.isEmpty)
        #expect(entries.allSatisfy { !$0.word.isEmpty && !$0.meanings.isEmpty })
        #expect(entries.flatMap(\.phonetics).allSatisfy { $0.audio != "" })
    }

    @Test func repeatedSynonymsCollapse() throws {
        let entries = try CacheEntry.decodeBody(try Self.fixture("keyboard-duplicated-synonyms"), status: 200)
        let noun = try #require(entries.first?.meanings.first { $0.partOfSpeech == "noun" })
        #expect(noun.synonyms == ["electronic keyboard"])
    }

    @Test func missingPhoneticAndEmptyPhonetics() throws {
        let hi = try CacheEntry.decodeBody(try Self.fixture("hi"), status: 200)
        #expect(hi.count == 2)
        #expect(hi[1].phonetic == nil && hi[1].phonetics.isEmpty)
        let aaa = try CacheEntry.decodeBody(try Self.fixture("aaa"), status: 200)
        #expect(aaa[0].phonetics.isEmpty && aaa[0].phonetic == nil)
    }

    @Test func emptyAudioReadsAsAbsent() throws {
        let keyboard = try CacheEntry.decodeBody(try Self.fixture("keyboard"), status: 200)
        let withAudio = keyboard[0].phonetics.compactMap(\.audio)
        #expect(withAudio == ["https://api.dictionaryapi.dev/media/pronunciations/en/keyboard-us.mp3"])
    }

    @Test func caseVariantSourceURLsMerge() throws {
        let charlie = try CacheEntry.decodeBody(try Self.fixture("charlie"), status: 200)
        #expect(charlie[0].sourceUrls.count == 1)
    }

    @Test func notFoundBodyIsAnObject() throws {
        #expect(try CacheEntry.decodeBody(try Self.fixture("not-found"), status: 404).isEmpty)
        #expect(throws: CacheEntry.Problem.self) { try CacheEntry.decodeBody(try Self.fixture("not-found"), status: 200) }
    }

    @Test(arguments: [
        ("<html>busy</html>", "is not valid JSON"),
        ("[]", "expected a non-empty array of entries"),
        (#"[{"meanings": []}]"#, "missing 'word' at [0]"),
        (#"{"word": "x"}"#, "expected a non-empty array of entries"),
    ])
    func badBodiesSayWhatIsWrong(_ body: String, _ message: String) {
        do {
            _ = try CacheEntry.decodeBody(Data(body.utf8), status: 200)
            Issue.record("decoded \(body)")
        } catch {
            #expect(error.description.contains(message), "\(error.description)")
        }
    }

    @Test func onlyWebURLsSurviveDecoding() throws {
        let body = #"""
            [{"word": "x", "phonetics": [{"text": "/x/", "audio": "javascript:alert(1)", "sourceUrl": "data:text/html,hi"},
              {"audio": " https://example.org/x-us.mp3 "}],
              "meanings": [], "license": {"name": "L", "url": "javascript:alert(2)"},
              "sourceUrls": ["JavaScript:alert(3)", "http://example.org/wiki/x"]}]
            """#
        let entry = try #require(try CacheEntry.decodeBody(Data(body.utf8), status: 200).first)
        #expect(entry.phonetics.map(\.audio) == [nil, "https://example.org/x-us.mp3"])
        #expect(entry.phonetics[0].sourceUrl == nil)
        #expect(entry.license?.url == nil)
        #expect(entry.sourceUrls == ["http://example.org/wiki/x"])
    }

    @Test func theAPIsExampleIsTheFirstOfTheExamples() throws {
        let hello = try CacheEntry.decodeBody(try Self.fixture("hello"), status: 200)
        let senses = hello.flatMap(\.meanings).flatMap(\.definitions)
        #expect(senses.contains { $0.example != nil })
        #expect(senses.allSatisfy { $0.examples == ($0.example.map { [$0] } ?? []) })
    }

    @Test func severalExamplesEncodeAsTheFirstPlusTheList() throws {
        let sense = DictionaryEntry.Sense(definition: "benefit", examples: ["for your own good", "what's the good of worrying?"])
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(sense)) as? [String: Any]
        #expect(json?["example"] as? String == "for your own good")
        #expect(json?["examples"] as? [String] == ["for your own good", "what's the good of worrying?"])
        #expect(try JSONDecoder().decode(DictionaryEntry.Sense.self, from: JSONEncoder().encode(sense)) == sense)
    }

    @Test func oneExampleEncodesAsTheAPIDoes() throws {
        let sense = DictionaryEntry.Sense(definition: "a greeting", example: "hello, everyone")
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(sense)) as? [String: Any]
        #expect(json?["example"] as? String == "hello, everyone")
        #expect(json?["examples"] == nil)
        let none = try JSONSerialization.jsonObject(with: JSONEncoder().encode(DictionaryEntry.Sense(definition: "x"))) as? [String: Any]
        #expect(none?["example"] == nil && none?["examples"] == nil)
    }

    @Test func settingExampleReplacesTheFirst() {
        var sense = DictionaryEntry.Sense(definition: "x", examples: ["a", "b"])
        sense.example = "c"
        #expect(sense.examples == ["c", "b"])
        sense.example = nil
        #expect(sense.examples == ["b"])
        var empty = DictionaryEntry.Sense(definition: "x")
        empty.example = "d"
        #expect(empty.examples == ["d"])
    }
}

/// What a term's card shows of its entries: the first definition, part of speech and pronunciation found, in order,
/// past entries and meanings that lack them.
@Suite struct TermCardFieldTests {
    @Test func eachFieldIsTheFirstOneFoundAcrossEntriesAndMeanings() throws {
        let key = try #require(TermKey("crane"))
        let entries = [
            DictionaryEntry(word: "crane", phonetics: [.init(audio: "https://example.com/crane-us.mp3")], meanings: [.init(partOfSpeech: "", definitions: [])]),
            DictionaryEntry(
                word: "crane", phonetics: [.init(audio: "https://example.com/a.mp3"), .init(text: "/kɹeɪn/")],
                meanings: [
                    .init(partOfSpeech: "noun", definitions: []), .init(partOfSpeech: "verb", definitions: [.init(definition: "To stretch one's neck.")]),
                ]),
            DictionaryEntry(word: "crane", phonetic: "/kreɪn/", meanings: [.init(partOfSpeech: "noun", definitions: [.init(definition: "A large bird.")])]),
        ]
        let definition = TermDefinition(key: key, word: "crane", entries: entries, origin: .wordNet)
        #expect(definition.summary == "To stretch one's neck.")
        #expect(definition.partOfSpeech == "noun")
        #expect(definition.phonetic == "/kɹeɪn/")
        let none = TermDefinition(key: key, word: "crane", entries: [entries[0]], origin: .wordNet)
        #expect(none.summary == nil && none.partOfSpeech == nil && none.phonetic == nil)
    }
}
