import Foundation
import Synchronization

/// WordNet as the build asks it: entries and word forms by term key, each looked up once and remembered.
///
/// A build asks for the same words again and again (the resolver, the word forms, the parse-time links), and the
/// preview server rebuilds on every save: libwordnet's answers never change while its files don't, so they are
/// kept for the life of this value (a build's, or a preview session's). Safe to use from several threads; the
/// lookups themselves still take turns inside `WordNet`.
public final class WordNetDictionary: Sendable {
    public let wordNet: WordNet
    private struct Known {
        var entries: [TermKey: [DictionaryEntry]] = [:]
        var forms: [TermKey: WordForms] = [:]
        var inflections: [String: [String]] = [:]
    }
    private let known = Mutex(Known())
    /// Morphy's exception lists read backwards, base → irregular forms (nouns, then verbs), with the forms each
    /// inflected part of speech's list holds; read on first need, the second asker waiting for the first reading.
    private let exceptions: Shared<(byBase: [String: [String]], forms: [WordNet.PartOfSpeech: Set<String>])>
    /// Every lemma by part of speech, read on first need (see `WordNet.lemmas(for:)`).
    private let lemmasByPartOfSpeech: Shared<[WordNet.PartOfSpeech: Set<String>]>

    public init(_ wordNet: WordNet) {
        self.wordNet = wordNet
        exceptions = Shared {
            var inverted: [String: [String]] = [:]
            var forms: [WordNet.PartOfSpeech: Set<String>] = [:]
            for partOfSpeech in Self.inflectedPartsOfSpeech {
                for (inflected, base) in wordNet.exceptions(for: partOfSpeech) where inverted[base]?.contains(inflected) != true {
                    inverted[base, default: []].append(inflected)
                }
                forms[partOfSpeech] = wordNet.exceptionForms(for: partOfSpeech)
            }
            return (inverted, forms)
        }
        lemmasByPartOfSpeech = Shared {
            var lemmas: [WordNet.PartOfSpeech: Set<String>] = [:]
            for partOfSpeech in WordNet.PartOfSpeech.allCases { lemmas[partOfSpeech] = wordNet.lemmas(for: partOfSpeech) }
            return lemmas
        }
    }

    /// WordNet's entry for exactly `key` (see `WordNet.entries(for:)`); empty when it has none.
    public func entries(for key: TermKey) -> [DictionaryEntry] {
        if let found = known.withLock({ $0.entries[key] }) { return found }
        let found = wordNet.entries(for: key.rawValue)
        known.withLock { $0.entries[key] = found }
        return found
    }

    /// What WordNet makes of `key` as written: its own entry or not, and its base forms (see `WordForms`).
    public func forms(of key: TermKey) -> WordForms {
        if let found = known.withLock({ $0.forms[key] }) { return found }
        let found = wordNet.forms(of: key.rawValue)
        known.withLock { $0.forms[key] = found }
        return found
    }

    /// The inflected forms that stand for `phrase` (see `makeInflections(of:)`), in lower case.
    public func inflections(of phrase: String) -> [String] {
        let phrase = phrase.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
        if let found = known.withLock({ $0.inflections[phrase] }) { return found }
        let found = makeInflections(of: phrase)
        known.withLock { $0.inflections[phrase] = found }
        return found
    }

    /// Reads what inflecting needs (the exception lists and the lemmas), so the first inflection doesn't wait for it.
    public func prepareInflections() {
        _ = invertedExceptions()
        _ = lemmas()
    }

    /// Morphy's exception lists read backwards: each base form with the irregular forms that stand for it.
    func invertedExceptions() -> [String: [String]] { exceptions.value.byBase }

    /// The forms each inflected part of speech's exception list holds.
    func exceptionForms() -> [WordNet.PartOfSpeech: Set<String>] { exceptions.value.forms }

    /// Every lemma of each part of speech: what libwordnet's index lookups answer, held in memory for the many
    /// questions inflecting a glossary asks.
    func lemmas() -> [WordNet.PartOfSpeech: Set<String>] { lemmasByPartOfSpeech.value }

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
