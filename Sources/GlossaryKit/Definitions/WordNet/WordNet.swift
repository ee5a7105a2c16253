import CWordNet
import Foundation
import Synchronization

/// Princeton WordNet 3.0, read through libwordnet: an offline English dictionary and Morphy, its base-form finder.
///
/// This is the only file that imports CWordNet. libwordnet keeps its state in globals (open files, static
/// result buffers, `strtok`-style iterators inside `getindex` and `morphstr`) and writes into the strings it is
/// given, so two threads must never be inside it at once. Every call goes through `Library.shared`, the one owner
/// in the process: its mutex is held for a whole lookup (every part of speech, the antonym reads, the copying
/// out), strings go in as private mutable copies and come out as Swift strings, and no pointer into libwordnet's
/// memory outlives the lock. A lock rather than a dedicated thread: a lookup takes about a tenth of a millisecond,
/// a hop to another thread and back would add to every one, and libwordnet needs mutual exclusion, not a
/// particular thread. Builds look words up from several threads; they queue on the lock.
///
/// The conversions to the dictionary model (`WordNet+Entries.swift`) and to base forms
/// (`WordNet+WordForms.swift`) work on the Swift values this file copies out.
public final class WordNet: Sendable {
    /// WordNet's four parts of speech; satellite adjectives count as adjectives.
    public enum PartOfSpeech: Int32, CaseIterable, Comparable, Sendable {
        case noun = 1
        case verb
        case adjective
        case adverb

        /// The name the Free Dictionary API uses for it.
        public var name: String {
            switch self {
            case .noun: "noun"
            case .verb: "verb"
            case .adjective: "adjective"
            case .adverb: "adverb"
            }
        }

        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Debian's `wordnet-base` puts the database here; libwordnet is built with it as its default.
    public static let debianDataFolder = "/usr/share/wordnet"

    /// The folder this handle reads.
    public let dataFolder: String
    /// What libwordnet reported while opening the folder without failing (a missing verb example file, say).
    public let warnings: [String]

    private init(dataFolder: String, warnings: [String]) {
        self.dataFolder = dataFolder
        self.warnings = warnings
    }

    /// Opens the WordNet database in `dataFolder`, or where `environment` points libwordnet: `WNSEARCHDIR`, else
    /// `WNHOME/dict`, else Debian's `/usr/share/wordnet`.
    ///
    /// The folder is checked before libwordnet sees it, so a missing or unreadable one is an error value and
    /// libwordnet prints nothing. libwordnet holds one database per process: opening the folder already open
    /// returns another handle to it, opening a different one is an error. libwordnet takes its folder only from
    /// `WNSEARCHDIR`, so a `dataFolder` other than the environment's is set there before the first open: open such
    /// a folder early (at startup, before other threads read the environment).
    public static func open(dataFolder: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) throws(WordNetError) -> WordNet {
        let folder = normalisedFolder(dataFolder ?? defaultDataFolder(environment))
        try check(folder)
        let warnings = try Library.shared.open(folder)
        return WordNet(dataFolder: folder, warnings: warnings)
    }

    /// The folder libwordnet reads for `environment`, by libwordnet's own rule.
    public static func defaultDataFolder(_ environment: [String: String]) -> String {
        if let folder = environment["WNSEARCHDIR"] { return folder }
        if let home = environment["WNHOME"] { return home + "/dict" }
        return debianDataFolder
    }

    /// The files `wninit` refuses to start without.
    static let requiredFiles = ["noun", "verb", "adj", "adv"].flatMap { ["index.\($0)", "data.\($0)", "\($0).exc"] }

    /// libwordnet builds file names in 256-byte buffers (`"%s/index.noun"`); stay well clear of them.
    static let maxFolderPathBytes = 200

    static func normalisedFolder(_ folder: String) -> String {
        var folder = folder
        while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
        return folder
    }

