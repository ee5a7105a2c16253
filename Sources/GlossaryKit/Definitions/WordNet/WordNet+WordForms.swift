extension WordNet {
    /// Whether `word` has an entry of its own and which base forms Morphy finds for it; see `WordForms`.
    public func forms(of word: String) -> WordForms {
        let display = Self.lemmaKey(word).map(Self.displayForm) ?? word
        let baseForms = morphBaseForms(of: word).map { WordForms.BaseForm(word: Self.displayForm($0.word), partOfSpeech: $0.partOfSpeech) }
        var seen = Set<String>()
        return WordForms(
            word: display, ownPartsOfSpeech: indexedPartsOfSpeech(of: word),
            baseForms: baseForms.filter { $0.word != display && seen.insert("\($0.partOfSpeech.rawValue) \($0.word)").inserted })
    }

    /// The distinct base forms of `word` (English), nouns first, then verbs, adjectives, adverbs: `keyboards` →
    /// keyboard, `ran` → run, `better` → good, well. Empty for a word that is no inflection WordNet knows.
    public func baseForms(of word: String) -> [String] {
        forms(of: word).baseWords
    }
}
