/// Which term an inflected word stands for: `keyboards` → keyboard, `indices` → index, `ran` → run, `geese` →
/// goose, by WordNet's Morphy (English only; other languages keep their exact keys).
///
/// A word is itself first, wherever a definition of it exists; only a word with none anywhere stands for a base
/// form. Words WordNet has as words of their own (`glasses`, `news`, `species`) never stand for another, even
/// where WordNet is not asked for definitions. The resolver uses it for references; anything else that maps
/// words to terms (linking words in running text) can use it with the set of keys the site defines.
public struct WordFormResolver: Sendable {
    public let dictionary: WordNetDictionary?
    public let language: String

    public init(dictionary: WordNetDictionary?, language: String) {
        self.dictionary = dictionary
        self.language = language
    }

    /// Whether word forms are resolved at all: an English site with WordNet's data at hand.
    public var isEnabled: Bool { dictionary != nil && Self.isEnglish(language) }

    /// `en`, `en-GB`, `en_US`: the languages WordNet and Morphy are made for.
    public static func isEnglish(_ language: String) -> Bool {
        let code = language.lowercased()
        return code == "en" || code.hasPrefix("en-") || code.hasPrefix("en_")
    }

    /// The keys `key` may be a form of, in the order to try them (nouns, verbs, adjectives, adverbs, as Morphy
    /// gives them); empty when it is a word of its own in WordNet, an inflection of nothing, or not English.
    public func baseKeys(of key: TermKey) -> [TermKey] {
        guard isEnabled, let dictionary else { return [] }
        let forms = dictionary.forms(of: key)
        guard !forms.hasOwnEntry else { return [] }
        return forms.baseWords.compactMap(TermKey.init).filter { $0 != key }
    }

    /// The key `key` resolves to among the keys that have a definition: itself when it has one, else the first of
    /// its base forms that does; nil when neither.
    public func resolve(_ key: TermKey, isDefined: (TermKey) -> Bool) -> TermKey? {
        if isDefined(key) { return key }
        return baseKeys(of: key).first(where: isDefined)
    }

    /// `resolve(_:isDefined:)` against a set of defined keys.
    public func resolve(_ key: TermKey, definedKeys: Set<TermKey>) -> TermKey? {
        resolve(key, isDefined: definedKeys.contains)
    }
}
