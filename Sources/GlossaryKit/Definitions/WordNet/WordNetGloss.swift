/// A WordNet gloss split into its definition and its quoted examples.
///
/// Glosses read `definition; "example one"; "example two"`, but WordNet 3.0's 117,659 glosses are hand-typed:
/// definitions hold semicolons (`the quality of being luminous; emitting or reflecting light`), examples hold
/// quotes (`"I"m siding against…"`), carry attributions (`"…triumph"--Thomas Paine`), pair up with `or`
/// (`"exposure to the weather" or "they died from exposure"`), lose a closing quote or gain a stray `;`. The rules:
/// - the definition ends at the first `;` that a `"` follows (spaces aside); everything before it, semicolons
///   included, is the definition;
/// - after it, examples are separated by `;` next to a `"` on either side; a `;` inside a quotation with letters
///   on both sides (`"every right implies a responsibility; every opportunity…"`) stays in the example;
/// - an example is the text between its first and last `"` (inner quotes kept); an attribution after the closing
///   quote follows it after an em dash (`the quality of mercy is not strained — Shakespeare`);
/// - `"a" or "b"` is two examples; a missing closing quote keeps the text to the end; `"a;" "b"` is `"a"; "b"`.
/// Underscores (glosses name lemmas like `comic_strip` a few times) become spaces, as `wn` shows them.
struct WordNetGloss: Equatable, Sendable {
    var definition: String
    var examples: [String]

    init(definition: String, examples: [String]) {
        self.definition = definition
        self.examples = examples
    }

    // The separators are ASCII, so the parse works on UTF-8 bytes (a gloss per sense, thousands per build).
    private typealias Bytes = ArraySlice<UInt8>
    private static let quote = UInt8(ascii: "\""), semicolon = UInt8(ascii: ";"), space = UInt8(ascii: " ")
    private static let dash = UInt8(ascii: "-"), underscore = UInt8(ascii: "_")

    init(_ gloss: String) {
        let text = Bytes(gloss.utf8.map { $0 == Self.underscore ? Self.space : $0 })
        let end = text.indices.first { text[$0] == Self.semicolon && Self.nextNonSpace(in: text, after: $0) == Self.quote }
        definition = Self.string(Self.trimmed(text[..<(end ?? text.endIndex)]))
        examples = end.map { Self.examples(in: text[($0 + 1)...]) } ?? []
    }

    /// Splits the part after the definition at semicolons that touch a quote, then reads each piece.
    private static func examples(in text: Bytes) -> [String] {
        // `"…tensed;" "the rope…"`: a semicolon typed inside the closing quote moves out of it.
        var text = text
        for index in text.indices.dropLast(3) where text[index] == semicolon && text[index + 1] == quote && text[index + 2] == space && text[index + 3] == quote
        {
            text[index] = quote
            text[index + 1] = semicolon
        }
        var pieces: [Bytes] = []
        var start = text.startIndex
        for index in text.indices where text[index] == semicolon {
            if previousNonSpace(in: text, before: index) == quote || nextNonSpace(in: text, after: index) == quote {
                pieces.append(text[start..<index])
                start = index + 1
            }
        }
        pieces.append(text[start...])
        return pieces.flatMap(splitAtOr).compactMap(example)
    }

    /// `"a" or "b"` as `"a"` and `"b"`.
    private static func splitAtOr(_ piece: Bytes) -> [Bytes] {
        let separator = Array("\" or \"".utf8)
        var parts: [Bytes] = []
        var start = piece.startIndex
        var index = piece.startIndex
        while index + separator.count <= piece.endIndex {
            if piece[index..<(index + separator.count)].elementsEqual(separator) {
                parts.append(piece[start...index])  // keeps the closing quote
                start = index + separator.count - 1  // from the opening quote
                index = start + 1
            } else {
                index += 1
            }
        }
        parts.append(piece[start...])
        return parts
    }

    /// One example from a piece like `"quoted text"- Attribution`.
    private static func example(_ piece: Bytes) -> String? {
        var piece = trimmed(piece)
        while piece.last == semicolon { piece = trimmed(piece.dropLast()) }
        let quotes = piece.indices.filter { piece[$0] == quote }
        guard let open = quotes.first, let close = quotes.last, open != close else {
            // No quotes, or one that lost its partner: drop the lone quote where it sits at either end.
            if piece.first == quote { piece = piece.dropFirst() } else if piece.last == quote { piece = piece.dropLast() }
            return nonEmpty(string(trimmed(piece)))
        }
        let text = [trimmed(piece[..<open]), trimmed(piece[(open + 1)..<close])].filter { !$0.isEmpty }.map(string).joined(separator: " ")
        var after = trimmed(piece[(close + 1)...])
        guard !after.isEmpty else { return nonEmpty(text) }
        guard !text.isEmpty else { return string(after) }
        // `"…"--Thomas Paine` reads as the quotation, a dash, its source; `"…" (Matthew 7:12)` keeps its parentheses.
        guard after.first == dash else { return text + " " + string(after) }
        while after.first == dash { after = trimmed(after.dropFirst()) }
        return after.isEmpty ? text : text + " \u{2014} " + string(after)
    }

    private static func nextNonSpace(in text: Bytes, after index: Int) -> UInt8? {
        text[(index + 1)...].first { $0 != space }
    }

    private static func previousNonSpace(in text: Bytes, before index: Int) -> UInt8? {
        text[..<index].last { $0 != space }
    }

    private static func trimmed(_ bytes: Bytes) -> Bytes {
        var bytes = bytes
        while let first = bytes.first, first == space || first == UInt8(ascii: "\t") { bytes.removeFirst() }
        while let last = bytes.last, last == space || last == UInt8(ascii: "\t") { bytes.removeLast() }
        return bytes
    }

    private static func string(_ bytes: Bytes) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    private static func nonEmpty(_ text: String) -> String? {
        text.isEmpty ? nil : text
    }
}