    private static func check(_ folder: String) throws(WordNetError) {
        guard folder.utf8.count <= maxFolderPathBytes else { throw WordNetError(folder: folder, reason: .pathTooLong(limit: maxFolderPathBytes)) }
        var isFolder: ObjCBool = false
        guard !folder.isEmpty, FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw WordNetError(folder: folder, reason: .missingFolder)
        }
        let unreadable = requiredFiles.filter { name in
            var isFolder: ObjCBool = false
            let path = folder + "/" + name
            return !FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) || isFolder.boolValue
                || !FileManager.default.isReadableFile(atPath: path)
        }
        guard unreadable.isEmpty else { throw WordNetError(folder: folder, reason: .unreadableFiles(unreadable)) }
    }

    // MARK: - Lookups, copied out of libwordnet

    /// One synset as libwordnet gave it, as Swift values.
    struct Synset: Equatable, Sendable {
        /// Its byte offset in `data.<pos>`: WordNet's identity for a synset within a part of speech.
        var offset: Int
        var partOfSpeech: PartOfSpeech
        var isSatellite: Bool
        /// Its words as the data spells them: underscores for spaces, adjective markers such as `(p)` attached.
        var words: [String]
        /// Which of `words` is the word looked up (libwordnet's `whichword`, made 0-based).
        var lemmaIndex: Int?
        /// The gloss without its enclosing parentheses.
        var gloss: String
        /// The words that antonym pointers from the looked-up word (or from the whole synset) lead to, raw.
        var antonyms: [String]
    }

    /// Every synset of `word` in WordNet's order: nouns, verbs, adjectives, adverbs, senses by frequency; the word's
    /// spelling variants (hyphen/underscore/period, which libwordnet tries itself) after it, without repeats.
    func synsets(of word: String) -> [Synset] {
        guard let key = Self.lemmaKey(word) else { return [] }
        return Library.shared.run(in: dataFolder) { Library.synsets(of: key) }
    }

    /// The parts of speech among `partsOfSpeech` in which `word` itself (or a spelling variant) is an index entry.
    func indexedPartsOfSpeech(of word: String, among partsOfSpeech: [PartOfSpeech] = PartOfSpeech.allCases) -> [PartOfSpeech] {
        guard let key = Self.lemmaKey(word) else { return [] }
        return Library.shared.run(in: dataFolder) { partsOfSpeech.filter { Library.isIndexed(key, $0) } }
    }

    /// Morphy's base forms of `word` per part of speech (of `partsOfSpeech`, in order), as `morphstr` gives them:
    /// exception lists first, then the suffix rules; never the word itself.
    func morphBaseForms(
        of word: String, among partsOfSpeech: [PartOfSpeech] = PartOfSpeech.allCases
    ) -> [(word: String, partOfSpeech: PartOfSpeech)] {
        guard let key = Self.lemmaKey(word) else { return [] }
        return Library.shared.run(in: dataFolder) { Library.baseForms(of: key, among: partsOfSpeech) }
    }

    /// Every character any WordNet 3.0 lemma uses; anything else cannot be in the database.
    private static let lemmaCharacters = Set("abcdefghijklmnopqrstuvwxyz0123456789_-'./")

    /// The longest lemma is 71 bytes; libwordnet copies words into 256-byte buffers and appends suffixes to them.
    static let maxWordBytes = 100

    /// `word` as WordNet's index spells lemmas (lower case, underscores between words, plain apostrophes), or nil
    /// when it cannot be a lemma: too long, or with characters no lemma has (which keeps anything libwordnet treats
    /// specially, such as `(`, spaces or newlines, away from it).
    static func lemmaKey(_ word: String) -> String? {
        let words = word.lowercased().replacingOccurrences(of: "\u{2019}", with: "'").split(whereSeparator: \.isWhitespace)
        let key = words.joined(separator: "_")
        guard !key.isEmpty, key.utf8.count <= maxWordBytes, key.allSatisfy(lemmaCharacters.contains) else { return nil }
        return key
    }
}

// MARK: - The owner

/// The one owner of libwordnet in the process; see `WordNet`.
private final class Library: Sendable {
    static let shared = Library()

    private struct State {
        /// The folder libwordnet has open, once `wninit` succeeded.
        var folder: String?
        var warnings: [String] = []
        /// A failed `wninit` is not retried: its partly opened files would leak.
        var failure: WordNetError?
    }

    private let state = Mutex(State())

    /// Opens `folder` in libwordnet if nothing is open yet; returns libwordnet's warnings from opening it.
    func open(_ folder: String) throws(WordNetError) -> [String] {
        let result: Result<[String], WordNetError> = state.withLock { state in
            if let failure = state.failure { return .failure(failure) }
            if let open = state.folder {
                return open == folder ? .success(state.warnings) : .failure(WordNetError(folder: folder, reason: .anotherFolderOpen(open)))
            }
            glossary_wn_set_message_handler(collectMessage)
            // libwordnet takes its folder only from the environment, which it reads inside `wninit`. Setting it is
            // needed only when the caller chose a folder other than the environment's, and happens once, under
            // the lock, before libwordnet's first use.
            if WordNet.normalisedFolder(WordNet.defaultDataFolder(ProcessInfo.processInfo.environment)) != folder {
                setenv("WNSEARCHDIR", folder, 1)
            }
            _ = drainMessages()
            let status = wninit()
            let messages = drainMessages()
            guard status == 0 else {
                state.failure = WordNetError(folder: folder, reason: .libraryFailed(messages))
                return .failure(state.failure!)
            }
            state.folder = folder
            state.warnings = messages
            return .success(messages)
        }
        return try result.get()
    }

    /// Runs `body` with libwordnet to itself. Handles exist only for the open folder (`open` refuses others).
    func run<T: Sendable>(in folder: String, _ body: () -> T) -> T {
        state.withLock { state in
            precondition(state.folder == folder, "a WordNet handle for \(folder) while \(state.folder ?? "nothing") is open")
            let result = body()
            // Messages during lookups mean damaged data; the results already say what could be read.
            _ = drainMessages()
            return result
        }
    }

    // The functions below call libwordnet and must run inside `run`.

