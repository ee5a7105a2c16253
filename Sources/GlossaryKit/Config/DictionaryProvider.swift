/// A source of definitions the build asks after the team's entries and the cache, as `dictionary.providers`
/// names it in glossary.yml.
public enum DictionaryProvider: String, CaseIterable, Sendable {
    /// The dictionary API (`dictionary.api`), fetched over the network; its answers are cached.
    case api
    /// Princeton WordNet 3.0 from local files (English only); its answers are not cached, since the files are.
    case wordNet = "wordnet"

    /// The order when glossary.yml says nothing: the API first, since it has pronunciations and audio.
    public static let defaultOrder: [DictionaryProvider] = [.api, .wordNet]
}
