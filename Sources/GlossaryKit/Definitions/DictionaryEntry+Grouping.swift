extension DictionaryEntry {
    /// Meanings grouped by part of speech (the API repeats `noun` across entries and within one), in order of first
    /// appearance: how a term page and `glossary define` show them.
    public static func groupedMeanings(_ entries: [DictionaryEntry]) -> [Meaning] {
        var groups: [Meaning] = []
        for meaning in entries.flatMap(\.meanings) {
            if let index = groups.firstIndex(where: { $0.partOfSpeech == meaning.partOfSpeech }) {
                groups[index].definitions += meaning.definitions
                groups[index].synonyms = (groups[index].synonyms + meaning.synonyms).uniqued()
                groups[index].antonyms = (groups[index].antonyms + meaning.antonyms).uniqued()
            } else {
                groups.append(meaning)
            }
        }
        return groups
    }

    /// The entries' licences, each once.
    public static func distinctLicenses(_ entries: [DictionaryEntry]) -> [License] {
        var seen = Set<String>()
        return entries.compactMap(\.license).filter { seen.insert($0.name + "\n" + ($0.url ?? "")).inserted }
    }

    /// The entries' source pages, each once.
    public static func distinctSourceURLs(_ entries: [DictionaryEntry]) -> [String] {
        entries.flatMap(\.sourceUrls).uniqued()
    }
}
