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
        /// What the letter's jump bar shows for it: the start of its first entry's word, folded, as long as it takes to
        /// differ from where the letter's previous page starts and at least two characters (`ab`).
        public var prefix: String
    }

    /// Where the index is published, below the site root, ending in `/` (`terms/`, `fr/terms/`).
    public var folder: String
    /// The terms in the index's order: by letter (A–Z, then `#`), within one by word, a word's senses in order.
    public var sorted: [TermDefinition]
    /// Every letter page in order; empty when one page lists every term.
    public var pages: [Page]

    public init(_ definitions: [TermDefinition], folder: String, limit: Int) {
        self.folder = folder
        // Each word's letter is found once (folding is slow on Linux).
        var byLetter: [String: [TermDefinition]] = [:]
        for definition in Self.wordOrder(definitions) { byLetter[Self.letter(definition.word), default: []].append(definition) }
        let letters = Self.letterOrder(byLetter.keys)
        sorted = letters.flatMap { byLetter[$0]! }
        pages = []
        guard definitions.count > limit else { return }
        var start = 0
        for letter in letters {
            let end = start + byLetter[letter]!.count
            var number = 0
            for pageStart in stride(from: start, to: end, by: limit) {
                number += 1
                let first = Array(Self.folded(sorted[pageStart].word))
                var length = min(2, first.count)
                if number > 1 {
                    let before = Array(Self.folded(sorted[pages[pages.count - 1].entries.lowerBound].word))
                    while length < first.count && before.starts(with: first[..<length]) { length += 1 }
                }
                let urlPath = folder + "_/" + Self.pathName(letter) + "/" + (number == 1 ? "" : "\(number)/")
                pages.append(
                    Page(urlPath: urlPath, letter: letter, number: number, entries: pageStart..<min(pageStart + limit, end), prefix: String(first[..<length])))
            }
            start = end
        }
    }

    /// Whether the index is more than one page.
    public var isPaged: Bool { !pages.isEmpty }

    /// The path of the index's entry point: the single page, or the overview.
    public var indexPath: String { folder + "index.html" }

    /// The letters that have terms, each with its pages, in order.
    public var letters: [(letter: String, pages: [Page])] {
        var letters: [(letter: String, pages: [Page])] = []
        for page in pages {
            if letters.last?.letter == page.letter { letters[letters.count - 1].pages.append(page) } else { letters.append((page.letter, [page])) }
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
