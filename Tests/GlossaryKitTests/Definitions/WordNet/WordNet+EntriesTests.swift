import Foundation
import Testing

@testable import GlossaryKit

/// WordNet entries in the dictionary model, checked against what Debian's `wn` command prints for the same words
/// from the same data (`wn` is run at test time; nothing it prints is written down here).
@Suite struct WordNetEntriesTests {
    static let words = ["keyboard", "run", "bank", "good", "light", "well", "fast"]
    /// `wn`'s part-of-speech names, and the dictionary model's.
    static let partsOfSpeech = [("noun", "noun"), ("verb", "verb"), ("adj", "adjective"), ("adv", "adverb")]

    @Test(arguments: words)
    func sensesGlossesAndSynonymsMatchTheWnCommand(_ word: String) throws {
        let wordNet = try WordNet.open()
        let entries = wordNet.entries(for: word)
        #expect(entries.count == 1)
        let entry = try #require(entries.first)
        #expect(entry.word == word)
        let overview = try WordNetCommand.overview(word)
        #expect(!overview.senses.isEmpty, "wn printed no overview for \(word)")
        #expect(entry.meanings.map(\.partOfSpeech) == Self.partsOfSpeech.filter { overview.senses[$0.0] != nil }.map(\.1))
        for (wnName, name) in Self.partsOfSpeech {
            let expected = overview.senses[wnName] ?? []
            let senses = entry.meanings.first { $0.partOfSpeech == name }?.definitions ?? []
            #expect(senses.count == expected.count, "\(word) (\(name))")
            #expect(expected.count == overview.announcedCounts[wnName] ?? 0, "wn's sense lines for \(word) (\(wnName)) disagree with its count")
            guard !expected.isEmpty else { continue }
            #expect(expected.map(\.number) == Array(1...expected.count))
            let synsets = try WordNetCommand.synonyms(word, wnName)
            #expect(synsets.count == expected.count, "\(word) -syns\(WordNetCommand.searchLetter(wnName))")
            for (index, (sense, printed)) in zip(senses, expected).enumerated() {
                let label = "\(word) (\(name)) sense \(index + 1)"
                let (definition, examples) = Self.split(printed.gloss)
                #expect(sense.definition == definition, "\(label)")
                #expect(sense.examples == examples, "\(label)")
                #expect(sense.example == examples.first, "\(label)")
                let others = Set(printed.words.filter { $0.lowercased() != word })
                #expect(Set(sense.synonyms) == others, "\(label)")
                #expect(sense.synonyms.count == others.count, "\(label): repeated synonyms")
                if index < synsets.count {
                    #expect(Set(synsets[index].words.filter { $0.lowercased() != word }) == others, "\(label): -over and -syns disagree")
                }
            }
        }
    }

    @Test(arguments: words)
    func antonymsMatchTheWnCommand(_ word: String) throws {
        let wordNet = try WordNet.open()
        let entry = try #require(wordNet.entries(for: word).first)
        var compared = 0
        for (wnName, name) in Self.partsOfSpeech {
            guard let senses = entry.meanings.first(where: { $0.partOfSpeech == name })?.definitions else { continue }
            let expected: [Int: [String]]
            if wnName == "adj" {
                // `wn -antsa` prints whole antonym clusters; the `(vs. …)` after the word in `-synsa` names its antonyms.
                let synsets = try WordNetCommand.synonyms(word, wnName)
                expected = Dictionary(
                    uniqueKeysWithValues: synsets.compactMap { sense in
                        sense.antonymsByWord.first { $0.key.lowercased() == word }.map { (sense.number, $0.value) }
                    })
            } else {
                expected = try WordNetCommand.antonyms(word, wnName)
            }
            for (index, sense) in senses.enumerated() {
                #expect(Set(sense.antonyms) == Set(expected[index + 1] ?? []), "\(word) (\(name)) sense \(index + 1)")
            }
            #expect(senses.filter { !$0.antonyms.isEmpty }.count == expected.count, "\(word) (\(name))")
            compared += expected.values.map(\.count).reduce(0, +)
        }
        if ["good", "light", "well", "fast"].contains(word) {
            #expect(compared > 0, "\(word) has antonyms in WordNet; the comparison found none")
        }
    }

