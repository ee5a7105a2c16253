import TestSupport
import Testing

@testable import GlossaryKit

/// `TermIDs` and the byte-wise UTF-16 order against the slow references they replace: `[String: Int]` keyed by
/// bytes and `utf16.lexicographicallyPrecedes`.
@Suite struct TermIDsTests {
    /// Characters from each range the comparison treats apart: ASCII, two-byte, the BMP below and above the
    /// surrogates, and above U+FFFF.
    static let alphabet: [Character] = ["a", "b", "z", "0", "_", "é", "ß", "ж", "\u{D7FF}", "\u{E000}", "\u{FB01}", "\u{FFFD}", "😀", "𝔸", "\u{10FFFF}"]

    static func randomWords(_ count: Int, seed: UInt64) -> [String] {
        var random = SeededRandom(seed: seed)
        return (0..<count).map { _ in
            let length = Int(random.next() % 12)
            return String((0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func idsAreDenseInOrderOfFirstSightLikeADictionary(seed: UInt64) {
        // Few distinct short words, many repeats, and growth well past the first table.
        let words = Self.randomWords(20_000, seed: seed).map { String($0.prefix(3)) }
        var ids = TermIDs()
        var reference: [[UInt8]: Int] = [:]
        var order: [String] = []
        for word in words {
            let expected = reference[Array(word.utf8)]
            let (id, isNew) = ids.id(word)
            #expect(isNew == (expected == nil))
            if let expected {
                #expect(id == expected)
            } else {
                #expect(id == order.count)
                reference[Array(word.utf8)] = id
                order.append(word)
            }
        }
        #expect(ids.strings == order)
        #expect(ids.count == reference.count)
    }

    /// A field keeps its terms as bytes one after another: they come back as the strings and counts they were.
    @Test(arguments: [4, 5] as [UInt64])
    func aFieldKeptAsBytesGivesBackItsTermsAndCounts(seed: UInt64) {
        let tokens = Self.randomWords(5_000, seed: seed).map { String($0.prefix(2)) } + [""]
        var order: [String] = []
        var counts: [String: Int] = [:]
        for token in tokens {
            if counts[token] == nil { order.append(token) }
            counts[token, default: 0] += 1
        }
        let field = SearchTerms(tokens: tokens)
        #expect(field.terms == order && field.count == order.count)
        #expect(field.counts == order.map { counts[$0]! })
        #expect(field.length == tokens.count)
        #expect(SearchTerms(terms: order, counts: order.map { counts[$0]! }, length: tokens.count) == field)
        var seen: [String] = []
        field.forEachTerm { term, count in
            seen.append(String(decoding: term, as: UTF8.self))
            #expect(count == counts[seen.last!])
        }
        #expect(seen == order)
    }

    @Test func spellingsInDifferentNormalFormsAreDifferentTermsAsInLunr() {
        var ids = TermIDs()
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(composed == decomposed, "Swift's String equality says they are the same")
        #expect(ids.id(composed) == (0, true))
        #expect(ids.id(decomposed) == (1, true))
        #expect(ids.id(composed) == (0, false))
    }

    @Test(arguments: [7, 8, 9] as [UInt64])
    func byteOrderAgreesWithJavaScriptsUTF16Order(seed: UInt64) {
        let words = Self.randomWords(3_000, seed: seed)
        for (a, b) in zip(words, words.dropFirst()) {
            let shown = "\(a.unicodeScalars.map(\.value)) vs \(b.unicodeScalars.map(\.value))"
            #expect(SearchIndex.precedesInUTF16(a, b) == a.utf16.lexicographicallyPrecedes(b.utf16), "\(shown)")
        }
        let sorted = words.sorted(by: SearchIndex.precedesInUTF16)
        #expect(sorted.map { Array($0.utf16) } == words.map { Array($0.utf16) }.sorted { $0.lexicographicallyPrecedes($1) })
    }

    @Test func aCharacterAboveTheBasicPlaneSortsBeforeThePrivateUseArea() {
        // In UTF-8, U+E000 (EE 80 80) is below U+1F600 (F0 9F 98 80); in UTF-16 the surrogate D83D comes first.
        #expect(SearchIndex.precedesInUTF16("😀", "\u{E000}"))
        #expect(!SearchIndex.precedesInUTF16("\u{E000}", "😀"))
        #expect(SearchIndex.precedesInUTF16("\u{D7FF}", "😀"), "below the surrogates, code point order")
        #expect(SearchIndex.precedesInUTF16("ab", "abc") && !SearchIndex.precedesInUTF16("abc", "ab") && !SearchIndex.precedesInUTF16("ab", "ab"))
    }

    @Test func fieldsCountTermsAsBeforeForEveryPlainSpelling() {
        let tokens = Self.randomWords(5_000, seed: 4).map { String($0.prefix(2)) }
        let terms = SearchTerms(tokens: tokens)
        var counts: [String: Int] = [:]
        var first: [String] = []
        for token in tokens {
            if counts[token] == nil { first.append(token) }
            counts[token, default: 0] += 1
        }
        #expect(terms.terms == first)
        #expect(terms.counts == first.map { counts[$0]! })
        #expect(terms.length == tokens.count)
    }

    /// A field made straight from the tokenizer's bytes is the field made from its strings.
    @Test(arguments: [11, 12, 13] as [UInt64])
    func fieldsFromBytesAreFieldsFromTokens(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let pieces = ["The", "pods", "Pods", "run", "and", "é", "naïve", "東京", "-", " ", "\n", "\u{00A0}", ".", "x_y", "ß", "😀", "a", "IS"]
        for _ in 0..<50 {
            let text = (0..<Int(random.next() % 80)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined(
                separator: random.next() % 2 == 0 ? " " : "")
            let fromBytes = SearchTerms(text: text)
            #expect(fromBytes == SearchTerms(tokens: SearchTokenizer.terms(text)), "\(text.debugDescription)")
        }
    }

    @Test func bytesFindTheIdsStringsGot() {
        var ids = TermIDs(["alpha", "beta", ""])
        for (word, expected) in [("beta", 1), ("", 2), ("alpha", 0)] {
            var copy = word
            copy.withUTF8 { bytes in
                #expect(ids.contains(bytes: bytes, hash: TermIDs.hash(bytes)))
                #expect(ids.id(bytes: bytes) == (expected, false))
            }
        }
        var gamma = "gamma"
        gamma.withUTF8 { bytes in
            #expect(!ids.contains(bytes: bytes, hash: TermIDs.hash(bytes)))
            #expect(ids.id(bytes: bytes) == (3, true))
        }
        #expect(ids.strings == ["alpha", "beta", "", "gamma"])
    }
}
