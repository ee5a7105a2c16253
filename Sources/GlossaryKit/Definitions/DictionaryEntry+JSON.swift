/// Reading entries from parsed JSON, with the same tolerance as the API varies and the same error paths as
/// Codable reported (`missing 'word' at [0]`, `wrong type at [0].meanings[1].definitions`): this is what the
/// cache and the API client decode with, an order of magnitude faster than `JSONDecoder`.
extension DictionaryEntry {
    /// Where in the document a value sits, for messages: `[0].meanings[1].partOfSpeech`; untracked (nil), nothing is
    /// written down on the way.
    struct Path {
        var text: String?

        func key(_ name: String) -> Path { Path(text: text.map { $0 + "." + name }) }
        func index(_ index: Int) -> Path { Path(text: text.map { $0 + "[\(index)]" }) }
        var shown: String { text.map { $0.isEmpty ? "top level" : $0 } ?? "an unknown place" }
    }

    /// Every entry of a 200 answer's body, an array. Read without noting where each value sits; a body that fails is
    /// read again noting it, for the message (the same reading fails at the same place).
    static func entries(from json: JSONValue) throws(CacheEntry.Problem) -> [DictionaryEntry] {
        do {
            return try entries(from: json, at: Path(text: nil))
        } catch {
            return try entries(from: json, at: Path(text: ""))
        }
    }

    private static func entries(from json: JSONValue, at path: Path) throws(CacheEntry.Problem) -> [DictionaryEntry] {
        guard let items = json.arrayValue, !items.isEmpty else { throw .wrongShape("expected a non-empty array of entries") }
        var entries: [DictionaryEntry] = []
        entries.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            entries.append(try DictionaryEntry(json: item, at: path.index(index)))
        }
        return entries
    }

    init(json: JSONValue, at path: Path) throws(CacheEntry.Problem) {
        let object = try Self.object(json, at: path)
        word = try Self.requiredString(object, "word", at: path)
        phonetic = try Self.optionalString(object, "phonetic", at: path)?.nonEmpty
        phonetics =
            try Self.optionalArray(object, "phonetics", at: path) { item, path throws(CacheEntry.Problem) in
                try Phonetic(json: item, at: path)
            } ?? []
        meanings =
            try Self.optionalArray(object, "meanings", at: path) { item, path throws(CacheEntry.Problem) in
                try Meaning(json: item, at: path)
            } ?? []
        license = try Self.optionalValue(object, "license", at: path).map { value throws(CacheEntry.Problem) in
            try License(json: value, at: path.key("license"))
        }
        let urls = try Self.optionalStrings(object, "sourceUrls", at: path) ?? []
        sourceUrls = Self.uniqued(urls.compactMap(\.webURL), caseInsensitive: true)
    }

    // MARK: Pieces

    typealias Members = [(key: String, value: JSONValue)]

    static func object(_ json: JSONValue, at path: Path) throws(CacheEntry.Problem) -> Members {
        guard case .object(let members) = json else { throw .wrongShape("wrong type at \(path.shown)") }
        return members
    }

    /// The member `key`, absent when missing or null (as `decodeIfPresent` read it).
    static func optionalValue(_ object: Members, _ key: String, at path: Path) -> JSONValue? {
        guard let value = object.last(where: { $0.key == key })?.value, !value.isNull else { return nil }
        return value
    }

    static func requiredString(_ object: Members, _ key: String, at path: Path) throws(CacheEntry.Problem) -> String {
        guard let value = object.last(where: { $0.key == key })?.value else { throw .wrongShape("missing '\(key)' at \(path.shown)") }
        guard let text = value.stringValue else { throw .wrongShape("wrong type at \(path.key(key).shown)") }
        return text
    }

    static func optionalString(_ object: Members, _ key: String, at path: Path) throws(CacheEntry.Problem) -> String? {
        guard let value = optionalValue(object, key, at: path) else { return nil }
        guard let text = value.stringValue else { throw .wrongShape("wrong type at \(path.key(key).shown)") }
        return text
    }

    static func optionalArray<T>(
        _ object: Members, _ key: String, at path: Path, _ element: (JSONValue, Path) throws(CacheEntry.Problem) -> T
    ) throws(CacheEntry.Problem) -> [T]? {
        guard let value = optionalValue(object, key, at: path) else { return nil }
        guard let items = value.arrayValue else { throw .wrongShape("wrong type at \(path.key(key).shown)") }
        var result: [T] = []
        result.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            result.append(try element(item, path.key(key).index(index)))
        }
        return result
    }

    static func optionalStrings(_ object: Members, _ key: String, at path: Path) throws(CacheEntry.Problem) -> [String]? {
        try optionalArray(object, key, at: path) { item, path throws(CacheEntry.Problem) in
            guard let text = item.stringValue else { throw .wrongShape("wrong type at \(path.shown)") }
            return text
        }
    }
}

extension DictionaryEntry.Phonetic {
    init(json: JSONValue, at path: DictionaryEntry.Path) throws(CacheEntry.Problem) {
        let object = try DictionaryEntry.object(json, at: path)
        text = try DictionaryEntry.optionalString(object, "text", at: path)?.nonEmpty
        audio = try DictionaryEntry.optionalString(object, "audio", at: path)?.webURL
        sourceUrl = try DictionaryEntry.optionalString(object, "sourceUrl", at: path)?.webURL
        license = try DictionaryEntry.optionalValue(object, "license", at: path).map { value throws(CacheEntry.Problem) in
            try DictionaryEntry.License(json: value, at: path.key("license"))
        }
    }
}

extension DictionaryEntry.Meaning {
    init(json: JSONValue, at path: DictionaryEntry.Path) throws(CacheEntry.Problem) {
        let object = try DictionaryEntry.object(json, at: path)
        partOfSpeech = try DictionaryEntry.optionalString(object, "partOfSpeech", at: path) ?? ""
        definitions =
            try DictionaryEntry.optionalArray(object, "definitions", at: path) { item, path throws(CacheEntry.Problem) in
                try DictionaryEntry.Sense(json: item, at: path)
            } ?? []
        synonyms = DictionaryEntry.uniqued(try DictionaryEntry.optionalStrings(object, "synonyms", at: path) ?? [])
        antonyms = DictionaryEntry.uniqued(try DictionaryEntry.optionalStrings(object, "antonyms", at: path) ?? [])
    }
}

extension DictionaryEntry.Sense {
    init(json: JSONValue, at path: DictionaryEntry.Path) throws(CacheEntry.Problem) {
        let object = try DictionaryEntry.object(json, at: path)
        let definition = try DictionaryEntry.requiredString(object, "definition", at: path)
        let examples: [String]
        if let all = try DictionaryEntry.optionalStrings(object, "examples", at: path) {
            examples = all.compactMap(\.nonEmpty)
        } else {
            examples = (try DictionaryEntry.optionalString(object, "example", at: path)?.nonEmpty).map { [$0] } ?? []
        }
        self.init(
            definition: definition, examples: examples,
            synonyms: DictionaryEntry.uniqued(try DictionaryEntry.optionalStrings(object, "synonyms", at: path) ?? []),
            antonyms: DictionaryEntry.uniqued(try DictionaryEntry.optionalStrings(object, "antonyms", at: path) ?? []))
    }
}

extension DictionaryEntry.License {
    init(json: JSONValue, at path: DictionaryEntry.Path) throws(CacheEntry.Problem) {
        let object = try DictionaryEntry.object(json, at: path)
        name = try DictionaryEntry.requiredString(object, "name", at: path)
        url = try DictionaryEntry.optionalString(object, "url", at: path)?.webURL
    }
}
