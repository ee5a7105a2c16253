import Foundation
import Testing

@testable import GlossaryKit

@Suite struct TermMatcherTests {
    private typealias Form = TermMatcher<String>.Form

    /// Each match as `id=text`, the text cut from the input at the reported byte range.
    private func found(_ forms: [Form], in text: String, excluding excluded: Set<String> = []) -> [String] {
        render(TermMatcher(forms: forms).matches(in: text, excluding: excluded), in: text)
    }

    private func render(_ matches: [TermMatcher<String>.Match], in text: String) -> [String] {
        let bytes = Array(text.utf8)
        return matches.map { "\($0.id)=\(String(decoding: bytes[$0.range], as: UTF8.self))" }
    }

    private func forms(_ texts: String...) -> [Form] { texts.map { Form($0, id: $0) } }

    // MARK: Whole words

    @Test(arguments: ["category", "bobcat", "cat_dog", "cat123", "123cat", "concatenate", "caté", "ĉat"])
    func formIsNotFoundInsideAWord(text: String) {
        #expect(found(forms("cat"), in: text) == [])
    }

    @Test func formIsFoundBetweenPunctuationAndAtTheEnds() {
        #expect(found(forms("cat"), in: "cat, (cat) \"cat\" cat. *cat*/cat") == Array(repeating: "cat=cat", count: 6))
    }

    @Test func possessiveApostropheEndsAWordOtherApostrophesDoNot() {
        #expect(found(forms("cat"), in: "the cat's toy, the CAT’S toy, the cats' toys") == ["cat=cat", "cat=CAT"])
        #expect(found(forms("don", "o"), in: "don't, don’t, o'clock") == [])
        #expect(found(forms("don't", "o'clock"), in: "Don’t wait till o‘clock") == ["don't=Don’t", "o'clock=o‘clock"])
        #expect(found(forms("cats"), in: "the cats' toys and 'cats'") == ["cats=cats", "cats=cats"])
        // `'s` followed by more letters is inside the word: `cat'sup` is not the possessive of `cat`.
        #expect(found(forms("cat"), in: "cat'sup") == [])
    }

