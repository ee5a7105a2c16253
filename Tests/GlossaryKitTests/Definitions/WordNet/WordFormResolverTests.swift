import Testing

@testable import GlossaryKit

/// Word forms against the real WordNet (Debian's data): which term an inflected word stands for.
@Suite struct WordFormResolverTests {
    static func resolver(language: String = "en") throws -> WordFormResolver {
        WordFormResolver(dictionary: WordNetDictionary(try WordNet.open()), language: language)
    }

    static func key(_ text: String) -> TermKey { TermKey(text)! }

    @Test(arguments: [("keyboards", ["keyboard"]), ("indices", ["index"]), ("ran", ["run"]), ("geese", ["goose"]), ("Keyboards", ["keyboard"])])
    func inflectionsNameTheirBaseForms(word: String, bases: [String]) throws {
        #expect(try Self.resolver().baseKeys(of: Self.key(word)) == bases.map(Self.key))
    }

    @Test(arguments: ["glasses", "news", "species", "keyboard", "zzqx"])
    func wordsOfTheirOwnAndUnknownWordsHaveNone(word: String) throws {
        #expect(try Self.resolver().baseKeys(of: Self.key(word)) == [])
    }

    @Test func otherLanguagesKeepTheirExactKeys() throws {
        #expect(try Self.resolver(language: "fr").baseKeys(of: Self.key("keyboards")) == [])
        #expect(try Self.resolver(language: "en-GB").baseKeys(of: Self.key("keyboards")) == [Self.key("keyboard")])
        #expect(WordFormResolver(dictionary: nil, language: "en").baseKeys(of: Self.key("keyboards")) == [])
    }

    /// What auto-linking needs: a word maps to itself when defined, else to its first defined base form.
    @Test func resolvesAmongTheDefinedKeys() throws {
        let resolver = try Self.resolver()
        let defined: Set<TermKey> = [Self.key("keyboard"), Self.key("glass"), Self.key("indices")]
        #expect(resolver.resolve(Self.key("keyboards"), definedKeys: defined) == Self.key("keyboard"))
        #expect(resolver.resolve(Self.key("indices"), definedKeys: defined) == Self.key("indices"), "a defined word is itself")
        #expect(resolver.resolve(Self.key("glasses"), definedKeys: defined) == nil, "glasses is a word of its own")
        #expect(resolver.resolve(Self.key("geese"), definedKeys: defined) == nil)
    }
}
