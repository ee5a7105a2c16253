import Foundation

/// Splits text into the terms the site search indexes, exactly as the browser's engine (`search-engine.js`) makes
/// them of a query with lunr 2.3.9's tokenizer, its own trimmer and `lunr.stopWordFilter`; no stemmer, on either
/// side. Terms the browser makes of a query then meet the same terms the build made of the pages.
///
/// lunr works on JavaScript strings: it lowercases, splits at every character JavaScript's `\s` matches and at
/// `-`. The term is then trimmed at both ends to a word character (`isWordScalar`: a letter, mark or digit of any
/// script, or `_`; `lunr.trimmer` keeps ASCII's only, which leaves nothing of `Жук` or `日本`). Terms that trim to
/// nothing are left out. Before lunr's steps, both sides fold accents away (`folded`, `fold` in `search.js`), so
/// `cafe` finds `café`.
public enum SearchTokenizer {
    /// The terms of `text`, in order, repeats kept.
    ///
    /// Works on UTF-8 bytes: every separator is a whole character, and trimming steps a whole character at a time.
    public static func terms(_ text: String) -> [String] {
        var terms: [String] = []
        forEachTerm(text) { term, _ in terms.append(String(decoding: term, as: UTF8.self)) }
        return terms
    }

    /// Calls `body` with the UTF-8 bytes of each of `text`'s terms, in order, and their `TermIDs.hash` (`terms(_:)`
    /// without making a string of each; the bytes are valid only during the call).
    static func forEachTerm(_ text: String, _ body: (UnsafeBufferPointer<UInt8>, UInt64) -> Void) {
        let stopWords = stopWordTable
        var lowered = folded(text.lowercased())
        byteClasses.withUnsafeBufferPointer { classes in
            lowered.withUTF8 { bytes in
                var start = 0
                var index = 0
                func flush(_ end: Int) {
                    var first = start
                    var last = end
                    // Trimmed a character at a time, to a word character at both ends (an ASCII one told by the table).
                    while first < last, classes[Int(bytes[first])] & ByteClass.word == 0 {
                        if bytes[first] >= 0x80, isWordScalar(scalar(bytes, at: first)) { break }
                        first += bytes[first] < 0x80 ? 1 : scalarLength(bytes[first])
                    }
                    while last > first, classes[Int(bytes[last - 1])] & ByteClass.word == 0 {
                        var lead = last - 1
                        while lead > first, bytes[lead] & 0xC0 == 0x80 { lead -= 1 }
                        if bytes[lead] >= 0x80, isWordScalar(scalar(bytes, at: lead)) { break }
                        last = lead
                    }
                    guard first < last else { return }
                    let term = UnsafeBufferPointer(rebasing: bytes[first..<last])
                    let hash = TermIDs.hash(term)
                    if !stopWords.contains(bytes: term, hash: hash) { body(term, hash) }
                }
                while index < bytes.count {
                    let byteClass = classes[Int(bytes[index])]
                    // Most bytes start no separator: one look at the table.
                    if byteClass & (ByteClass.separator | ByteClass.mayStartSeparator) == 0 {
                        index += 1
                        continue
                    }
                    let length = byteClass & ByteClass.separator != 0 ? 1 : separatorLength(bytes, at: index)
                    if length > 0 {
                        flush(index)
                        index += length
                        start = index
                    } else {
                        index += 1
                    }
                }
                flush(bytes.count)
            }
        }
    }