    @Test func hyphenSeparatesWordsAndTheHyphenatedFormWinsWhole() {
        #expect(found(forms("known"), in: "a well-known fact") == ["known=known"])
        #expect(
            found(forms("known", "well", "well-known"), in: "a well-known fact, well known") == [
                "well-known=well-known", "well=well", "known=known",
            ])
    }

    @Test func formsWithPunctuationMatchWhereTheyDoNotSplitAWord() {
        let forms = forms("C++", ".NET", "e.g.")
        #expect(found(forms, in: "C++ and C++11, ASP.NET and .NET; e.g. this") == ["C++=C++", "C++=C++", ".NET=.NET", ".NET=.NET", "e.g.=e.g."])
        #expect(found(forms, in: "AC++ or .NETwork") == [])
    }

    // MARK: Longest, leftmost, non-overlapping

    @Test func longestFormWinsAtAPlace() {
        let forms = forms("static site", "static site generator", "static")
        #expect(
            found(forms, in: "A static site generator, a static site, static sites.") == [
                "static site generator=static site generator", "static site=static site", "static=static",
            ])
    }

    @Test func leftmostMatchWinsAndMatchesDoNotOverlap() {
        #expect(found(forms("a b", "b c", "c"), in: "a b c") == ["a b=a b", "c=c"])
        #expect(found(forms("b c", "a b c d"), in: "a b c e") == ["b c=b c"])
    }

    @Test func multiWordFormMatchesAcrossAnyWhiteSpace() {
        let text = "static  site, static\tsite, static\nsite, static\u{A0}site, static \n\u{2003} site, staticsite, static-site"
        #expect(
            found(forms("Static   Site"), in: text) == [
                "Static   Site=static  site", "Static   Site=static\tsite", "Static   Site=static\nsite",
                "Static   Site=static\u{A0}site", "Static   Site=static \n\u{2003} site",
            ])
    }

    @Test func formsAreTrimmedAndEmptyFormsIgnored() {
        let matcher = TermMatcher(forms: [Form("  cat\n", id: "cat"), Form(" \t", id: "blank"), Form("", id: "empty")])
        #expect(matcher.formCount == 1)
        #expect(render(matcher.matches(in: "a cat"), in: "a cat") == ["cat=cat"])
    }

    // MARK: Folding

    @Test func foldingFollowsTermKeyAndReportsOriginalRanges() {
        #expect(
            found(forms("strasse"), in: "Die Straße, die STRASSE, die Strasse") == [
                "strasse=Straße", "strasse=STRASSE", "strasse=Strasse",
            ])
        #expect(found(forms("Straße"), in: "Strasse") == ["Straße=Strasse"])
        #expect(found(forms("file"), in: "a ﬁle, a FILE") == ["file=ﬁle", "file=FILE"])
        #expect(found(forms("ﬁle"), in: "a file") == ["ﬁle=file"])
        // NFC and NFD spellings of café, both ways; the Kelvin sign folds to k.
        #expect(found(forms("caf\u{E9}"), in: "cafe\u{301} CAF\u{C9}") == ["caf\u{E9}=cafe\u{301}", "caf\u{E9}=CAF\u{C9}"])
        #expect(found(forms("cafe\u{301}"), in: "caf\u{E9}") == ["cafe\u{301}=caf\u{E9}"])
        #expect(found(forms("kilo"), in: "\u{212A}ILO") == ["kilo=\u{212A}ILO"])
        #expect(found(forms("cafe"), in: "café") == [])
    }

    @Test func combiningMarksInEitherOrderAreOneSpelling() {
        // a + dot below (class 220) + acute (230) is canonically equivalent to a + acute + dot below.
        #expect(
            found(forms("xa\u{323}\u{301}"), in: "xa\u{301}\u{323} x\u{E1}\u{323}") == [
                "xa\u{323}\u{301}=xa\u{301}\u{323}", "xa\u{323}\u{301}=x\u{E1}\u{323}",
            ])
    }

    @Test func rangesAreUTF8OffsetsAfterNonASCIIText() {
        let text = "Ünïcödé → ﬁne cat’s Straße"
        let matches = TermMatcher(forms: forms("cat", "strasse", "fine")).matches(in: text)
        let bytes = Array(text.utf8)
        #expect(matches.map { String(decoding: bytes[$0.range], as: UTF8.self) } == ["ﬁne", "cat", "Straße"])
        #expect(matches.map(\.range) == [16..<21, 22..<25, 30..<37])
    }

    @Test func malformedUTF8IsReadAsReplacementCharacters() {
        let bytes: [UInt8] = [0xFF, 0x63, 0x61, 0x74, 0x20, 0xC3, 0x28, 0xE2, 0x82, 0x63, 0x61, 0x74, 0xF0, 0x9F]
        let matcher = TermMatcher(forms: forms("cat"))
        let matches = bytes.withUnsafeBufferPointer { matcher.matches(inUTF8: $0) }
        // U+FFFD is not a word character, so both cats are whole words.
        #expect(matches.map(\.range) == [1..<4, 9..<12])
    }

    // MARK: Case-sensitive forms

    @Test func caseSensitiveFormMatchesOnlyItsExactSpelling() {
        let forms = [Form("API", id: "api", caseSensitive: true)]
        #expect(found(forms, in: "An API, an api, an Api, the API’s docs") == ["api=API", "api=API"])
    }

    @Test func caseSensitiveAndInsensitiveFormsOfOneSpellingCoexist() {
        let forms = [Form("go", id: "verb"), Form("Go", id: "language", caseSensitive: true), Form("GO", id: "board", caseSensitive: true)]
        #expect(found(forms, in: "Go is fun; go home; GO wins; gO") == ["language=Go", "verb=go", "board=GO", "verb=gO"])
    }

    @Test func caseSensitiveFormsStillFoldWhiteSpaceApostrophesAndNormalForm() {
        let forms = [Form("Café au Lait", id: "c", caseSensitive: true), Form("O'Neil", id: "o", caseSensitive: true)]
        #expect(found(forms, in: "Cafe\u{301}\n au\u{A0}Lait, café au lait, O’Neil, O'NEIL") == ["c=Cafe\u{301}\n au\u{A0}Lait", "o=O’Neil"])
    }

    @Test func longerCaseSensitiveFormThatDoesNotMatchExactlyLetsAShorterOneMatch() {
        let forms = [Form("Go", id: "go"), Form("Go Modules", id: "modules", caseSensitive: true)]
        #expect(found(forms, in: "go modules, Go Modules") == ["go=go", "modules=Go Modules"])
    }

    // MARK: Exclusions and first occurrences

    @Test func excludedTermLetsShorterFormsInsideItMatch() {
        let forms = forms("static site generator", "static site", "generator")
        let text = "a static site generator"
        #expect(found(forms, in: text, excluding: ["static site generator"]) == ["static site=static site", "generator=generator"])
        #expect(found(forms, in: text, excluding: ["static site generator", "static site"]) == ["generator=generator"])
        #expect(found(forms, in: text, excluding: ["static site"]) == ["static site generator=static site generator"])
    }

    @Test func excludedTermExcludesEveryFormOfIt() {
        let forms = [Form("cat", id: "cat"), Form("cats", id: "cat"), Form("kitty", id: "cat"), Form("dog", id: "dog")]
        #expect(found(forms, in: "cats, a cat, a kitty, a dog", excluding: ["cat"]) == ["dog=dog"])
    }

    @Test func linkingOnceReportsTheFirstOccurrenceOfEachTermWhicheverFormCameFirst() {
        let matcher = TermMatcher(forms: [
            Form("cat", id: "cat"), Form("cats", id: "cat"), Form("kitty", id: "cat"), Form("dog", id: "dog"),
        ])
        var linked: Set<String> = []
        let first = "Kitty and cats, a dog and a cat."
        #expect(render(matcher.matches(in: first, linkingOnce: &linked), in: first) == ["cat=Kitty", "dog=dog"])
        #expect(linked == ["cat", "dog"])
        #expect(matcher.matches(in: "a cat and a dog", linkingOnce: &linked) == [])
        var other: Set<String> = ["dog"]
        #expect(render(matcher.matches(in: "dog cat cat", linkingOnce: &other), in: "dog cat cat") == ["cat=cat"])
    }

    @Test func linkedTermStillTakesItsTextFromShorterForms() {
        let matcher = TermMatcher(forms: forms("static site generator", "static site"))
        var linked: Set<String> = []
        let text = "A static site generator is not a static site; another static site generator."
        #expect(
            render(matcher.matches(in: text, linkingOnce: &linked), in: text) == [
                "static site generator=static site generator", "static site=static site",
            ])
    }

    @Test func excludedTermsAreNeverLinkedOnce() {
        let matcher = TermMatcher(forms: forms("cat", "dog"))
        var linked: Set<String> = []
        #expect(render(matcher.matches(in: "cat dog dog", excluding: ["cat"], linkingOnce: &linked), in: "cat dog dog") == ["dog=dog"])
        #expect(linked == ["dog"])
    }

    @Test func sameSpellingForAnotherTermIsShadowedUntilTheFirstIsExcluded() {
        let forms = [Form("Index", id: "index"), Form("index", id: "other"), Form("INDEX", id: "index"), Form("index", id: "index")]
        let matcher = TermMatcher(forms: forms)
        #expect(matcher.shadowedForms == [Form("index", id: "other")])
        #expect(matcher.formCount == 2)
        #expect(render(matcher.matches(in: "an index"), in: "an index") == ["index=index"])
        #expect(render(matcher.matches(in: "an index", excluding: ["index"]), in: "an index") == ["other=index"])
    }

    @Test func matchesConcurrentlyFromManyTasks() async {
        // Scalars past U+07FF (ﬁ, Ꭰ, ẞ) go through the matcher's locked cache of foldings.
        let matcher = TermMatcher(forms: [.init("file", id: 1), .init("strasse", id: 2), .init("ꭰa", id: 3)])
        let texts = (0..<64).map { "\($0) ﬁle, STRA\u{1E9E}E, \u{13A0}a and file" }
        let expected = texts.map { matcher.matches(in: $0).map(\.id) }
        #expect(expected.allSatisfy { $0 == [1, 2, 3, 1] })
        let results = await withTaskGroup(of: (Int, [Int]).self) { group in
            for (index, text) in texts.enumerated() {
                group.addTask { (index, TermMatcher(forms: [.init("file", id: 1)]).matches(in: text).map(\.id) + matcher.matches(in: text).map(\.id)) }
            }
            var results = [[Int]](repeating: [], count: texts.count)
            for await (index, ids) in group { results[index] = ids }
            return results
        }
        #expect(results == expected.map { [1, 1] + $0 })
    }

    @Test func integerIdentifiersWork() {
        let matcher = TermMatcher(forms: [.init("alpha", id: 1), .init("beta", id: 2), .init("alphas", id: 1)])
        #expect(matcher.matches(in: "alphas and beta").map(\.id) == [1, 2])
    }

    @Test func documentedExampleGivesTheDocumentedRanges() {
        let matcher = TermMatcher(forms: [
            .init("static site generator", id: 1), .init("static site", id: 2), .init("API", id: 3, caseSensitive: true),
        ])
        var linked: Set<Int> = []
        let matches = matcher.matches(in: "An API for a static\nsite generator.", excluding: [], linkingOnce: &linked)
        #expect(matches == [.init(range: 3..<6, id: 3), .init(range: 13..<34, id: 1)])
    }
}

