import Foundation

extension WordNet {
    /// Morphy's exception list for `partOfSpeech` (`noun.exc`, `verb.exc`…), read from the data folder as text: each
    /// irregular form with its base forms (`indices` → index, `geese` → goose), spaces for underscores. Empty when
    /// the file can't be read (`open` checked it exists; a damaged one only loses irregular forms).
    ///
    /// libwordnet searches these files itself inside `morphstr` but offers no way to read them backwards (from a
    /// base to its forms), which is what auto-linking needs.
    public func exceptions(for partOfSpeech: PartOfSpeech) -> [(inflected: String, base: String)] {
        exceptionLines(for: partOfSpeech).flatMap { words in
            words.dropFirst().filter { $0 != words[0] }.map { (inflected: words[0], base: $0) }
        }
    }

    /// Every irregular form `partOfSpeech`'s exception list holds (the first word of each line, spaces for
    /// underscores), those listed with only themselves as base too: `morphstr` looks any of them up in the list.
    public func exceptionForms(for partOfSpeech: PartOfSpeech) -> Set<String> {
        Set(exceptionLines(for: partOfSpeech).map { $0[0] })
    }

    /// The words of each line of `partOfSpeech`'s exception list, spaces for underscores (no line is empty).
    private func exceptionLines(for partOfSpeech: PartOfSpeech) -> [[String]] {
        let name = ["noun", "verb", "adj", "adv"][Int(partOfSpeech.rawValue) - 1]
        guard let data = FileManager.default.contents(atPath: dataFolder + "/" + name + ".exc") else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ").map { Self.displayForm(String($0)) }
            return words.isEmpty ? nil : words
        }
    }

    /// Every lemma of `partOfSpeech`'s index file (`index.noun`…), as the data spells it (lower case, underscores
    /// for spaces); empty when the file can't be read. libwordnet answers the same question a word at a time with
    /// a binary search over the file (a seek and a buffer read per step): asking it for thousands of words costs a
    /// build more than reading the file once.
    public func lemmas(for partOfSpeech: PartOfSpeech) -> Set<String> {
        let name = ["noun", "verb", "adj", "adv"][Int(partOfSpeech.rawValue) - 1]
        guard let data = FileManager.default.contents(atPath: dataFolder + "/index." + name) else { return [] }
        var lemmas = Set<String>()
        data.withUnsafeBytes { bytes in
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
                // The licence's lines at the top start with spaces; every other line with its lemma.
                if end > start, bytes[start] != UInt8(ascii: " ") {
                    var space = start
                    while space < end && bytes[space] != UInt8(ascii: " ") { space += 1 }
                    lemmas.insert(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<space]), as: UTF8.self))
                }
                start = end + 1
            }
        }
        return lemmas
    }
}
