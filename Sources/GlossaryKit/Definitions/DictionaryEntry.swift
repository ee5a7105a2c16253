import Foundation

/// One entry of a Free Dictionary API response; the model every definition in the site is expressed in.
///
/// Decoding is tolerant in the ways the real API varies: `phonetic` may be missing, `audio` may be empty,
/// `phonetics` may be empty, `example` appears on some definitions only, and synonym lists repeat words.
public struct DictionaryEntry: Codable, Equatable, Sendable {
    public var word: String
    public var phonetic: String?
    public var phonetics: [Phonetic]
    public var meanings: [Meaning]
    public var license: License?
    public var sourceUrls: [String]

    public init(
        word: String, phonetic: String? = nil, phonetics: [Phonetic] = [], meanings: [Meaning] = [],
        license: License? = nil, sourceUrls: [String] = []
    ) {
        self.word = word
        self.phonetic = phonetic
        self.phonetics = phonetics
        self.meanings = meanings
        self.license = license
        self.sourceUrls = sourceUrls
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        word = try container.decode(String.self, forKey: .word)
        phonetic = try container.decodeIfPresent(String.self, forKey: .phonetic)?.nonEmpty
        phonetics = try container.decodeIfPresent([Phonetic].self, forKey: .phonetics) ?? []
        meanings = try container.decodeIfPresent([Meaning].self, forKey: .meanings) ?? []
        license = try container.decodeIfPresent(License.self, forKey: .license)
        sourceUrls = Self.uniqued((try container.decodeIfPresent([String].self, forKey: .sourceUrls) ?? []).compactMap(\.webURL), caseInsensitive: true)
    }

    public struct Phonetic: Codable, Equatable, Sendable {
        public var text: String?
        public var audio: String?
        public var sourceUrl: String?
        public var license: License?

        public init(text: String? = nil, audio: String? = nil, sourceUrl: String? = nil, license: License? = nil) {
            self.text = text
            self.audio = audio
            self.sourceUrl = sourceUrl
            self.license = license
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            text = try container.decodeIfPresent(String.self, forKey: .text)?.nonEmpty
            audio = try container.decodeIfPresent(String.self, forKey: .audio)?.webURL
            sourceUrl = try container.decodeIfPresent(String.self, forKey: .sourceUrl)?.webURL
            license = try container.decodeIfPresent(License.self, forKey: .license)
        }
    }

    public struct Meaning: Codable, Equatable, Sendable {
        public var partOfSpeech: String
        public var definitions: [Sense]
        public var synonyms: [String]
        public var antonyms: [String]

        public init(partOfSpeech: String, definitions: [Sense], synonyms: [String] = [], antonyms: [String] = []) {
            self.partOfSpeech = partOfSpeech
            self.definitions = definitions
            self.synonyms = synonyms
            self.antonyms = antonyms
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            partOfSpeech = try container.decodeIfPresent(String.self, forKey: .partOfSpeech) ?? ""
            definitions = try container.decodeIfPresent([Sense].self, forKey: .definitions) ?? []
            synonyms = DictionaryEntry.uniqued(try container.decodeIfPresent([String].self, forKey: .synonyms) ?? [])
            antonyms = DictionaryEntry.uniqued(try container.decodeIfPresent([String].self, forKey: .antonyms) ?? [])
        }
    }

    /// One numbered sense of a meaning.
    ///
    /// The API gives at most one `example`; WordNet often gives several, so `examples` holds them all and
    /// `example` reads (and writes) the first. JSON keeps the API's shape: `example` is the first, and
    /// `examples` appears only when there are more.
    public struct Sense: Codable, Equatable, Sendable {
        public var definition: String
        public var examples: [String]
        public var synonyms: [String]
        public var antonyms: [String]

        public var example: String? {
            get { examples.first }
            set {
                if let newValue {
                    if examples.isEmpty { examples = [newValue] } else { examples[0] = newValue }
                } else if !examples.isEmpty {
                    examples.removeFirst()
                }
            }
        }

        public init(definition: String, example: String? = nil, synonyms: [String] = [], antonyms: [String] = []) {
            self.init(definition: definition, examples: example.map { [$0] } ?? [], synonyms: synonyms, antonyms: antonyms)
        }

        public init(definition: String, examples: [String], synonyms: [String] = [], antonyms: [String] = []) {
            self.definition = definition
            self.examples = examples
            self.synonyms = synonyms
            self.antonyms = antonyms
        }

        enum CodingKeys: String, CodingKey {
            case definition, example, examples, synonyms, antonyms
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            definition = try container.decode(String.self, forKey: .definition)
            if let all = try container.decodeIfPresent([String].self, forKey: .examples) {
                examples = all.compactMap(\.nonEmpty)
            } else {
                examples = (try container.decodeIfPresent(String.self, forKey: .example)?.nonEmpty).map { [$0] } ?? []
            }
            synonyms = DictionaryEntry.uniqued(try container.decodeIfPresent([String].self, forKey: .synonyms) ?? [])
            antonyms = DictionaryEntry.uniqued(try container.decodeIfPresent([String].self, forKey: .antonyms) ?? [])
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(definition, forKey: .definition)
            try container.encodeIfPresent(example, forKey: .example)
            if examples.count > 1 { try container.encode(examples, forKey: .examples) }
            try container.encode(synonyms, forKey: .synonyms)
            try container.encode(antonyms, forKey: .antonyms)
        }
    }

    public struct License: Codable, Equatable, Sendable {
        public var name: String
        public var url: String?

        public init(name: String, url: String? = nil) {
            self.name = name
            self.url = url
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            url = try container.decodeIfPresent(String.self, forKey: .url)?.webURL
        }
    }

    /// Drops repeats, keeping first occurrences in order (the API sometimes lists a synonym five times).
    static func uniqued(_ words: [String], caseInsensitive: Bool = false) -> [String] {
        var seen = Set<String>()
        return words.filter { word in
            let trimmed = word.trimmingWhitespace
            return !trimmed.isEmpty && seen.insert(caseInsensitive ? trimmed.lowercased() : trimmed).inserted
        }
    }
}

extension String {
    /// nil for an empty or all-blank string, so "" from the API reads as "absent".
    var nonEmpty: String? {
        isBlank ? nil : self
    }

    /// The string if it is an absolute http(s) URL, else nil: links and audio from the API end up in `href`
    /// and `src`, where escaping alone would let a `javascript:` URL through.
    var webURL: String? {
        let trimmed = trimmingWhitespace
        // Only the scheme needs comparing without case.
        let scheme = trimmed.utf8.prefix(8).map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
        return scheme.starts(with: "https://".utf8) || scheme.starts(with: "http://".utf8) ? trimmed : nil
    }
}
