import CStemmer
import Synchronization

/// Word forms beyond English: Snowball's stemmer for a language (Debian's libstemmer), which reads `serveurs` and
/// `serveur` as one stem, `Datenbanken` and `Datenbank` as another. English keeps WordNet's Morphy
/// (`WordFormResolver`), which knows irregular forms and words of their own. The only file that touches libstemmer.
public final class SnowballStemmer: @unchecked Sendable {
    // @unchecked: a libstemmer stemmer keeps its last stem in a buffer of its own, so every call holds `lock`.
    private let stemmer: OpaquePointer
    private let lock = Mutex(())
    public let language: String

    /// The stemmer for `language` (`fr`, `de-AT`, `pt_BR`: its primary subtag), nil for English (Morphy's) or a
    /// language Snowball has no stemmer for.
    public init?(language: String) {
        let code = String(language.lowercased().prefix { $0 != "-" && $0 != "_" })
        guard !code.isEmpty, code != "en", code.allSatisfy({ $0.isASCII && $0.isLetter }), let stemmer = sb_stemmer_new(code, "UTF_8") else {
            return nil
        }
        self.stemmer = stemmer
        self.language = code
    }

    deinit { sb_stemmer_delete(stemmer) }

    /// The stem of `word`, lower-cased first (Snowball's stemmers expect lower case).
    public func stem(_ word: String) -> String {
        let bytes = Array(word.lowercased().utf8)
        return lock.withLock { _ in
            bytes.withUnsafeBufferPointer { buffer -> String in
                guard let base = buffer.baseAddress, let stemmed = sb_stemmer_stem(stemmer, base, Int32(buffer.count)) else { return word.lowercased() }
                let length = Int(sb_stemmer_length(stemmer))
                return String(decoding: UnsafeBufferPointer(start: stemmed, count: length), as: UTF8.self)
            }
        }
    }

    /// A key's stem key: its last word stemmed, the words before it as they are (`base de données` → `base de donné`).
    public func stemKey(_ key: TermKey) -> String {
        var words = key.rawValue.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard let last = words.popLast() else { return key.rawValue }
        return (words + [stem(last)]).joined(separator: " ")
    }
}
