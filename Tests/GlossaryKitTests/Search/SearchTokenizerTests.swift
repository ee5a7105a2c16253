import TestSupport
import Testing

@testable import GlossaryKit

/// The build's terms are the browser engine's (lunr 2.3.9's tokenizer and stop-word filter, `search-engine.js`'s
/// trimmer), so the browser's queries meet them; `Tests/browser/test_search.py` checks the same texts in the browser.
@Suite struct SearchTokenizerTests {
    @Test(arguments: [
        ("Hello, World!", ["hello", "world"]),
        ("Set-up the Pods; then run `kubectl`.", ["set", "up", "pods", "run", "kubectl"]),
        ("config.yaml and https://example.com/x", ["config.yaml", "https://example.com/x"]),
        ("a\u{00A0}b\u{2003}c\u{3000}d\u{FEFF}e", ["b", "c", "d", "e"]),
        ("(quoted) «angled» —dash— _under_", ["quoted", "angled", "dash", "_under_"]),
        // Accents are folded away first; a term is then trimmed to the letters and digits of any script.
        ("café naïve Ünïcode 東京 straße", ["cafe", "naive", "unicode", "東京", "straße"]),
        ("«Жук» (日本) ¿Ωmega? “東京タワー” ²x² ½", ["жук", "日本", "ωmega", "東京タワー", "²x²", "½"]),
        ("😀word😀 _x_ ·mid·dot·", ["word", "_x_", "mid·dot"]),
        ("THE Quick and THE Dead", ["quick", "dead"]),
        ("--- ... !!!", []),
    ])
    func termsAreLunrs(text: String, terms: [String]) {
        #expect(SearchTokenizer.terms(text) == terms)
    }

    /// A query folds as the pages did (`search.js` folds the same way; `Tests/browser/test_languages.py`).
    @Test(arguments: [
        ("cafe", "café"), ("Cafe", "CAFÉ"), ("resume", "résumé"), ("cafe", "cafe\u{301}"), ("creme brulee", "Crème Brûlée"),
        ("uber", "ÜBER"), ("ca", "ça"),
    ])
    func accentsAreFolded(query: String, text: String) {
        #expect(SearchTokenizer.terms(query) == SearchTokenizer.terms(text))
    }

    @Test func foldingDropsMarksAndKeepsLetters() {
        #expect(SearchTokenizer.folded("Ångström, façade, ß, ŀ, Ø, 東京") == "Angstrom, facade, ß, ŀ, Ø, 東京")
    }

    @Test func fieldsCountTermsAndLength() {
        let field = SearchTerms(text: "Pods run pods; pods stop, and the pods go")
        #expect(field.terms == ["pods", "run", "stop", "go"])
        #expect(field.counts == [4, 1, 1, 1])
        #expect(field.length == 7)
    }

    @Test func aFieldOfTextIsTheFieldOfItsTerms() {
        let words = ["Pods", "pods", "the", "The", "and", "run", "-", " ", "  ", "\n", "café", "x_y", "a", "1", "—", ".", "Run"]
        var random = SeededRandom(seed: 0xf1e1d)
        for _ in 0..<2000 {
            let text = (0..<Int(random.next() % 40)).map { _ in words[Int(random.next() % UInt64(words.count))] }.joined(separator: " ")
            #expect(SearchTerms(text: text) == SearchTerms(tokens: SearchTokenizer.terms(text)), "\(text.debugDescription)")
        }
    }

    /// Fields of texts merged in order are the field of the texts one line after another.
    @Test func mergedFieldsAreTheFieldOfTheirTextsInOrder() {
        let words = ["Pods", "pods", "the", "run", "café", "x_y", "1", "—", "Run", "set-up", "\r\n", "Σ", " "]
        var random = SeededRandom(seed: 0x3e26e)
        for _ in 0..<500 {
            let texts = (0..<Int(random.next() % 5)).map { _ in
                (0..<Int(random.next() % 12)).map { _ in words[Int(random.next() % UInt64(words.count))] }.joined(separator: " ")
            }
            let merged = SearchTerms(merging: texts.map(SearchTerms.init(text:)))
            #expect(merged == SearchTerms(text: texts.joined(separator: "\n")), "\(texts.debugDescription)")
        }
    }
}
