import Testing

@testable import GlossaryKit

@Suite struct DictionaryURLTemplateTests {
    @Test(arguments: [
        ("serendipity", "https://api.dictionaryapi.dev/api/v2/entries/en/serendipity"),
        ("ice cream", "https://api.dictionaryapi.dev/api/v2/entries/en/ice%20cream"),
        ("don't", "https://api.dictionaryapi.dev/api/v2/entries/en/don%27t"),
        ("café", "https://api.dictionaryapi.dev/api/v2/entries/en/caf%C3%A9"),
        ("e-mail_v1.0~x", "https://api.dictionaryapi.dev/api/v2/entries/en/e-mail_v1.0~x"),
        ("50% off+tax", "https://api.dictionaryapi.dev/api/v2/entries/en/50%25%20off%2Btax"),
        ("a/../b", "https://api.dictionaryapi.dev/api/v2/entries/en/a%2F..%2Fb"),
    ])
    func fillsInThePercentEncodedWord(word: String, url: String) throws {
        let template = try #require(DictionaryURLTemplate("https://api.dictionaryapi.dev/api/v2/entries/{lang}/{word}"))
        #expect(template.url(for: TermKey(word)!, language: "en") == url)
    }

    @Test func encodesTheLanguageAndAllowsTheWordTwiceOrInTheQuery() throws {
        let template = try #require(DictionaryURLTemplate("http://localhost:8080/lookup?lang={lang}&q={word}&again={word}"))
        #expect(template.url(for: TermKey("Ice  Cream")!, language: "pt BR") == "http://localhost:8080/lookup?lang=pt%20BR&q=ice%20cream&again=ice%20cream")
    }

    @Test func aTemplateWithoutTheWordIsRefused() {
        #expect(DictionaryURLTemplate("https://api.dictionaryapi.dev/api/v2/entries/en/") == nil)
    }
}
