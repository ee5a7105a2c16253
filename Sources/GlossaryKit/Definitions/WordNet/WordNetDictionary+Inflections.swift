extension WordNetDictionary {
    /// The parts of speech whose inflections auto-linking follows: plurals and verb forms, not comparatives.
    static let inflectedPartsOfSpeech: [WordNet.PartOfSpeech] = [.noun, .verb]

    /// The inflected forms that stand for `phrase` (lower case, single spaces): its last word inflected (`static
    /// site generator` → `static site generators`), or the whole phrase where an exception list has it
    /// (`attorney general` → `attorneys general`).
    ///
    /// Candidates come from Morphy's exception lists read backwards (`index` → `indices`) and from the regular
    /// English suffixes Morphy detaches (`-s`, `-es`, `-ies`, `-men`, `-ed`, `-ing`), for the parts of speech in
    /// which WordNet has the word; each is kept only when Morphy maps it back to the word and it is no word of its
    /// own, exactly as a reference written with it resolves (`[[widgets]]` → widget, never `glasses` → glass). A word
    /// WordNet doesn't know gets no forms.
    func makeInflections(of phrase: String) -> [String] {
        let exceptions = invertedExceptions()
        // A plain word (letters only) is looked up in the index held in memory; anything else goes to libwordnet,
        // which also tries its spelling variants (hyphens, underscores, periods).
        let lemmas = lemmas()
        let isPlain = { (word: String) in !word.isEmpty && word.utf8.allSatisfy { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") } }
        let hasEntry = { (word: String) -> Bool in
            isPlain(word) ? lemmas.values.contains { $0.contains(word) } : self.wordNet.hasEntry(for: word)
        }
        // Morphy reads an irregular form from the exception lists first, so one found there maps back; a regular
        // one is put to Morphy for its part of speech. Either is let go if it is a word of its own (asked last, as
        // the dearest question: every part of speech).
        let exceptionForms = exceptionForms()
        let standsFor = { (candidate: String, base: String, partOfSpeech: WordNet.PartOfSpeech?) -> Bool in
            guard candidate != base else { return false }
            if let partOfSpeech {
                let bases =
                    Self.ruleBaseForms(of: candidate, as: partOfSpeech, lemmas: lemmas, exceptionForms: exceptionForms)
                    ?? self.wordNet.morphBaseForms(of: candidate, among: [partOfSpeech]).map { WordNet.displayForm($0.word).lowercased() }
                guard bases.contains(base) else { return false }
            }
            return !hasEntry(candidate)
        }
        var found: [String] = []
        var seen = Set<String>()
        if phrase.contains(" ") {
            for candidate in exceptions[phrase] ?? [] where standsFor(candidate, phrase, nil) && seen.insert(candidate).inserted { found.append(candidate) }
        }
        let words = phrase.split(separator: " ")
        guard let last = words.last.map(String.init) else { return found }
        let prefix = words.dropLast().map { $0 + " " }.joined()
        let partsOfSpeech =
            isPlain(last)
            ? Self.inflectedPartsOfSpeech.filter { lemmas[$0]?.contains(last) == true }
            : wordNet.indexedPartsOfSpeech(of: last, among: Self.inflectedPartsOfSpeech)
        guard !partsOfSpeech.isEmpty else { return found }
        var candidates = (exceptions[last] ?? []).map { (word: $0, partOfSpeech: WordNet.PartOfSpeech?.none) }
        for partOfSpeech in partsOfSpeech {
            candidates += Self.regularInflections(of: last, as: partOfSpeech).map { ($0, partOfSpeech) }
        }
        for (candidate, partOfSpeech) in candidates {
            guard !seen.contains(prefix + candidate), standsFor(candidate, last, partOfSpeech) else { continue }
            seen.insert(prefix + candidate)
            found.append(prefix + candidate)
        }
        return found
    }

    /// Morphy's base forms of `word` as a noun or a verb, as `morphstr` gives them, from the tables held in memory:
    /// for a plain word (letters only) that the part of speech's exception list doesn't hold, `morphstr` applies
    /// only its suffix rules, in order, and gives the first base that is another lemma (a noun ending in `ss`, or of
    /// two letters or fewer, has none). Nil for any other word, which libwordnet is asked about: a form in the
    /// exception list, a noun ending in `ful` (Morphy inflects what comes before it), a collocation.
    ///
    /// Inflecting a glossary of 2,000 terms asked libwordnet 5,000 such questions, each a few binary searches of
    /// its files read a character at a time: the build waited for them before any page could auto-link.
    static func ruleBaseForms(
        of word: String, as partOfSpeech: WordNet.PartOfSpeech, lemmas: [WordNet.PartOfSpeech: Set<String>],
        exceptionForms: [WordNet.PartOfSpeech: Set<String>]
    ) -> [String]? {
        guard let rules = morphyRules[partOfSpeech], let index = lemmas[partOfSpeech], let listed = exceptionForms[partOfSpeech],
            !word.isEmpty, word.utf8.allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }), !listed.contains(word)
        else { return nil }
        if partOfSpeech == .noun {
            if word.hasSuffix("ful") { return nil }
            if word.hasSuffix("ss") || word.utf8.count <= 2 { return [] }
        }
        for (suffix, ending) in rules where word.hasSuffix(suffix) {
            let base = String(word.dropLast(suffix.count)) + ending
            if base != word && index.contains(base) { return [base] }
        }
        return []
    }

    /// Morphy's detachment rules (libwordnet's `morph.c`), in the order it tries them: the suffix taken off and
    /// the ending put in its place.
    static let morphyRules: [WordNet.PartOfSpeech: [(suffix: String, ending: String)]] = [
        .noun: [("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"), ("men", "man"), ("ies", "y")],
        .verb: [("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", "")],
    ]

    /// The regular English inflections of `word`, as the inverse of Morphy's suffix rules: for a noun the plural
    /// (`widgets`, `boxes`, `stories`, `firemen`), for a verb also the past and the gerund (`parsed`, `parsing`).
    static func regularInflections(of word: String, as partOfSpeech: WordNet.PartOfSpeech) -> [String] {
        let vowels = Set("aeiou")
        let sibilant = ["s", "x", "z", "ch", "sh"].contains { word.hasSuffix($0) }
        let consonantY = word.count > 1 && word.hasSuffix("y") && !vowels.contains(word.dropLast().last!)
        var plural = sibilant ? word + "es" : consonantY ? word.dropLast() + "ies" : word + "s"
        if partOfSpeech == .noun && word.hasSuffix("man") { return [plural, word.dropLast(3) + "men"] }
        guard partOfSpeech == .verb else { return [plural] }
        let endsInE = word.hasSuffix("e")
        let past = endsInE ? word + "d" : consonantY ? word.dropLast() + "ied" : word + "ed"
        let keepsE = ["ee", "oe", "ye"].contains { word.hasSuffix($0) }
        let gerund = endsInE && !keepsE ? word.dropLast() + "ing" : word + "ing"
        if endsInE && !sibilant { plural = word + "s" }
        return [plural, past, gerund]
    }
}