// MARK: Against a reference

extension TermMatcherTests {
    /// Random texts and forms from a small alphabet (ASCII and not, white space, punctuation, apostrophes, folding
    /// traps such as `ß`, `ﬁ`, `İ` and decomposed `é`): the automaton finds exactly what the reference finds.
    @Test(arguments: 0..<8)
    func automatonAgreesWithTheReference(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var matchesSeen = 0
        var linkedOnceSkipped = 0
        for round in 0..<50 {
            let asciiOnly = round % 3 == 0
            let letters = asciiOnly ? Alphabet.asciiLetters : Alphabet.letters
            let forms = (0..<random.next(in: 1...8)).map { _ in
                Form(Alphabet.form(letters, &random), id: "t\(random.next(in: 0...4))", caseSensitive: random.next(in: 0...9) < 3)
            }
            let text = Alphabet.text(letters, forms: forms.map(\.text), &random)
            let excluded: Set<String> = random.next(in: 0...3) == 0 ? ["t\(random.next(in: 0...4))"] : []
            let matcher = TermMatcher(forms: forms)
            let reference = ReferenceMatcher(forms: forms)
            let context = Comment(rawValue: "seed \(seed) round \(round): text \(text.debugDescription), forms \(forms), excluding \(excluded)")

            let every = matcher.matches(in: text, excluding: excluded)
            var none: Set<String>?
            #expect(every == reference.matches(in: text, excluding: excluded, linked: &none), context)

            var linked: Set<String> = random.next(in: 0...1) == 0 ? [] : ["t\(random.next(in: 0...4))"]
            var referenceLinked: Set<String>? = linked
            let once = matcher.matches(in: text, excluding: excluded, linkingOnce: &linked)
            #expect(once == reference.matches(in: text, excluding: excluded, linked: &referenceLinked), context)
            #expect(linked == referenceLinked, context)
            matchesSeen += every.count
            linkedOnceSkipped += every.count - once.count
        }
        // The alphabet is small enough that the comparison is about matches, not about agreeing on none.
        #expect(matchesSeen > 40)
        #expect(linkedOnceSkipped > 10)
    }
}

