/// Splits text into the terms the site search indexes, exactly as lunr 2.3.9 (the engine the browser searches
/// with, `lunr.min.js`) does with its tokenizer, `lunr.trimmer` and `lunr.stopWordFilter`; no stemmer, on
/// either side. Terms the browser makes of a query then meet the same terms the build made of the pages.
///
/// lunr works on JavaScript strings: it lowercases, splits at every character JavaScript's `\s` matches and at
/// `-`, and trims non-word characters (anything but ASCII letters, digits and `_`, as UTF-16 units) from both
/// ends. Terms that trim to nothing are left out here (lunr would index an empty term).
public enum SearchTokenizer {
    /// The terms of `text`, in order, repeats kept.
    public static func terms(_ text: String) -> [String] {
        var terms: [String] = []
        var current: [UInt16] = []
        func flush() {
            if let term = trimmed(current), !stopWords.contains(term) { terms.append(term) }
            current.removeAll(keepingCapacity: true)
        }
        for unit in text.lowercased().utf16 {
            if isSeparator(unit) { flush() } else { current.append(unit) }
        }
        flush()
        return terms
    }

    /// The units between the first and the last word unit, as a string; nil when there is none.
    static func trimmed(_ units: [UInt16]) -> String? {
        guard let first = units.firstIndex(where: isWordUnit), let last = units.lastIndex(where: isWordUnit) else { return nil }
        return String(decoding: units[first...last], as: UTF16.self)
    }

    /// JavaScript's `\w`: ASCII letters, digits and `_`.
    static func isWordUnit(_ unit: UInt16) -> Bool {
        (0x30...0x39).contains(unit) || (0x41...0x5A).contains(unit) || (0x61...0x7A).contains(unit) || unit == 0x5F
    }

    /// `lunr.tokenizer.separator`, `/[\s\-]+/`, for one UTF-16 unit: JavaScript's white space and line
    /// terminators, and the hyphen-minus.
    static func isSeparator(_ unit: UInt16) -> Bool {
        switch unit {
        case 0x09...0x0D, 0x20, 0x2D, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: true
        default: false
        }
    }

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
