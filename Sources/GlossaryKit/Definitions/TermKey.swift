import Foundation

/// The identity of a term: Unicode NFC, case-folded, typographic apostrophes made plain, whitespace collapsed.
///
/// `Keyboard`, `keyboard` and `KEYBOARD` (and the NFC and NFD spellings of `café`) share one key, so a word is
/// resolved, fetched and cached once whatever its spelling on the pages.
///
/// On a site in several languages a key also names its language, so each language's terms are its own: `fr` for a
/// French page's `[[serveur]]`, empty for the default language (every key made from a word alone).
public struct TermKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: String
    /// A URL- and file-safe name for the key (see `makeSlug`), computed once: it is asked for per reference.
    public let slug: String
    /// The language whose term this is: a code, or empty for the site's default language.
    public private(set) var language = ""

    /// The same word as a term of `language` (empty for the default one).
    public func inLanguage(_ language: String) -> TermKey {
        var key = self
        key.language = language
        return key
    }

    /// The most Unicode scalars a term may have: a reference beyond it is an error and never looked up (a URL of
    /// 100 KB for a runaway `[[`).
    public static let maximumWordLength = 200

    /// The length of `word` in scalars when it is longer than `maximumWordLength`, else nil.
    public static func excessLength(of word: String) -> Int? {
        guard word.utf8.count > maximumWordLength else { return nil }
        let length = word.unicodeScalars.count
        return length > maximumWordLength ? length : nil
    }

    public init?(_ text: String) {
        // Plain ASCII (nearly every key) folds to its lowercase: no need for Foundation's Unicode folding, which
        // costs tens of microseconds a call and is asked for per reference.
        if let ascii = Self.asciiKey(text) {
            guard !ascii.isEmpty else { return nil }
            rawValue = ascii
            slug = Self.makeSlug(ascii)
            return
        }
        let folded = text.precomposedStringWithCanonicalMapping
            .folding(options: [.caseInsensitive], locale: nil)
            .replacingOccurrences(of: "\u{2019}", with: "'")
            .replacingOccurrences(of: "\u{2018}", with: "'")
        let words = folded.split(whereSeparator: { $0.isWhitespace })
        guard !words.isEmpty else { return nil }
        // Folding can decompose (e.g. 'ß' → 'ss' stays composed, but some letters don't); re-compose.
        rawValue = words.joined(separator: " ").precomposedStringWithCanonicalMapping
        slug = Self.makeSlug(rawValue)
    }

    /// The key of an all-ASCII text: lowercased, runs of white space made one space, trimmed; nil when the text
    /// has anything else.
    static func asciiKey(_ text: String) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for byte in text.utf8 {
            switch byte {
            case 0x09...0x0D, 0x20:
                pendingSpace = !bytes.isEmpty
            case 0x41...0x5A:
                if pendingSpace { bytes.append(0x20) }
                pendingSpace = false
                bytes.append(byte | 0x20)
            case 0x21...0x7E:
                if pendingSpace { bytes.append(0x20) }
                pendingSpace = false
                bytes.append(byte)
            default:
                return nil
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A key known to be in canonical form with its slug (read back from the build manifest, which stores both):
    /// no folding again.
    init(canonical rawValue: String, slug: String) {
        self.rawValue = rawValue
        self.slug = slug
    }

    public static func == (lhs: TermKey, rhs: TermKey) -> Bool { lhs.rawValue == rhs.rawValue && lhs.language == rhs.language }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(rawValue)
        hasher.combine(language)
    }

    public var description: String { rawValue }

    /// By language (the default's first), then by word.
    public static func < (lhs: TermKey, rhs: TermKey) -> Bool {
        lhs.language == rhs.language ? lhs.rawValue < rhs.rawValue : lhs.language < rhs.language
    }

    /// A URL- and file-safe name for the key, a pure function of it and collision-free by construction.
    ///
    /// Keys made only of `a-z`, `0-9`, `-` and spaces keep their spelling (spaces become `_`: `ice cream` →
    /// `ice_cream`). Any other key gets an ASCII rendering plus a hash of the key (`café` → `cafe-1f3c7a2b`),
    /// so two keys never share a slug: plain slugs contain no hash suffix pattern with letters outside the
    /// plain alphabet, and hashed slugs contain no `_`. Length is bounded; no `/`, `.`, or control characters.
    private static func makeSlug(_ rawValue: String) -> String {
        let maximumLength = 80
        // Most keys are plain: their slug is made byte by byte, with no Foundation (slow on Linux) and no
        // Unicode (the check by bytes is the check by scalars, every plain character being one byte).
        var spaces = 0
        let isPlain = rawValue.utf8.allSatisfy { byte in
            if byte == UInt8(ascii: " ") { spaces += 1 }
            return (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: " ")
        }
        if isPlain && rawValue.utf8.count <= maximumLength && rawValue.utf8.first != UInt8(ascii: "-") {
            guard spaces > 0 else { return rawValue }
            return String(decoding: rawValue.utf8.map { $0 == UInt8(ascii: " ") ? UInt8(ascii: "_") : $0 }, as: UTF8.self)
        }
        return "\(asciiBase(rawValue, maximumLength: maximumLength - 9))-\(hashSuffix(rawValue))"
    }

    private static func asciiBase(_ rawValue: String, maximumLength: Int) -> String {
        let stripped =
            rawValue.applyingTransform(.toLatin, reverse: false)?
            .applyingTransform(.stripDiacritics, reverse: false) ?? rawValue
        var base = ""
        var pendingHyphen = false
        for scalar in stripped.lowercased().unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                if pendingHyphen && !base.isEmpty { base.append("-") }
                pendingHyphen = false
                base.unicodeScalars.append(scalar)
                if base.utf8.count >= maximumLength { break }
            } else {
                pendingHyphen = true
            }
        }
        return base.isEmpty ? "term" : base
    }

    /// FNV-1a over the key's UTF-8: stable across runs and platforms, unlike `hashValue`.
    private static func hashSuffix(_ rawValue: String) -> String {
        var hash: UInt32 = 0x811C_9DC5
        for byte in rawValue.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 0x0100_0193
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}
