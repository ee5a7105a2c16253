import Foundation
import Testing

@testable import GlossaryKit

@Suite struct WordNetGlossTests {
    /// Shapes found among WordNet 3.0's glosses.
    @Test(arguments: [
        ("device consisting of a set of keys", "device consisting of a set of keys", [String]()),
        (#"benefit; "for your own good"; "what's the good of worrying?""#, "benefit", ["for your own good", "what's the good of worrying?"]),
        (
            #"the quality of being luminous; emitting or reflecting light; "its luminosity is measured relative to that of our sun""#,
            "the quality of being luminous; emitting or reflecting light", ["its luminosity is measured relative to that of our sun"]
        ),
        (
            #"take sides for or against; "Who are you widing with?"; "I"m siding against the current candidate""#,
            "take sides for or against", ["Who are you widing with?", #"I"m siding against the current candidate"#]
        ),
        (
            #"duty; "every right implies a responsibility; every opportunity, an obligation"- John D.Rockefeller Jr"#,
            "duty", ["every right implies a responsibility; every opportunity, an obligation \u{2014} John D.Rockefeller Jr"]
        ),
        (
            #"triumph; "the harder the conflict the more glorious the triumph"--Thomas Paine; "a triumph""#,
            "triumph", ["the harder the conflict the more glorious the triumph \u{2014} Thomas Paine", "a triumph"]
        ),
        (
            #"rule; "Whatsoever ye would that men do unto you, do you even so unto them" (Matthew 7:12)"#,
            "rule", ["Whatsoever ye would that men do unto you, do you even so unto them (Matthew 7:12)"]
        ),
        (#"exposure; "exposure to the weather" or "they died from exposure";"#, "exposure", ["exposure to the weather", "they died from exposure"]),
        (#"utter with seeming casualness; "drop a hint"; drop names""#, "utter with seeming casualness", ["drop a hint", "drop names"]),
        (#"notice; "an obituary notice"; "a notice of sale"#, "notice", ["an obituary notice", "a notice of sale"]),
        (#"a workplace; as in the expression "on the job";"#, #"a workplace; as in the expression "on the job";"#, [String]()),
        (#"a single drawing in a comic_strip"#, "a single drawing in a comic strip", [String]()),
        (#"fueled by wood; "a wood-burning stove'"#, "fueled by wood", ["a wood-burning stove'"]),
        (#"bondage; "he was in bondage to fear:; "he sought release""#, "bondage", ["he was in bondage to fear:", "he sought release"]),
        (#"become taut; "the muscles tensed;" "the rope strained""#, "become taut", ["the muscles tensed", "the rope strained"]),
    ])
    func splitsDefinitionAndExamples(_ gloss: String, _ definition: String, _ examples: [String]) {
        #expect(WordNetGloss(gloss) == WordNetGloss(definition: definition, examples: examples))
    }

    /// Glosses read straight from Debian's data files: every one whose examples aren't the plain `; "a"; "b"` shape
    /// (odd quotes, attributions, `or`, `;"`; about 800) and every tenth of the rest. Each has a definition, no
    /// example is empty or keeps a quote at an end, and the pieces account for every word of the gloss.
    @Test func glossesInTheDatabaseSplit() throws {
        var glosses = 0
        var checked = 0
        var failures: [String] = []
        for partOfSpeech in ["noun", "verb", "adj", "adv"] {
            let path = WordNet.debianDataFolder + "/data." + partOfSpeech
            let data = try #require(FileManager.default.contents(atPath: path), "\(path) is missing (apt-get install wordnet-base)")
            // memchr finds the line ends and separators: a byte loop takes seconds in a debug build.
            data.withUnsafeBytes { (file: UnsafeRawBufferPointer) in
                guard let base = file.baseAddress else { return }
                var line = base
                let end = base + file.count
                while line < end, let newline = memchr(line, 0x0A, end - line) {
                    defer { line = UnsafeRawPointer(newline) + 1 }
                    let length = UnsafeRawPointer(newline) - line
                    // The first `|` on a synset line is the one before its gloss.
                    guard line.load(as: UInt8.self) != 0x20, let bar = memchr(line, 0x7C, length) else { continue }
                    let start = UnsafeRawPointer(bar) + 2
                    guard start <= UnsafeRawPointer(newline) else { continue }
                    let gloss = UnsafeRawBufferPointer(start: start, count: UnsafeRawPointer(newline) - start)
                    glosses += 1
                    guard glosses % 10 == 0 || Self.isIrregular(gloss) else { continue }
                    checked += 1
                    let text = String(decoding: gloss, as: UTF8.self).trimmingCharacters(in: .whitespaces)
                    let split = WordNetGloss(text)
                    let words = Self.wordCount(split.definition) + split.examples.map(Self.wordCount).reduce(0, +)
                    if split.definition.isEmpty || split.examples.contains(where: { $0.isEmpty || $0.hasPrefix("\"") || $0.hasSuffix("\"") })
                        || words != Self.wordCount(text) - Self.orJoins(text)
                    {
                        failures.append(text)
                    }
                }
            }
        }
        #expect(glosses == 117_659)
        #expect(checked > 12_000)
        #expect(failures.count == 0, "first: \(failures.prefix(3))")
    }

    /// An odd number of quotes, or a quote followed by `-`, ` -`, ` (`, ` or "`, or preceded by `;`.
    static func isIrregular(_ gloss: UnsafeRawBufferPointer) -> Bool {
        guard let base = gloss.baseAddress else { return false }
        let end = base + gloss.count
        var quotes = 0
        var cursor = base
        while cursor < end, let found = memchr(cursor, 0x22, end - cursor) {
            let quote = UnsafeRawPointer(found)
            quotes += 1
            cursor = quote + 1
            if quote > base && (quote - 1).load(as: UInt8.self) == 0x3B { return true }
            let next = UnsafeRawBufferPointer(start: quote + 1, count: min(4, end - (quote + 1)))
            if next.first == 0x2D || next.starts(with: [0x20, 0x2D]) || next.starts(with: [0x20, 0x28]) || next.starts(with: Array(" or ".utf8)) {
                return true
            }
        }
        return quotes % 2 == 1
    }

    /// Runs of ASCII letters and digits (WordNet's text is ASCII; the em dash before an attribution is no word).
    static func wordCount(_ text: String) -> Int {
        var count = 0
        var inWord = false
        for byte in text.utf8 {
            let isWordByte = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            if isWordByte && !inWord { count += 1 }
            inWord = isWordByte
        }
        return count
    }

    /// `"a" or "b"` loses its `or` when it becomes two examples.
    static func orJoins(_ gloss: String) -> Int {
        gloss.components(separatedBy: "\" or \"").count - 1
    }
}