    @Test func satelliteAdjectivesAreAdjectives() throws {
        let wordNet = try WordNet.open()
        let synsets = wordNet.synsets(of: "good")
        #expect(synsets.contains { $0.isSatellite && $0.partOfSpeech == .adjective })
        let adjectives = try #require(wordNet.entries(for: "good").first?.meanings.first { $0.partOfSpeech == "adjective" })
        #expect(adjectives.definitions.count == synsets.filter { $0.partOfSpeech == .adjective }.count)
    }

    @Test func entriesCarryWordNetsLicenceAndSource() throws {
        let entry = try #require(try WordNet.open().entries(for: "keyboard").first)
        #expect(entry.license == DictionaryEntry.License(name: "WordNet 3.0", url: "https://wordnet.princeton.edu/license-and-commercial-use"))
        #expect(entry.sourceUrls == ["https://wordnet.princeton.edu/"])
        #expect(entry.phonetics.isEmpty && entry.phonetic == nil)
        #expect(entry.meanings.allSatisfy { $0.synonyms.isEmpty && $0.antonyms.isEmpty })
    }

    @Test func theLicenceTextIsWordNets() {
        #expect(WordNet.licenseText.contains("WordNet 3.0 Copyright 2006 by Princeton University.  All rights reserved."))
        #expect(WordNet.licenseText.hasPrefix("This software and database is being provided to you, the LICENSEE, by"))
        #expect(WordNet.licenseText.hasSuffix("Princeton University and LICENSEE agrees to preserve same."))
        #expect(!WordNet.licenseText.contains(" \n"))
    }

    @Test(arguments: ["Keyboard", "KEYBOARD", " keyboard ", "keyboard\n"])
    func caseAndSurroundingSpaceDoNotMatter(_ word: String) throws {
        let wordNet = try WordNet.open()
        #expect(wordNet.entries(for: word) == wordNet.entries(for: "keyboard"))
        #expect(wordNet.hasEntry(for: word))
    }

    @Test func spacesTypographicApostrophesAndSpellingVariantsFindTheLemma() throws {
        let wordNet = try WordNet.open()
        #expect(wordNet.entries(for: "ice  cream").first?.word == "ice cream")
        #expect(wordNet.entries(for: "rock \u{2019}n\u{2019} roll") == wordNet.entries(for: "rock 'n' roll"))
        #expect(!wordNet.entries(for: "rock 'n' roll").isEmpty)
        // libwordnet tries hyphens, underscores and periods itself: e-mail's synsets include email's, once.
        let noun = try #require(wordNet.entries(for: "e-mail").first?.meanings.first)
        #expect(noun.definitions.count == 1)
        #expect(Set(noun.definitions[0].synonyms) == ["electronic mail", "email"])
    }

    /// Input libwordnet would misread or that could overflow its buffers never reaches it.
    @Test(arguments: ["", "   ", "café", "good(p)", "good\u{0}bad", "key;board", String(repeating: "a", count: 300), String(repeating: "é", count: 5000)])
    func wordsThatCannotBeLemmasHaveNoEntry(_ word: String) throws {
        let wordNet = try WordNet.open()
        #expect(wordNet.entries(for: word).isEmpty)
        #expect(!wordNet.hasEntry(for: word))
        #expect(wordNet.forms(of: word).baseForms.isEmpty)
    }

    @Test func wordsWordNetLacksHaveNoEntry() throws {
        let wordNet = try WordNet.open()
        #expect(wordNet.entries(for: "keyboards").isEmpty)
        #expect(wordNet.entries(for: "tontfroostity").isEmpty)
        #expect(!wordNet.hasEntry(for: "keyboards"))
    }

    /// A gloss as `wn` prints it, read the plain way: the definition up to the first `; "`, then `; "`-separated
    /// examples, each without its closing quote, or with an attribution after it (`"…"- Author`) as `… — Author`.
    /// The words compared here have glosses that simple.
    static func split(_ gloss: String) -> (String, [String]) {
        guard let range = gloss.range(of: "; \"") else { return (gloss, []) }
        let examples = gloss[range.upperBound...].components(separatedBy: "; \"").map { piece in
            if let match = piece.wholeMatch(of: #/(.*)"\s*-+\s*(.+)/#) { return "\(match.1) \u{2014} \(match.2)" }
            return piece.hasSuffix("\"") ? String(piece.dropLast()) : piece
        }
        return (String(gloss[..<range.lowerBound]), examples)
    }
}
