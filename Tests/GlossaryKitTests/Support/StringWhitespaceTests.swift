import Foundation
import TestSupport
import Testing

@testable import GlossaryKit

/// The fast white-space helpers agree with Foundation's `.whitespacesAndNewlines` on every string.
@Suite struct StringWhitespaceTests {
    static let pieces = [
        "", " ", "\t", "\n", "\r\n", "\u{0B}", "\u{00A0}", "\u{2003}", "\u{3000}", "\u{1F}", "\u{7F}", "\u{85}", "a", "Z", "é", "ß", "日本",
        "http", "HTTPS://", "://", "-", "\u{200B}",
    ]

    @Test func trimmingAndBlanknessMatchFoundation() {
        var random = SeededRandom(seed: 7)
        for _ in 0..<5000 {
            let text = (0..<Int(random.next() % 5)).map { _ in Self.pieces[Int(random.next() % UInt64(Self.pieces.count))] }.joined()
            let expected = text.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(text.trimmingWhitespace == expected, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(text.isBlank == expected.isEmpty, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test func webURLsAreHTTPOnlyWhateverTheCase() {
        #expect(" https://example.org/a \n".webURL == "https://example.org/a")
        #expect("HTTP://EXAMPLE.ORG".webURL == "HTTP://EXAMPLE.ORG")
        #expect("HtTpS://x".webURL == "HtTpS://x")
        #expect("javascript:alert(1)".webURL == nil)
        #expect("http\u{1A}//x".webURL == nil, "a control character is not a colon")
        #expect("ftp://x".webURL == nil)
        #expect("//example.org".webURL == nil)
        #expect("".webURL == nil)
        #expect("   ".nonEmpty == nil)
        #expect("\u{00A0}".nonEmpty == nil)
        #expect(" a ".nonEmpty == " a ")
    }
}