    static func synsets(of key: String) -> [WordNet.Synset] {
        var result: [WordNet.Synset] = []
        for partOfSpeech in WordNet.PartOfSpeech.allCases {
            guard let list = withMutableCString(key, { findtheinfo_ds($0, partOfSpeech.rawValue, glossary_wn_synonym_search(), ALLSENSES) }) else {
                continue
            }
            // Each spelling variant's synsets are a `nextss` chain; the next variant's chain hangs off the last
            // synset's `nextform`. Debian's `free_syns` frees the later chains too (valgrind shows double frees
            // when they are freed separately).
            var seen = Set<Int>()
            var chain: SynsetPtr? = list
            while let head = chain {
                var node: SynsetPtr? = head
                var last = head
                while let current = node {
                    if seen.insert(current.pointee.hereiam).inserted {
                        result.append(copy(current, as: partOfSpeech))
                    }
                    last = current
                    node = current.pointee.nextss
                }
                chain = last.pointee.nextform
            }
            free_syns(list)
        }
        return result
    }

    private static func copy(_ pointer: SynsetPtr, as partOfSpeech: WordNet.PartOfSpeech) -> WordNet.Synset {
        let synset = pointer.pointee
        let words = (0..<Int(max(synset.wcount, 0))).map { string(synset.words[$0]) }
        let whichWord = Int(synset.whichword)
        var antonyms: [String] = []
        for index in 0..<Int(max(synset.ptrcount, 0)) where synset.ptrtyp[index] == ANTPTR {
            let from = Int(synset.pfrm[index])
            guard from == 0 || from == whichWord else { continue }
            let target = withMutableCString("") { read_synset(synset.ppos[index], synset.ptroff[index], $0) }
            guard let target else { continue }
            let targetWords = (0..<Int(max(target.pointee.wcount, 0))).map { string(target.pointee.words[$0]) }
            let to = Int(synset.pto[index])
            antonyms += to == 0 ? targetWords : (to <= targetWords.count ? [targetWords[to - 1]] : [])
            free_synset(target)
        }
        var gloss = string(synset.defn)
        if gloss.hasPrefix("(") && gloss.hasSuffix(")") { gloss = String(gloss.dropFirst().dropLast()) }
        return WordNet.Synset(
            offset: synset.hereiam, partOfSpeech: partOfSpeech, isSatellite: string(synset.pos) == "s", words: words,
            lemmaIndex: whichWord > 0 && whichWord <= words.count ? whichWord - 1 : nil, gloss: gloss, antonyms: antonyms)
    }

    static func isIndexed(_ key: String, _ partOfSpeech: WordNet.PartOfSpeech) -> Bool {
        guard let first = withMutableCString(key, { getindex($0, partOfSpeech.rawValue) }) else { return false }
        free_index(first)
        // `getindex` hands out the other spellings' entries on later calls with NULL; take and free them all,
        // or they leak when the next word starts.
        while let next = getindex(nil, partOfSpeech.rawValue) { free_index(next) }
        return true
    }

    static func baseForms(of key: String, among partsOfSpeech: [WordNet.PartOfSpeech]) -> [(word: String, partOfSpeech: WordNet.PartOfSpeech)] {
        var forms: [(word: String, partOfSpeech: WordNet.PartOfSpeech)] = []
        for partOfSpeech in partsOfSpeech {
            // `morphstr` works like `strtok`: the word on the first call, NULL for each further form. It copies the
            // word into its own buffer on the first call, so the copy needs to live only for that call.
            var next = withMutableCString(key) { morphstr($0, partOfSpeech.rawValue) }
            var count = 0
            while let form = next, count < 16 {
                forms.append((string(form), partOfSpeech))
                count += 1
                next = morphstr(nil, partOfSpeech.rawValue)
            }
        }
        return forms
    }

    /// A private NUL-terminated copy of `string`, which libwordnet may lower-case or cut in place.
    private static func withMutableCString<T>(_ string: String, _ body: (UnsafeMutablePointer<CChar>) -> T) -> T {
        var bytes = Array(string.utf8CString)
        return bytes.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    }

    private static func string(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }
}

/// What libwordnet reported through `display_message` since the last drain.
private let libraryMessages = Mutex<[String]>([])

/// libwordnet's `display_message`: keeps the message for the caller instead of letting it reach the terminal.
private func collectMessage(_ message: UnsafeMutablePointer<CChar>?) -> Int32 {
    if let message {
        let text = String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
        if !text.isEmpty { libraryMessages.withLock { $0.append(text) } }
    }
    return -1
}

private func drainMessages() -> [String] {
    libraryMessages.withLock { messages in
        defer { messages.removeAll() }
        return messages
    }
}

extension WordNet {
    /// The licence WordNet's data and libwordnet come under.
    public static let license = DictionaryEntry.License(name: "WordNet 3.0", url: "https://wordnet.princeton.edu/license-and-commercial-use")
    /// Where WordNet lives, for an entry's source.
    public static let sourceURL = "https://wordnet.princeton.edu/"
    /// The full licence text, as libwordnet's header carries it (lines unwrapped of their trailing spaces).
    public static let licenseText: String = string(glossary_wn_license())
        .split(separator: "\n", omittingEmptySubsequences: false)
        .map { $0.trimmingCharacters(in: .whitespaces) }
        .joined(separator: "\n")
        .trimmingCharacters(in: .newlines)

    private static func string(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }
}
