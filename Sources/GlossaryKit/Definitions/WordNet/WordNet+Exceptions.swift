import Foundation

extension WordNet {
    /// Morphy's exception list for `partOfSpeech` (`noun.exc`, `verb.exc`…), read from the data folder as text: each
    /// irregular form with its base forms (`indices` → index, `geese` → goose), spaces for underscores. Empty when
    /// the file can't be read (`open` checked it exists; a damaged one only loses irregular forms).
    ///
    /// libwordnet searches these files itself inside `morphstr` but offers no way to read them backwards (from a
    /// base to its forms), which is what auto-linking needs.
    public func exceptions(for partOfSpeech: PartOfSpeech) -> [(inflected: String, base: String)] {
        let name = ["noun", "verb", "adj", "adv"][Int(partOfSpeech.rawValue) - 1]
        guard let data = FileManager.default.contents(atPath: dataFolder + "/" + name + ".exc") else { return [] }
        var pairs: [(inflected: String, base: String)] = []
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let words = line.split(separator: " ").map { Self.displayForm(String($0)) }
            guard let inflected = words.first else { continue }
            for base in words.dropFirst() where base != inflected { pairs.append((inflected, base)) }
        }
        return pairs
    }
}
