import Testing

@testable import GlossaryKit

/// The WordNet files inflecting reads itself, against libwordnet's own answers over the same data.
@Suite struct WordNetExceptionsTests {
    @Test func theExceptionListsPairIrregularFormsWithTheirBases() throws {
        let wordNet = try WordNet.open()
        let nouns = wordNet.exceptions(for: .noun)
        #expect(nouns.contains { $0 == ("indices", "index") })
        #expect(nouns.contains { $0 == ("geese", "goose") })
        #expect(wordNet.exceptions(for: .verb).contains { $0 == ("stopped", "stop") })
        // Every pair is one Morphy itself reads back.
        for (inflected, base) in nouns.prefix(50) {
            #expect(wordNet.morphBaseForms(of: inflected, among: [.noun]).contains { WordNet.displayForm($0.word) == base }, "\(inflected)")
        }
    }

    @Test func theLemmasReadFromTheIndexAreTheWordsLibwordnetFinds() throws {
        let wordNet = try WordNet.open()
        let nouns = wordNet.lemmas(for: .noun)
        #expect(nouns.count > 100_000)
        for word in ["widget", "glasses", "index", "goose", "keyboard", "widgets", "geese", "frobnicator", "run", "parse"] {
            for partOfSpeech in WordNet.PartOfSpeech.allCases {
                #expect(
                    wordNet.lemmas(for: partOfSpeech).contains(word) == wordNet.indexedPartsOfSpeech(of: word).contains(partOfSpeech),
                    "\(word) \(partOfSpeech)")
            }
        }
    }
}
