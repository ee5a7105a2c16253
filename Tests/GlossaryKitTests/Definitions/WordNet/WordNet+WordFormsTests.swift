import Testing

@testable import GlossaryKit

/// Morphy through libwordnet, on Debian's WordNet 3.0 data.
@Suite struct WordNetWordFormsTests {
    typealias Form = WordForms.BaseForm

    @Test(arguments: [
        ("keyboards", [Form(word: "keyboard", partOfSpeech: .noun)]),
        ("indices", [Form(word: "index", partOfSpeech: .noun)]),
        ("studies", [Form(word: "study", partOfSpeech: .noun), Form(word: "study", partOfSpeech: .verb)]),
        ("ran", [Form(word: "run", partOfSpeech: .verb)]),
        ("better", [Form(word: "good", partOfSpeech: .adjective), Form(word: "well", partOfSpeech: .adjective), Form(word: "well", partOfSpeech: .adverb)]),
        ("geese", [Form(word: "goose", partOfSpeech: .noun)]),
        ("mice", [Form(word: "mouse", partOfSpeech: .noun)]),
        ("went", [Form(word: "go", partOfSpeech: .verb)]),
        ("stopping", [Form(word: "stop", partOfSpeech: .verb)]),
        ("analyses", [Form(word: "analysis", partOfSpeech: .noun), Form(word: "analyse", partOfSpeech: .verb)]),
        ("Keyboards", [Form(word: "keyboard", partOfSpeech: .noun)]),
        ("running shoes", [Form(word: "running shoe", partOfSpeech: .noun)]),
    ])
    func inflectionsMapToTheirBaseForms(_ word: String, _ expected: [Form]) throws {
        let wordNet = try WordNet.open()
        let forms = wordNet.forms(of: word)
        #expect(forms.baseForms == expected)
        #expect(wordNet.baseForms(of: word) == Self.distinct(expected.map(\.word)))
        // Each base form is a word WordNet defines.
        #expect(expected.allSatisfy { wordNet.hasEntry(for: $0.word) })
    }

    @Test(arguments: ["keyboards", "indices", "geese", "mice", "went", "analyses"])
    func inflectionsWithoutAnEntryOfTheirOwnLookUpTheirBaseForms(_ word: String) throws {
        let wordNet = try WordNet.open()
        let forms = wordNet.forms(of: word)
        #expect(!forms.hasOwnEntry)
        #expect(forms.ownPartsOfSpeech.isEmpty)
        #expect(!wordNet.hasEntry(for: word))
        #expect(forms.candidates == forms.baseWords)
        #expect(!forms.candidates.isEmpty)
    }

    /// Words that look inflected but are WordNet words of their own, so a caller keeps them.
    @Test(arguments: ["news", "glasses", "species"])
    func wordsOfTheirOwnStayThemselves(_ word: String) throws {
        let wordNet = try WordNet.open()
        let forms = wordNet.forms(of: word)
        #expect(forms.hasOwnEntry)
        #expect(forms.ownPartsOfSpeech.contains(.noun))
        #expect(forms.candidates.first == word)
        #expect(wordNet.hasEntry(for: word))
        #expect(wordNet.entries(for: word).first?.meanings.first?.partOfSpeech == "noun")
        #expect(!forms.baseWords.contains(word))
    }

    @Test func glassesIsItsOwnWordAndAnInflectionOfGlass() throws {
        let forms = try WordNet.open().forms(of: "glasses")
        #expect(forms.candidates == ["glasses", "glass"])
        #expect(forms.baseForms == [Form(word: "glass", partOfSpeech: .noun), Form(word: "glass", partOfSpeech: .verb)])
    }

    @Test func baseWordsHaveNoBaseForms() throws {
        let wordNet = try WordNet.open()
        for word in ["keyboard", "run", "news"] {
            #expect(wordNet.baseForms(of: word).isEmpty, "\(word)")
            #expect(wordNet.forms(of: word).candidates == [word])
        }
    }

    @Test func wordsWordNetDoesNotKnowHaveNoForms() throws {
        let forms = try WordNet.open().forms(of: "tontfroostity")
        #expect(forms == WordForms(word: "tontfroostity", ownPartsOfSpeech: [], baseForms: []))
        #expect(forms.candidates.isEmpty)
    }

    static func distinct(_ words: [String]) -> [String] {
        var seen = Set<String>()
        return words.filter { seen.insert($0).inserted }
    }
}