/// The obviously correct matcher: every span between two word boundaries compared with every form through `TermKey`
/// (or, for case-sensitive forms, through NFC with apostrophes and white space made plain).
private struct ReferenceMatcher {
    typealias Form = TermMatcher<String>.Form
    /// Case-sensitive forms first, then the others, each in the order given: the documented preference.
    let forms: [(form: Form, key: String?)]
    /// Spans' keys, folded and exact, computed once: Foundation's folding is what makes the reference slow.
    private let memo = Memo()

    private final class Memo {
        var keys: [String: (folded: String?, exact: String?)] = [:]
    }

    init(forms: [Form]) {
        let ordered = forms.filter(\.caseSensitive) + forms.filter { !$0.caseSensitive }
        self.forms = ordered.map { ($0, Self.key($0.text, caseSensitive: $0.caseSensitive)) }
    }

    static func key(_ text: String, caseSensitive: Bool) -> String? {
        guard caseSensitive else { return TermKey(text)?.rawValue }
        let plain = text.precomposedStringWithCanonicalMapping.replacingOccurrences(of: "\u{2019}", with: "'")
            .replacingOccurrences(of: "\u{2018}", with: "'")
        let words = plain.unicodeScalars.split(whereSeparator: \.properties.isWhitespace).map { String(String.UnicodeScalarView($0)) }
        return words.isEmpty ? nil : words.joined(separator: " ")
    }

    func matches(in text: String, excluding excluded: Set<String>, linked: inout Set<String>?) -> [TermMatcher<String>.Match] {
        let scalars = Array(text.unicodeScalars)
        var offsets = [0]
        for scalar in scalars { offsets.append(offsets.last! + String(scalar).utf8.count) }
        func isLetterMarkNumber(_ index: Int) -> Bool {
            guard scalars.indices.contains(index) else { return false }
            switch scalars[index].properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .nonspacingMark, .spacingMark,
                .enclosingMark, .decimalNumber, .letterNumber, .otherNumber, .connectorPunctuation:
                return true
            default:
                return false
            }
        }
        func isWord(_ index: Int) -> Bool {
            if isLetterMarkNumber(index) { return true }
            guard ["'", "\u{2019}", "\u{2018}"].contains(scalars[index]) else { return false }
            let possessive = index + 1 < scalars.count && (scalars[index + 1] == "s" || scalars[index + 1] == "S") && !isLetterMarkNumber(index + 2)
            return isLetterMarkNumber(index - 1) && isLetterMarkNumber(index + 1) && !possessive
        }
        func isBoundary(_ position: Int) -> Bool { position == 0 || position == scalars.count || !(isWord(position - 1) && isWord(position)) }
        func isSpace(_ index: Int) -> Bool { scalars[index].properties.isWhitespace }

