import Foundation

/// How the A–Z index of the terms published under one folder (`terms/`) is split into pages.
///
/// While there are at most `limit` terms one page at `<folder>index.html` lists them all, and `pages` is empty. A bigger
/// glossary gets an overview there (every letter and where its pages start, no terms) and, per letter, pages of at
/// most `limit` entries at `<folder>_/<letter>/`, `<folder>_/<letter>/2/`, … (`#` is `other`). Term pages are
/// `<folder><slug>/` and a slug never starts with `_`, so no term takes a letter page's path.
public struct TermIndexPages: Sendable {
    public struct Page: Sendable, Equatable {
        /// Below the site root, ending in `/` (`terms/_/a/2/`).
        public var urlPath: String
        /// The index letter of its entries (`A`, or `#` for digits and symbols).
        public var letter: String
        /// 1 for the letter's first page.
        public var number: Int
        /// Its entries, a range of `sorted`.
        public var entries: Range<Int>
    }

    /// Where the index is published, below the site root, ending in `/` (`terms/`, `fr/terms/`).
    public var folder: String
    /// Every letter page in order; empty when one page lists every term.
    public var pages: [Page]
    /// How many terms the index lists.
    public var count: Int
    /// The terms in order and each page's jump-bar prefix: made when first asked for, by rendering (the pages' paths
    /// need only each letter's count).
    private let order: Shared<(sorted: [TermDefinition], prefixes: [String])>

    public init(_ definitions: [TermDefinition], folder: String, limit: Int) {
        self.folder = folder
        count = definitions.count
        var byLetter: [String: [TermDefinition]] = [:]
        for definition in definitions { byLetter[Self.letter(definition.word), default: []].append(definition) }
        let letters = Self.letterOrder(byLetter.keys)
        var pages: [Page] = []
        if definitions.count > limit {
            var start = 0
            for letter in letters {
                let end = start + byLetter[letter]!.count
                for (offset, pageStart) in stride(from: start, to: end, by: limit).enumerated() {
                    let number = offset + 1
                    let urlPath = folder + "_/" + Self.pathName(letter) + "/" + (number == 1 ? "" : "\(number)/")
                    pages.append(Page(urlPath: urlPath, letter: letter, number: number, entries: pageStart..<min(pageStart + limit, end)))
                }
                start = end
            }
        }
        self.pages = pages
        order = Shared { [pages, byLetter] in
            let sorted = letters.flatMap { Self.wordOrder(byLetter[$0]!) }
            return (sorted, Self.prefixes(of: pages, sorted: sorted))
        }
    }

    /// The terms in the index's order: by letter (A–Z, then `#`), within one by word, a word's senses in order.
    public var sorted: [TermDefinition] { order.value.sorted }

    /// What the letter's jump bar shows for `pages[page]`: the start of its first entry's word, folded, as long as it
    /// takes to differ from where the letter's previous page starts and at least two characters (`ab`).
    public func prefix(ofPage page: Int) -> String { order.value.prefixes[page] }

    private static func prefixes(of pages: [Page], sorted: [TermDefinition]) -> [String] {
        var prefixes: [String] = []
        for (index, page) in pages.enumerated() {
            let first = Array(folded(sorted[page.entries.lowerBound].word))
            var length = min(2, first.count)
            if page.number > 1 {
                let before = Array(folded(sorted[pages[index - 1].entries.lowerBound].word))
                while length < first.count && before.starts(with: first[..<length]) { length += 1 }
            }
            prefixes.append(String(first[..<length]))
        }
        return prefixes
    }

    /// Whether the index is more than one page.
    public var isPaged: Bool { !pages.isEmpty }

    /// The path of the index's entry point: the single page, or the overview.
    public var indexPath: String { folder + "index.html" }

    /// The letters that have terms, each with its pages (by their places in `pages`), in order.
    public var letters: [(letter: String, pages: [Int])] {
        var letters: [(letter: String, pages: [Int])] = []
        for (index, page) in pages.enumerated() {
            if letters.last?.letter == page.letter { letters[letters.count - 1].pages.append(index) } else { letters.append((page.letter, [index])) }
        }
        return letters
    }

    /// A word's senses stand together under it, in order of sense.
    static func wordOrder(_ definitions: [TermDefinition]) -> [TermDefinition] {
        definitions.sorted {
            switch $0.word.localizedStandardCompare($1.word) {
            case .orderedAscending: true
            case .orderedDescending: false
            case .orderedSame: ($0.sense ?? "") < ($1.sense ?? "")
            }
        }
    }

    /// A–Z, then `#`.
    static func letterOrder(_ letters: some Sequence<String>) -> [String] {
        letters.sorted { ($0 == "#" ? 1 : 0, $0) < ($1 == "#" ? 1 : 0, $1) }
    }

    /// `Éclair` files under E; digits and symbols under `#`.
    public static func letter(_ word: String) -> String {
        // A word that starts with an ASCII letter files under it, whatever follows (folding is slow on Linux).
        if let first = word.utf8.first, first < 0x80, word.utf8.dropFirst().first.map({ $0 < 0x80 }) ?? true {
            let upper = first & 0xDF
            return (0x41...0x5A).contains(upper) ? String(UnicodeScalar(upper)) : "#"
        }
        let folded = word.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).uppercased()
        guard let first = folded.unicodeScalars.first, ("A"..."Z").contains(first) else { return "#" }
        return String(first)
    }

    /// A letter's name in paths and ids: `a`, and `other` for `#`.
    public static func pathName(_ letter: String) -> String { letter == "#" ? "other" : letter.lowercased() }

    private static func folded(_ word: String) -> String {
        word.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased()
    }
}
