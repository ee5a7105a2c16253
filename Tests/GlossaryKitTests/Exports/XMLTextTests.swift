import TestSupport
import Testing

@testable import GlossaryKit

/// Text escaped for the XML files glossary writes: well-formed whatever the text, and text with nothing to escape
/// returned as it is.
@Suite struct XMLTextTests {
    @Test func markupQuotesAndCharactersXMLCantHoldAreEscaped() {
        #expect(XMLText.escaped("a < b & \"c\" > d") == "a &lt; b &amp; &quot;c&quot; &gt; d")
        #expect(XMLText.escaped("line\none\tcr\r") == "line\none\tcr&#13;")
        #expect(XMLText.escaped("line\none\tcr\r", attribute: true) == "line&#10;one&#9;cr&#13;")
        #expect(XMLText.escaped("\u{1}\u{FFFE}\u{FFFF}\u{FFFD}\u{EFFF}") == "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{EFFF}")
        #expect(XMLText.escaped("plain words, é 日本 😀") == "plain words, é 日本 😀")
    }

    /// The look on bytes says a text needs escaping exactly when escaping it scalar by scalar changes it.
    @Test func theLookOnBytesAgreesWithEscapingScalarByScalar() {
        let pieces = [
            "a", " ", "&", "<", ">", "\"", "'", "\t", "\n", "\r", "\u{0}", "\u{1F}", "\u{7F}", "\u{FFFD}", "\u{FFFE}", "\u{FFFF}", "\u{EFBF}", "é", "😀",
        ]
        var random = SeededRandom(seed: 0x3d1)
        for _ in 0..<3000 {
            let text = (0..<random.next(6)).map { _ in pieces[random.next(pieces.count)] }.joined()
            for attribute in [false, true] {
                let escaped = XMLText.escaped(text, attribute: attribute)
                #expect(XMLText.needsEscape(text, attribute: attribute) == (escaped != text), "\(text.debugDescription), attribute \(attribute)")
            }
        }
    }
}
