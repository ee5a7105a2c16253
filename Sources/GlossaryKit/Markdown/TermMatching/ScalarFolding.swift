import Foundation
import Synchronization

/// What one Unicode scalar of a text becomes for term matching: its class, its case-folded and its exact spelling.
///
/// Both spellings are canonical decompositions (NFD), so a precomposed `é` in the text meets a decomposed one in a
/// form; the case-folded one uses Foundation's `.caseInsensitive` folding like `TermKey` (`ß` → `ss`, `ﬁ` → `fi`).
/// Typographic apostrophes (’ ‘) are spelled `'`, and any white space ` `, as in `TermKey`.
struct ScalarFolding: Sendable {
    enum Kind: UInt8, Sendable {
        /// A letter, mark, number or connector punctuation (`_`): words are runs of these.
        case word
        /// Unicode White_Space: a run of it matches one space of a form.
        case space
        /// `'`, `’` or `‘`: inside a word unless it starts a possessive `'s` (see `FoldedText`).
        case apostrophe
        case other
    }

    /// A spelling as the scalars it is made of, each with its canonical combining class (0 for a starter).
    struct Spelling: Sendable {
        let scalars: [Unicode.Scalar]
        let combiningClasses: [UInt8]

        init(_ scalars: [Unicode.Scalar]) {
            self.scalars = scalars
            combiningClasses = scalars.map { $0.properties.canonicalCombiningClass.rawValue }
        }
    }

    let kind: Kind
    let folded: Spelling
    let exact: Spelling

    init(_ scalar: Unicode.Scalar) {
        kind = Self.kind(of: scalar)
        switch kind {
        case .space:
            (folded, exact) = (Spelling([" "]), Spelling([" "]))
        case .apostrophe:
            (folded, exact) = (Spelling(["'"]), Spelling(["'"]))
        case .word, .other:
            let decomposed = String(scalar).decomposedStringWithCanonicalMapping
            exact = Spelling(Array(decomposed.unicodeScalars))
            folded = Spelling(
                decomposed.folding(options: [.caseInsensitive], locale: nil).decomposedStringWithCanonicalMapping
                    .unicodeScalars.map { $0 == "\u{2019}" || $0 == "\u{2018}" ? "'" : $0 })
        }
    }

    static func kind(of scalar: Unicode.Scalar) -> Kind {
        if scalar.isASCII {
            let byte = UInt8(scalar.value)
            if byte == UInt8(ascii: "'") { return .apostrophe }
            return ASCIIUnits.isWord(byte) ? .word : ASCIIUnits.isSpace(byte) ? .space : .other
        }
        if scalar == "\u{2019}" || scalar == "\u{2018}" { return .apostrophe }
        if scalar.properties.isWhitespace { return .space }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .nonspacingMark, .spacingMark,
            .enclosingMark, .decimalNumber, .letterNumber, .otherNumber, .connectorPunctuation:
            return .word
        default:
            return .other
        }
    }

    /// The foldings of non-ASCII scalars, computed on first use: Foundation's folding costs about 1.5 µs a scalar.
    final class Cache: Sendable {
        /// U+0080 to U+07FF (two UTF-8 bytes: Latin, Greek, Cyrillic, Hebrew, Arabic…): a table read without a lock.
        private static let twoByteScalars: [ScalarFolding] = (0x80..<0x800).map { ScalarFolding(Unicode.Scalar($0)!) }
        private let others = Mutex<[UInt32: ScalarFolding]>([:])

        subscript(scalar: Unicode.Scalar) -> ScalarFolding {
            if scalar.value < 0x800 {
                return scalar.value < 0x80 ? ScalarFolding(scalar) : Self.twoByteScalars[Int(scalar.value) - 0x80]
            }
            if let known = others.withLock({ $0[scalar.value] }) { return known }
            let folding = ScalarFolding(scalar)
            others.withLock { $0[scalar.value] = folding }
            return folding
        }
    }
}