    /// `text` without accents: canonically decomposed (NFD), its nonspacing marks (`Mn`) dropped, composed again
    /// (NFC), as `search.js` folds a query (`normalize("NFD")`, `/\p{Mn}/gu`, `normalize("NFC")`). Canonical
    /// mappings are Unicode's own, whatever the locale; `ß` is no letter with a mark, so it stays.
    static func folded(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 >= 0x80 }) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars where scalar.properties.generalCategory != .nonspacingMark {
            scalars.append(scalar)
        }
        return String(scalars).precomposedStringWithCanonicalMapping
    }

    /// What the tokenizer's loop needs to know of a byte, as bits (`byteClasses`).
    private enum ByteClass {
        /// `isWordByte`.
        static let word: UInt8 = 1
        /// A separator of one byte.
        static let separator: UInt8 = 2
        /// Not ASCII: perhaps the first byte of a separator of several (`separatorLength` tells).
        static let mayStartSeparator: UInt8 = 4
    }

    /// Every byte's `ByteClass` bits, by value.
    private static let byteClasses: [UInt8] = (0...255).map { value in
        let byte = UInt8(value)
        var bits: UInt8 = 0
        if isWordByte(byte) { bits |= ByteClass.word }
        if byte >= 0x80 {
            bits |= ByteClass.mayStartSeparator
        } else if [byte].withUnsafeBufferPointer({ separatorLength($0, at: 0) }) == 1 {
            bits |= ByteClass.separator
        }
        return bits
    }

    /// Whether a term may begin or end with `scalar`: a letter, mark or digit (General_Category L, M or N, as
    /// `\p{L}\p{M}\p{N}` in `search-engine.js`'s `trim`), or `_`.
    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .nonspacingMark, .spacingMark, .enclosingMark,
            .decimalNumber, .letterNumber, .otherNumber:
            true
        default: scalar == "_"
        }
    }

    /// The length of the UTF-8 sequence `lead` begins.
    private static func scalarLength(_ lead: UInt8) -> Int { lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1 }

    /// The scalar whose UTF-8 sequence begins at `index` of `bytes` (valid UTF-8: a string's).
    private static func scalar(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Unicode.Scalar {
        let length = scalarLength(bytes[index])
        var value = UInt32(bytes[index]) & (length == 1 ? 0x7F : 0x7F >> length)
        for offset in 1..<length where index + offset < bytes.count { value = value << 6 | UInt32(bytes[index + offset] & 0x3F) }
        return Unicode.Scalar(value) ?? "\u{FFFD}"
    }

    /// JavaScript's `\w`: ASCII letters, digits and `_` (the word characters of ASCII).
    static func isWordByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F
    }

    /// The length in bytes of the separator at `index` (0 for none): `lunr.tokenizer.separator`, `/[\s\-]+/`, for
    /// one character, that is JavaScript's white space and line terminators (U+0009–U+000D, U+0020, U+00A0,
    /// U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF) and the hyphen-minus.
    static func separatorLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let byte = bytes[index]
        if byte < 0x80 { return (0x09...0x0D).contains(byte) || byte == 0x20 || byte == 0x2D ? 1 : 0 }
        func at(_ offset: Int) -> UInt8 { index + offset < bytes.count ? bytes[index + offset] : 0 }
        switch byte {
        case 0xC2: return at(1) == 0xA0 ? 2 : 0
        case 0xE1: return at(1) == 0x9A && at(2) == 0x80 ? 3 : 0
        case 0xE2:
            if at(1) == 0x80 {
                let third = at(2)
                return (0x80...0x8A).contains(third) || third == 0xA8 || third == 0xA9 || third == 0xAF ? 3 : 0
            }
            return at(1) == 0x81 && at(2) == 0x9F ? 3 : 0
        case 0xE3: return at(1) == 0x80 && at(2) == 0x80 ? 3 : 0
        case 0xEF: return at(1) == 0xBB && at(2) == 0xBF ? 3 : 0
        default: return 0
        }
    }

    /// `stopWords`, looked up by bytes.
    static let stopWordTable = TermIDs(Array(stopWords), sparseness: 4)

    /// `lunr.stopWordFilter`'s English list.
    static let stopWords: Set<String> = [
        "a", "able", "about", "across", "after", "all", "almost", "also", "am", "among", "an", "and", "any", "are", "as", "at",
        "be", "because", "been", "but", "by", "can", "cannot", "could", "dear", "did", "do", "does", "either", "else", "ever",
        "every", "for", "from", "get", "got", "had", "has", "have", "he", "her", "hers", "him", "his", "how", "however", "i",
        "if", "in", "into", "is", "it", "its", "just", "least", "let", "like", "likely", "may", "me", "might", "most", "must",
        "my", "neither", "no", "nor", "not", "of", "off", "often", "on", "only", "or", "other", "our", "own", "rather", "said",
        "say", "says", "she", "should", "since", "so", "some", "than", "that", "the", "their", "them", "then", "there", "these",
        "they", "this", "tis", "to", "too", "twas", "us", "wants", "was", "we", "were", "what", "when", "where", "which",
        "while", "who", "whom", "why", "will", "with", "would", "yet", "you", "your",
    ]
}
