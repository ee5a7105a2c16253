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

    /// Morphy's suffix rules run in memory give what libwordnet's `morphstr` gives, for every plain word they answer
    /// for: the regular inflections of thousands of nouns and verbs (what inflecting asks), words of the exception
    /// lists, short words, words ending in `ss` and `ful`, words WordNet doesn't know.
    @Test func morphysRulesInMemoryGiveWhatLibwordnetGives() throws {
        let wordNet = try WordNet.open()
        let dictionary = WordNetDictionary(wordNet)
        let lemmas = dictionary.lemmas()
        let forms = dictionary.exceptionForms()
        #expect(forms[.noun]?.contains("geese") == true && forms[.verb]?.contains("ran") == true)
        var words = ["as", "is", "glasses", "mess", "cupfuls", "armfuls", "frobnicators", "axes", "ties", "dies", "firemen", "x", "s"]
        for partOfSpeech in WordNetDictionary.inflectedPartsOfSpeech {
            let sample = lemmas[partOfSpeech, default: []].filter { $0.utf8.allSatisfy { $0 >= 0x61 && $0 <= 0x7A } }.sorted()
            for lemma in stride(from: 0, to: sample.count, by: max(1, sample.count / 1500)).map({ sample[$0] }) {
                words += WordNetDictionary.regularInflections(of: lemma, as: partOfSpeech) + [lemma]
            }
            words += forms[partOfSpeech, default: []].sorted().prefix(100)
        }
        var answered = 0
        for word in words {
            for partOfSpeech in WordNetDictionary.inflectedPartsOfSpeech {
                guard let bases = WordNetDictionary.ruleBaseForms(of: word, as: partOfSpeech, lemmas: lemmas, exceptionForms: forms) else {
                    continue
                }
                answered += 1
                let libwordnet = wordNet.morphBaseForms(of: word, among: [partOfSpeech]).map { WordNet.displayForm($0.word).lowercased() }
                #expect(bases == libwordnet, "\(word) \(partOfSpeech)")
            }
        }
        #expect(answered > 8000 && answered < words.count * 2, "most words answered in memory, not all: \(answered) of \(words.count * 2)")
    }
}
