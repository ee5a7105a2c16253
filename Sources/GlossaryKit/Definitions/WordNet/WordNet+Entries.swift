import Foundation

extension WordNet {
    /// WordNet's entry for exactly `word`, in the dictionary API's model; empty when WordNet doesn't have the word.
    ///
    /// "Exactly" means the word as written, case, spacing and typographic apostrophes aside, plus the spelling
    /// variants libwordnet tries itself (`e-mail` finds `email`'s synsets too); inflected forms are not followed
    /// (`keyboards` has no entry): ask `forms(of:)` for those. The one entry has a meaning per part of speech
    /// (noun, verb, adjective, adverb; satellite adjectives are adjectives), its senses in WordNet's order (most
    /// frequent first), each with its gloss's definition and examples, the synset's other words as synonyms and
    /// the words its antonym pointers lead to as antonyms. Synonyms and antonyms sit on the senses, where WordNet
    /// has them; the meanings' own lists stay empty, so a page doesn't show them twice.
    public func entries(for word: String) -> [DictionaryEntry] {
        let synsets = synsets(of: word)
        guard let key = Self.lemmaKey(word), !synsets.isEmpty else { return [] }
        let lemma = Self.displayForm(key).lowercased()
        let meanings = PartOfSpeech.allCases.compactMap { partOfSpeech -> DictionaryEntry.Meaning? in
            let senses = synsets.filter { $0.partOfSpeech == partOfSpeech }.map { sense($0, lemma: lemma) }
            return senses.isEmpty ? nil : DictionaryEntry.Meaning(partOfSpeech: partOfSpeech.name, definitions: senses)
        }
        return [DictionaryEntry(word: Self.displayForm(key), meanings: meanings, license: Self.license, sourceUrls: [Self.sourceURL])]
    }

    /// Whether WordNet has an entry for exactly `word` (as `entries(for:)` reads it), without building it.
    public func hasEntry(for word: String) -> Bool {
        !indexedPartsOfSpeech(of: word).isEmpty
    }

    private func sense(_ synset: Synset, lemma: String) -> DictionaryEntry.Sense {
        let gloss = WordNetGloss(synset.gloss)
        let synonyms = synset.words.enumerated().filter { index, word in
            index != synset.lemmaIndex && Self.displayForm(word).lowercased() != lemma
        }
        return DictionaryEntry.Sense(
            definition: gloss.definition, examples: gloss.examples,
            synonyms: DictionaryEntry.uniqued(synonyms.map { Self.displayForm($0.element) }),
            antonyms: DictionaryEntry.uniqued(synset.antonyms.map(Self.displayForm)))
    }

    /// A word as the data spells it, as a reader should see it: spaces for underscores, without the adjective
    /// position markers `(a)`, `(p)` and `(ip)`.
    static func displayForm(_ word: String) -> String {
        var word = Substring(word)
        for marker in ["(a)", "(p)", "(ip)"] where word.hasSuffix(marker) {
            word = word.dropLast(marker.count)
        }
        return String(word.map { $0 == "_" ? " " : $0 })
    }
}
