import GlossaryKit

/// A word completion offers inside `[[…]]`: a team term or alias, a sense, a cached or WordNet definition.
struct CompletionCandidate: Sendable {
    var label: String
    /// Where its definition comes from: team, cached, WordNet.
    var kind: String
    /// What the label stands for, when it is not the term itself (`alias of keyboard`).
    var note: String?
    var summary: String?
    /// The word's key, for sense completion (`crane` for `crane (machine)`).
    var wordKey: TermKey?
    var hasSense: Bool
    /// The language of its key: a page is offered its own language's words ("" for the site's default).
    var language = ""

    static func kind(of definition: TermDefinition) -> String {
        switch definition.origin {
        case .team: "team"
        case .dictionary: "cached"
        case .wordNet: "WordNet"
        }
    }

    /// Every candidate of a site: the team's terms, senses and aliases, then what the cache and the check's
    /// resolutions define (one candidate per word, the first source winning).
    static func all(in live: LiveSite) -> [CompletionCandidate] {
        guard let site = live.site else { return [] }
        var candidates: [CompletionCandidate] = []
        var seen = Set<String>()
        func add(_ candidate: CompletionCandidate) {
            guard seen.insert(candidate.language + "\n" + candidate.label.lowercased()).inserted else { return }
            candidates.append(candidate)
        }
        let team = site.team.filter { $0.key == $0.value.key }.values.sorted { $0.title.lowercased() < $1.title.lowercased() }
        for definition in team {
            add(
                .init(
                    label: definition.title, kind: "team", summary: definition.summary, wordKey: TermKey(definition.word), hasSense: definition.sense != nil,
                    language: definition.key.language))
        }
        for record in site.pages where record.page.kind == .glossaryEntry {
            guard let word = record.page.metadata.term, let key = TermKey(word), let definition = site.team[key] else { continue }
            for alias in record.page.metadata.aliases where TermKey(alias).flatMap({ site.team[$0]?.key }) == definition.key {
                add(
                    .init(
                        label: alias, kind: "team", note: "alias of \(definition.title)", summary: definition.summary, hasSense: false,
                        language: definition.key.language))
            }
        }
        var others = live.cachedDefinitions()
        for case .defined(let definition) in site.resolutions.values where !definition.isTeamEntry { others.append(definition) }
        for definition in others.sorted(by: { $0.word.lowercased() < $1.word.lowercased() }) {
            add(.init(label: definition.word, kind: kind(of: definition), summary: definition.summary, hasSense: false, language: definition.key.language))
        }
        return candidates
    }

    /// The item's members that don't depend on where it is offered; its documentation as markdown when the client
    /// shows markdown, else as plain text.
    func members(markdown: Bool) -> [(key: String, value: JSONValue)] {
        JSONValue.members([
            ("label", .string(label)),
            ("kind", .int(kind == "team" ? 14 : 18)),
            ("detail", .string(note.map { "\(kind), \($0)" } ?? kind)),
            ("documentation", summary.map { markdown ? .object([("kind", "markdown"), ("value", .string($0))]) : .string($0) }),
        ]).objectMembers
    }

    /// The item with its own edit: the word typed so far (`range`) replaced by the label and `closing`.
    static func item(_ members: [(key: String, value: JSONValue)], label: String, replacing range: JSONValue, closing: String) -> JSONValue {
        .object(members + [("textEdit", .object([("range", range), ("newText", .string(label + closing))]))])
    }

    /// The item when the list's `itemDefaults.editRange` says what it replaces: only a closing `]]` is its own.
    static func item(_ members: [(key: String, value: JSONValue)], label: String, closing: String) -> JSONValue {
        closing.isEmpty ? .object(members) : .object(members + [("textEditText", .string(label + closing))])
    }
}

extension JSONValue {
    var objectMembers: [(key: String, value: JSONValue)] {
        if case .object(let members) = self { return members }
        return []
    }
}
