/// What WordNet makes of a word as written: whether it is a word of its own, and which base forms it may be an
/// inflection of (English only: Morphy's rules and exception lists are English).
///
/// A caller resolving a reference combines the two: the exact word first, wherever a definition for it exists
/// (the team's entries, the cache, WordNet, the API), because it may be a word of its own that merely looks
/// inflected (`glasses`, `news`, `species`); only when nothing defines the exact word, each of `baseWords` in
/// order. `candidates` is that order for WordNet alone.
public struct WordForms: Equatable, Sendable {
    /// A base form and the part of speech in which `word` inflects it.
    public struct BaseForm: Equatable, Sendable {
        public var word: String
        public var partOfSpeech: WordNet.PartOfSpeech

        public init(word: String, partOfSpeech: WordNet.PartOfSpeech) {
            self.word = word
            self.partOfSpeech = partOfSpeech
        }
    }

    /// The word as WordNet reads it: lower case, single spaces.
    public var word: String
    /// The parts of speech in which WordNet has the word itself; empty when it has no entry of its own.
    public var ownPartsOfSpeech: [WordNet.PartOfSpeech]
    /// Morphy's base forms: nouns, verbs, adjectives, adverbs, each as `morphstr` gives them (exception lists
    /// first, then suffix rules), never `word` itself. `better` gives good and well (adjective), well (adverb).
    public var baseForms: [BaseForm]

    public init(word: String, ownPartsOfSpeech: [WordNet.PartOfSpeech], baseForms: [BaseForm]) {
        self.word = word
        self.ownPartsOfSpeech = ownPartsOfSpeech
        self.baseForms = baseForms
    }

    /// Whether WordNet has an entry for the word as written, so it needs no base form to be defined.
    public var hasOwnEntry: Bool { !ownPartsOfSpeech.isEmpty }

    /// The distinct base forms, in `baseForms` order.
    public var baseWords: [String] {
        var seen = Set<String>()
        return baseForms.map(\.word).filter { seen.insert($0).inserted }
    }

    /// The words to look up in WordNet, in order: the word itself when it has an entry, then its base forms.
    public var candidates: [String] {
        (hasOwnEntry ? [word] : []) + baseWords.filter { $0 != word }
    }
}
