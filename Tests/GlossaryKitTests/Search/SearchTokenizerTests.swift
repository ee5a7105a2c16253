import Testing

@testable import GlossaryKit

/// The build's terms are lunr 2.3.9's (tokenizer, trimmer, stop-word filter), so the browser's queries meet
/// them; `Tests/browser/test_search.py` checks the same texts against lunr itself.
@Suite struct SearchTokenizerTests {
    @Test(arguments: [
        ("Hello, World!", ["hello", "world"]),
        ("Set-up the Pods; then run `kubectl`.", ["set", "up", "pods", "run", "kubectl"]),
        ("config.yaml and https://example.com/x", ["config.yaml", "https://example.com/x"]),
        ("a\u{00A0}b\u{2003}c\u{3000}d\u{FEFF}e", ["b", "c", "d", "e"]),
        ("(quoted) «angled» —dash— _under_", ["quoted", "angled", "dash", "_under_"]),
        // lunr trims every non-ASCII character at a term's ends, and keeps those inside.
        ("café naïve Ünïcode 東京", ["caf", "naïve", "nïcode"]),
        ("THE Quick and THE Dead", ["quick", "dead"]),
        ("--- ... !!!", []),
    ])
    func termsAreLunrs(text: String, terms: [String]) {
        #expect(SearchTokenizer.terms(text) == terms)
    }

    @Test func fieldsCountTermsAndLength() {
        let field = SearchTerms(text: "Pods run pods; pods stop, and the pods go")
        #expect(field.terms == ["pods", "run", "stop", "go"])
        #expect(field.counts == [4, 1, 1, 1])
        #expect(field.length == 7)
    }

    @Test func aFieldOfTextIsTheFieldOfItsTerms() {
        let words = ["Pods", "pods", "the", "The", "and", "run", "-", " ", "  ", "\n", "café", "x_y", "a", "1", "—", ".", "Run"]
        var random = SplitMix(seed: 0xf1e1d)
        for _ in 0..<2000 {
            let text = (0..<Int(random.next() % 40)).map { _ in words[Int(random.next() % UInt64(words.count))] }.joined(separator: " ")
            #expect(SearchTerms(text: text) == SearchTerms(tokens: SearchTokenizer.terms(text)), "\(text.debugDescription)")
        }
    }

    /// A text big enough to be counted in parallel parts (`parallelTextSize`) counts as one part would: terms
    /// recurring in every part counted once each, first occurrences in order, CR LF and lines of one word kept.
    @Test func aBigTextCountsAsOnePartWould() {
        let words = ["Pods", "pods", "the", "run", "café", "x_y", "1", "—", "Run", "set-up", "\r\n", "\n", "\n\n", "Σ"]
        var random = SplitMix(seed: 0xb16)
        var text = ""
        while text.utf8.count < SearchTerms.parallelTextSize + 4096 {
            // A word only one stretch of the text has, so terms first met in later parts come after earlier ones.
            text += "only\(text.utf8.count / 100_000) "
            for _ in 0..<2000 { text += words[Int(random.next() % UInt64(words.count))] + " " }
        }
        let parts = SearchTerms.lines(of: text, parts: 3)
        #expect(parts.count == 3 && parts.joined() == text)
        #expect(parts.dropLast().allSatisfy { $0.utf8.last == UInt8(ascii: "\n") })
        let parallel = SearchTerms(text: text)
        #expect(parallel == SearchTerms(tokenizing: text))
        #expect(parallel == SearchTerms(tokens: SearchTokenizer.terms(text)))
        #expect(parallel.terms.count > 40)
    }
}
