import Testing

@testable import GlossaryKit

@Suite struct TermKeyTests {
    @Test(arguments: [
        ("Keyboard", "keyboard"), ("  KEY   board\n", "key board"), ("Don\u{2019}t", "don't"),
        ("cafe\u{301}", "café"), ("Straße", "strasse"),
    ])
    func normalises(_ input: String, _ key: String) {
        #expect(TermKey(input)?.rawValue == key)
    }

    @Test func blankIsNoKey() {
        #expect(TermKey("  \n ") == nil)
    }

    @Test func nfcAndNfdSpellingsShareAKeyAndSlug() throws {
        let composed = try #require(TermKey("caf\u{e9}"))
        let decomposed = try #require(TermKey("cafe\u{301}"))
        #expect(composed == decomposed)
        #expect(composed.slug == decomposed.slug)
    }

    @Test(arguments: [
        ("keyboard", "keyboard"), ("ice cream", "ice_cream"), ("x-height", "x-height"), ("3d", "3d"), ("x ray  tube", "x_ray_tube"),
    ])
    func plainKeysKeepTheirSpelling(_ word: String, _ slug: String) throws {
        #expect(try #require(TermKey(word)).slug == slug)
    }

    @Test func otherKeysGetAnASCIIBaseAndAHash() throws {
        let slug = try #require(TermKey("café")).slug
        #expect(slug.hasPrefix("cafe-") && slug.count == "cafe-".count + 8)
        let apostrophe = try #require(TermKey("don't")).slug
        #expect(apostrophe.hasPrefix("don-t-"))
        let greek = try #require(TermKey("λόγος")).slug
        #expect(greek.hasPrefix("logos-"))
        // Plain letters, but a leading hyphen (a slug that reads as a command-line option) or too long.
        #expect(try #require(TermKey("-flag")).slug.hasPrefix("flag-"))
        #expect(try #require(TermKey(String(repeating: "a", count: 81))).slug.count == 71 + 1 + 8)
    }

    @Test(arguments: ["../etc/passwd", "a/b", "..", "\u{0}x", String(repeating: "long", count: 100), "東京", "🙂", "ice_cream"])
    func slugsAreSafe(_ word: String) throws {
        let slug = try #require(TermKey(word)).slug
        #expect(!slug.contains("/") && !slug.contains("..") && !slug.isEmpty && slug.utf8.count <= 80)
        #expect(slug.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "-" || $0 == "_") })
    }

    @Test func slugsDontCollide() throws {
        let words = ["ice cream", "ice-cream", "ice_cream", "café", "cafe", "Café!", "cafe'", "naïve", "naive"]
        let slugs = try words.map { try #require(TermKey($0)).slug }
        #expect(Set(slugs).count == Set(words.compactMap { TermKey($0) }).count)
    }

    /// The ASCII shortcut gives what Foundation's folding gives, for every printable ASCII character and runs of
    /// white space between words; other control characters (which Foundation's folding drops) take the slow path.
    @Test func theASCIIShortcutFoldsAsFoundationDoes() {
        func slow(_ text: String) -> String {
            text.precomposedStringWithCanonicalMapping.folding(options: [.caseInsensitive], locale: nil)
                .split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        }
        var texts = ([0x09, 0x0A, 0x0B, 0x0C, 0x0D] + Array(0x20...0x7E)).map { String(UnicodeScalar(UInt8($0))) }
        texts += ["Ice  Cream", " \tTRAILING \n", "a\u{0B}b\u{0C}c", "Don't", "MiXeD-Case_123", "a\r\nb"]
        for text in texts {
            #expect(TermKey.asciiKey(text) == slow(text), "\(text.debugDescription)")
        }
        for control in [0x00, 0x01, 0x0E, 0x1B, 0x1F, 0x7F] {
            let text = "a" + String(UnicodeScalar(UInt8(control))) + "b"
            #expect(TermKey.asciiKey(text) == nil, "\(text.debugDescription) is left to Foundation")
            #expect(TermKey(text)?.rawValue == TermKey(slow(text))?.rawValue)
        }
    }
}
