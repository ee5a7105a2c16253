import Foundation
import TestSupport
import Testing

/// Debian's `wn` command (package `wordnet`), run at test time, and readers for the parts of its output the tests
/// compare against: what WordNet's own front end says about a word.
///
/// `wn` prints each part of speech as `noun`, `verb`, `adj`, `adv`; its search options end in `n`, `v`, `a`, `r`.
enum WordNetCommand {
    static let path = ["/usr/bin/wn", "/usr/local/bin/wn"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// One numbered line of `wn WORD -over`: `3. (13) light -- (a particular perspective…)`.
    struct OverviewSense: Equatable {
        var number: Int
        var words: [String]
        var gloss: String
    }

    /// One `Sense N` block of `wn WORD -syns?`: the synset's words, and for each word the antonyms `(vs. …)` names.
    struct SynonymSense: Equatable {
        var number: Int
        var words: [String]
        var antonymsByWord: [String: [String]]
    }

    struct Overview {
        /// Senses per part of speech (`noun`, `verb`, `adj`, `adv`), in `wn`'s order.
        var senses: [String: [OverviewSense]]
        /// The count `wn` announces: "The noun keyboard has 2 senses".
        var announcedCounts: [String: Int]
    }

    static func run(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let executable = try #require(path, "the wn command is needed (apt-get install wordnet; make test installs it)", sourceLocation: sourceLocation)
        let process = Subprocess()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// `wn WORD -over`.
    static func overview(_ word: String) throws -> Overview {
        let text = try run([word, "-over"])
        var overview = Overview(senses: [:], announcedCounts: [:])
        var partOfSpeech: String?
        let header = #/^Overview of (noun|verb|adj|adv) /#
        let count = #/^The (noun|verb|adj|adv) .+ has (\d+) senses? /#
        let sense = #/^(\d+)\. (?:\(\d+\) )?(.+?) -- \((.*)\)$/#
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if let match = line.firstMatch(of: header) {
                partOfSpeech = String(match.1)
            } else if let match = line.firstMatch(of: count) {
                overview.announcedCounts[String(match.1), default: 0] += Int(match.2)!
            } else if let match = line.wholeMatch(of: sense), let partOfSpeech {
                overview.senses[partOfSpeech, default: []].append(
                    OverviewSense(number: Int(match.1)!, words: match.2.components(separatedBy: ", "), gloss: String(match.3)))
            }
        }
        return overview
    }

    /// `wn WORD -syns{n,v,a,r}`: each sense's synset line, its words without `wn`'s adjective position markers.
    static func synonyms(_ word: String, _ partOfSpeech: String) throws -> [SynonymSense] {
        let text = try run([word, "-syns" + searchLetter(partOfSpeech)])
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var senses: [SynonymSense] = []
        for (index, line) in lines.enumerated() {
            guard let match = line.wholeMatch(of: /Sense (\d+)/), index + 1 < lines.count else { continue }
            var sense = SynonymSense(number: Int(match.1)!, words: [], antonymsByWord: [:])
            for item in topLevelItems(lines[index + 1]) {
                var item = Substring(item)
                var antonyms: [String] = []
                if let vs = item.firstMatch(of: #/ \(vs\. (.+)\)$/#) {
                    antonyms = vs.1.components(separatedBy: ", ")
                    item = item[..<vs.range.lowerBound]
                }
                if let marker = item.firstMatch(of: /\((predicate|prenominal|postnominal)\)$/) { item = item[..<marker.range.lowerBound] }
                sense.words.append(String(item))
                if !antonyms.isEmpty { sense.antonymsByWord[String(item), default: []] += antonyms }
            }
            senses.append(sense)
        }
        return senses
    }

    /// `wn WORD -ants{n,v,r}`: for each sense that has antonyms, the words its "Antonym of X (Sense N)" lines name.
    static func antonyms(_ word: String, _ partOfSpeech: String) throws -> [Int: [String]] {
        let text = try run([word, "-ants" + searchLetter(partOfSpeech)])
        var antonyms: [Int: [String]] = [:]
        var sense: Int?
        for line in text.split(separator: "\n") {
            if let match = line.wholeMatch(of: /Sense (\d+)/) {
                sense = Int(match.1)
            } else if let match = line.wholeMatch(of: #/\s+Antonym of (.+) \(Sense \d+\)/#), let sense {
                antonyms[sense, default: []].append(String(match.1))
            }
        }
        return antonyms
    }

    static func searchLetter(_ partOfSpeech: String) -> String {
        ["noun": "n", "verb": "v", "adj": "a", "adv": "r"][partOfSpeech]!
    }

    /// `good (vs. bad), well(predicate)` split at the `, ` outside parentheses.
    private static func topLevelItems(_ line: Substring) -> [String] {
        let characters = Array(line)
        var items: [String] = []
        var current = ""
        var depth = 0
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "(" { depth += 1 }
            if character == ")" { depth -= 1 }
            if character == ",", depth == 0, index + 1 < characters.count, characters[index + 1] == " " {
                items.append(current)
                current = ""
                index += 2
                continue
            }
            current.append(character)
            index += 1
        }
        items.append(current)
        return items.filter { !$0.isEmpty }
    }
}
