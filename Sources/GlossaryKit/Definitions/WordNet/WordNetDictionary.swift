import Foundation

/// WordNet as the build asks it: entries and word forms by term key, each looked up once and remembered.
///
/// A build asks for the same words again and again (the resolver, the word forms, the parse-time links), and the
/// preview server rebuilds on every save: libwordnet's answers never change while its files don't, so they are
/// kept for the life of this value (a build's, or a preview session's). Safe to use from several threads; the
/// lookups themselves still take turns inside `WordNet`.
public final class WordNetDictionary: @unchecked Sendable {
    public let wordNet: WordNet
    private let lock = NSLock()
    /// Held while the exception lists or the lemmas are read, so a second asker waits for the first reading.
    private let tablesLock = NSLock()
    private var entries: [TermKey: [DictionaryEntry]] = [:]
    private var forms: [TermKey: WordForms] = [:]
    private var inflections: [String: [String]] = [:]
    /// Morphy's exception lists read backwards, base → irregular forms (nouns, then verbs); read on first need.
    private var exceptionsByBase: [String: [String]]?
    /// Every lemma by part of speech, read on first need (see `WordNet.lemmas(for:)`).
    private var lemmasByPartOfSpeech: [WordNet.PartOfSpeech: Set<String>]?
    /// The forms each inflected part of speech's exception list holds, read with `exceptionsByBase`.
    private var exceptionFormsByPartOfSpeech: [WordNet.PartOfSpeech: Set<String>] = [:]

    public init(_ wordNet: WordNet) {
        self.wordNet = wordNet
    }

    /// WordNet's entry for exactly `key` (see `WordNet.entries(for:)`); empty when it has none.
    public func entries(for key: TermKey) -> [DictionaryEntry] {
        if let known = lock.withLock({ entries[key] }) { return known }
        let found = wordNet.entries(for: key.rawValue)
        lock.withLock { entries[key] = found }
        return found
    }

    /// What WordNet makes of `key` as written: its own entry or not, and its base forms (see `WordForms`).
    public func forms(of key: TermKey) -> WordForms {
        if let known = lock.withLock({ forms[key] }) { return known }
        let found = wordNet.forms(of: key.rawValue)
        lock.withLock { forms[key] = found }
        return found
    }

    /// The inflected forms that stand for `phrase` (see `makeInflections(of:)`), in lower case.
    public func inflections(of phrase: String) -> [String] {
        let phrase = phrase.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
        if let known = lock.withLock({ inflections[phrase] }) { return known }
        let found = makeInflections(of: phrase)
        lock.withLock { inflections[phrase] = found }
        return found
    }

    /// Reads what inflecting needs (the exception lists and the lemmas), so the first inflection doesn't wait for it.
    public func prepareInflections() {
        _ = invertedExceptions()
        _ = lemmas()
    }

    /// Morphy's exception lists read backwards: each base form with the irregular forms that stand for it.
    func invertedExceptions() -> [String: [String]] {
        if let known = lock.withLock({ exceptionsByBase }) { return known }
        tablesLock.lock()
        defer { tablesLock.unlock() }
        if let known = lock.withLock({ exceptionsByBase }) { return known }
        var inverted: [String: [String]] = [:]
        var forms: [WordNet.PartOfSpeech: Set<String>] = [:]
        for partOfSpeech in Self.inflectedPartsOfSpeech {
            for (inflected, base) in wordNet.exceptions(for: partOfSpeech) where inverted[base]?.contains(inflected) != true {
                inverted[base, default: []].append(inflected)
            }
            forms[partOfSpeech] = wordNet.exceptionForms(for: partOfSpeech)
        }
        lock.withLock {
            exceptionsByBase = inverted
            exceptionFormsByPartOfSpeech = forms
        }
        return inverted
    }

    /// The forms each inflected part of speech's exception list holds (read with `invertedExceptions()`).
    func exceptionForms() -> [WordNet.PartOfSpeech: Set<String>] {
        _ = invertedExceptions()
        return lock.withLock { exceptionFormsByPartOfSpeech }
    }

    /// Every lemma of each part of speech: what libwordnet's index lookups answer, held in memory for the many
    /// questions inflecting a glossary asks.
    func lemmas() -> [WordNet.PartOfSpeech: Set<String>] {
        if let known = lock.withLock({ lemmasByPartOfSpeech }) { return known }
        tablesLock.lock()
        defer { tablesLock.unlock() }
        if let known = lock.withLock({ lemmasByPartOfSpeech }) { return known }
        var lemmas: [WordNet.PartOfSpeech: Set<String>] = [:]
        for partOfSpeech in WordNet.PartOfSpeech.allCases { lemmas[partOfSpeech] = wordNet.lemmas(for: partOfSpeech) }
        lock.withLock { lemmasByPartOfSpeech = lemmas }
        return lemmas
    }

    /// `key`'s definition from WordNet, shown under its own key; nil when WordNet doesn't have the word.
    public func definition(for key: TermKey) -> TermDefinition? {
        let entries = entries(for: key)
        guard let first = entries.first else { return nil }
        return TermDefinition(key: key, word: first.word, entries: entries, origin: .wordNet)
    }

    /// Looks every key up ahead of need, entries and forms, so later questions are answered from memory.
    public func prepare(_ keys: some Sequence<TermKey>) {
        for key in keys where entries(for: key).isEmpty {
            _ = forms(of: key)
        }
    }
}