        var found: [TermMatcher<String>.Match] = []
        var start = 0
        while start < scalars.count {
            var best: (end: Int, id: String)?
            if isBoundary(start) && !isSpace(start) {
                for end in (start + 1)...scalars.count where isBoundary(end) && !isSpace(end - 1) {
                    let span = String(String.UnicodeScalarView(scalars[start..<end]))
                    let (folded, exact) = memo.keys[span] ?? (Self.key(span, caseSensitive: false), Self.key(span, caseSensitive: true))
                    memo.keys[span] = (folded, exact)
                    let form = forms.first { candidate in
                        !excluded.contains(candidate.form.id) && candidate.key == (candidate.form.caseSensitive ? exact : folded)
                    }
                    if let form { best = (end, form.form.id) }
                }
            }
            guard let best else {
                start += 1
                continue
            }
            if linked?.contains(best.id) != true {
                found.append(.init(range: offsets[start]..<offsets[best.end], id: best.id))
                linked?.insert(best.id)
            }
            start = best.end
        }
        return found
    }
}

/// The pieces random texts and forms are made of.
private enum Alphabet {
    static let asciiLetters = ["a", "b", "s", "A", "B", "S", "c", "1", "_"]
    static let letters = asciiLetters + ["ß", "\u{E9}", "e\u{301}", "\u{C9}", "\u{FB01}", "f", "i", "I", "\u{130}", "\u{212A}", "k"]
    static let separators = [" ", " ", " ", "  ", "\t", "\n", "\u{A0}", ".", ",", "-", "'", "\u{2019}", "\u{2018}", "(", "é"]
    static let formJoins = [" ", " ", "-", "'", "\u{2019}"]

    static func word(_ letters: [String], _ random: inout SplitMix64) -> String {
        (0..<random.next(in: 1...3)).map { _ in letters[random.next(in: 0...(letters.count - 1))] }.joined()
    }

    static func form(_ letters: [String], _ random: inout SplitMix64) -> String {
        var form = word(letters, &random)
        for _ in 0..<random.next(in: 0...2) { form += formJoins[random.next(in: 0...(formJoins.count - 1))] + word(letters, &random) }
        return form
    }

    /// Words, separators and forms respelled (other case, other white space, other apostrophes, other normal form);
    /// a separator is ASCII when the letters are (no `é` among them).
    static func text(_ letters: [String], forms: [String], _ random: inout SplitMix64) -> String {
        let ascii = letters == asciiLetters
        let separators = ascii ? separators.filter { $0.unicodeScalars.allSatisfy(\.isASCII) } : separators
        var text = ""
        for _ in 0..<random.next(in: 0...14) {
            switch random.next(in: 0...5) {
            case 0: text += separators[random.next(in: 0...(separators.count - 1))]
            case 1, 2, 3: text += respelled(forms[random.next(in: 0...(forms.count - 1))], ascii: ascii, &random)
            default: text += word(letters, &random)
            }
            text += separators[random.next(in: 0...(separators.count - 1))]
        }
        return text
    }

    static func respelled(_ form: String, ascii: Bool, _ random: inout SplitMix64) -> String {
        let spaces = ascii ? [" ", "\t", "\n", " \n "] : [" ", "\t", "\n", "\u{A0}", " \n\u{2003}"]
        var text = ""
        for character in form {
            switch character {
            case " ": text += spaces[random.next(in: 0...(spaces.count - 1))]
            case "'", "\u{2019}": text += ascii ? "'" : ["'", "\u{2019}", "\u{2018}"][random.next(in: 0...2)]
            case "\u{E9}": text += ["\u{E9}", "e\u{301}", "\u{C9}", "E\u{301}"][random.next(in: 0...3)]
            case _ where character.isASCII && character.isLetter && random.next(in: 0...2) == 0:
                text += character.isUppercase ? character.lowercased() : character.uppercased()
            default: text.append(character)
            }
        }
        return text
    }
}

/// A small seeded generator, so a failure names the seed that reproduces it.
private struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 &+ 1 }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }

    mutating func next(in range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
}
