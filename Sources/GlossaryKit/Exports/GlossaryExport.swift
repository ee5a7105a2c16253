import Foundation

/// What the glossary exports (`glossary.json`, `glossary.csv`, `glossary.tbx`) say of the site's terms: one model
/// made once a build, so the three files always agree. Every term with a page is in it, in key order.
///
/// URLs are absolute when the site's address is known (`site:`, or a full `base_url`), site-absolute otherwise.
public struct GlossaryExport: Sendable, Encodable {
    public var title: String
    public var description: String?
    public var language: String
    /// Every language of the site, the default first.
    public var languages: [String]
    /// The site's root URL: `https://example.org/docs/`, or `/docs/` without an address.
    public var root: String
    public var isAbsolute: Bool
    public var terms: [Term]

    public struct Term: Sendable, Encodable {
        public var key: String
        public var word: String
        /// Which of several meanings of the word this is; nil while the glossary holds one meaning a word.
        public var sense: String?
        public var slug: String
        public var url: String
        public var summary: String?
        public var definitionText: String
        public var definitionHTML: String
        public var partOfSpeech: String?
        public var phonetic: String?
        public var audio: [Audio]
        /// A team entry's aliases as written, without repeats (by key) or the term itself.
        public var aliases: [String]
        /// Every spelling a reference to the term wrote (`[[Kerning]]`, `[[kerning]]`, an alias), sorted.
        public var forms: [String]
        public var source: Source
        /// The pages that use the term, as its page lists them.
        public var pages: [PageLink]
        /// A team entry's statuses (`status:`, `deprecated:`, `forbidden:`) by the name's key; a name not in it is
        /// the preferred term (the word) or admitted (an alias, a form).
        public var statuses: [String: String] = [:]
        /// The term to write instead of a deprecated or forbidden word (`use:`), and its slug when it has a page.
        public var use: String?
        public var useSlug: String?
        /// A team entry's language (its glossary folder's); nil for a dictionary's term, in the site's language.
        public var language: String?
        /// A team entry's `concept:`: the terms sharing one are one concept in several languages.
        public var concept: String?
    }

    public struct Audio: Sendable, Encodable {
        public var url: String
        public var accent: String?
        public var text: String?
        public var sourceURL: String?
        public var license: License?
    }

    public struct License: Sendable, Encodable {
        public var name: String
        public var url: String?
    }

    public struct Source: Sendable, Encodable {
        /// `glossary` (a team entry) or `dictionary`.
        public var kind: String
        public var urls: [String]
        public var licenses: [License]
        /// When a dictionary definition was fetched, `YYYY-MM-DD`.
        public var retrieved: String?
    }

    public struct PageLink: Sendable, Encodable {
        public var title: String
        public var url: String
    }

    /// The export of `definitions` (the term pages, in key order); `entryBody` gives a team entry's body HTML.
    /// The model of `definitions`, each term made on one of `jobs` threads (`entryBody` is called from them).
    static func make(site: BuiltSite, definitions: [TermDefinition], jobs: Int = 1, entryBody: @Sendable (TermDefinition) -> String?) -> GlossaryExport {
        let root = site.exportRoot
        let origin = site.config.address?.origin ?? ""
        let slugs = Dictionary(definitions.map { ($0.key, $0.slug) }, uniquingKeysWith: { first, _ in first })
        let terms = definitions.parallelMap(jobs: jobs) { definition -> Term in
            let url = site.exportURL(site.config.siteLanguages.termPath(definition.key), root: root)
            let (text, html) = Self.definition(definition, site: site, origin: origin, entryBody: entryBody)
            var term = Term(
                key: definition.key.rawValue, word: definition.word, sense: definition.sense, slug: definition.slug, url: url, summary: definition.summary,
                definitionText: text, definitionHTML: html, partOfSpeech: definition.partOfSpeech, phonetic: definition.phonetic,
                audio: audio(definition.entries), aliases: writtenAliases(definition, site: site), forms: forms(definition, site: site),
                source: source(definition),
                pages: site.usedOn(definition).map { PageLink(title: $0.title, url: site.exportURL($0.page.urlPath, root: root)) })
            if case .team(let index) = definition.origin {
                let metadata = site.pages[index].page.metadata
                if let status = metadata.status, let key = TermKey(definition.word) { term.statuses[key.rawValue] = status.rawValue }
                for (names, status) in [(metadata.deprecated, TermStatus.deprecated), (metadata.forbidden, .forbidden)] {
                    for name in names { if let key = TermKey(name) { term.statuses[key.rawValue] = status.rawValue } }
                }
                term.use = metadata.use
                term.useSlug = metadata.use.flatMap(TermKey.init).flatMap { slugs[$0.inLanguage(definition.key.language)] }
                term.language = site.config.siteLanguages.entryLanguage(ofContentPath: site.pages[index].page.contentPath)
                term.concept = metadata.concept
            }
            return term
        }
        return GlossaryExport(
            title: site.config.title, description: site.config.description, language: site.config.language,
            languages: site.config.siteLanguages.codes, root: root,
            isAbsolute: site.config.address != nil, terms: terms)
    }

    /// The definition as text and HTML: a team entry's body; a dictionary entry's meanings, numbered by part of speech.
    static func definition(_ definition: TermDefinition, site: BuiltSite, origin: String, entryBody: (TermDefinition) -> String?) -> (String, String) {
        if definition.isTeamEntry {
            let page = site.href(site.config.siteLanguages.termPath(definition.key))
            let html = ExportHTML.absolutized(entryBody(definition) ?? "", page: page, origin: origin)
            return (ExportHTML.plainText(html), html)
        }
        var text: [String] = []
        var html = ""
        for group in meaningGroups(definition.entries) {
            if !group.partOfSpeech.isEmpty {
                text.append(group.partOfSpeech)
                html += "<p><em>\(HTML.escape(group.partOfSpeech))</em></p>\n"
            }
            html += "<ol>\n"
            for (index, definition) in group.definitions.enumerated() {
                text.append("\(index + 1). \(definition)")
                html += "<li>\(HTML.escape(definition))</li>\n"
            }
            html += "</ol>\n"
        }
        return (text.joined(separator: "\n"), html)
    }

    /// Definitions grouped by part of speech in order of first appearance, as the term page shows them.
    static func meaningGroups(_ entries: [DictionaryEntry]) -> [(partOfSpeech: String, definitions: [String])] {
        var groups: [(partOfSpeech: String, definitions: [String])] = []
        for meaning in entries.flatMap(\.meanings) {
            let definitions = meaning.definitions.map(\.definition)
            if let index = groups.firstIndex(where: { $0.partOfSpeech == meaning.partOfSpeech }) {
                groups[index].definitions += definitions
            } else {
                groups.append((meaning.partOfSpeech, definitions))
            }
        }
        return groups.filter { !$0.definitions.isEmpty }
    }

    static func audio(_ entries: [DictionaryEntry]) -> [Audio] {
        let phonetics = entries.flatMap(\.phonetics)
        return phonetics.compactMap(\.audio).uniqued().map { url in
            let phonetic = phonetics.first { $0.audio == url }
            return Audio(
                url: url, accent: SiteRenderer.accent(ofRecording: url), text: phonetic?.text, sourceURL: phonetic?.sourceUrl,
                license: phonetic?.license.map { License(name: $0.name, url: $0.url) })
        }
    }

    static func writtenAliases(_ definition: TermDefinition, site: BuiltSite) -> [String] {
        guard case .team(let index) = definition.origin else { return [] }
        var seen: Set<TermKey> = [definition.key]
        return site.pages[index].page.metadata.aliases.filter { alias in
            guard let key = TermKey(alias)?.inLanguage(definition.key.language) else { return false }
            return seen.insert(key).inserted
        }
    }

    /// The spellings references wrote for the term, its key and its aliases, on any page or entry.
    static func forms(_ definition: TermDefinition, site: BuiltSite) -> [String] {
        Set(([definition.key] + definition.aliases).flatMap { site.usage[$0] ?? [] }.map { site.reference($0).word }).sorted()
    }

    /// Where a definition came from: the team's entry, the dictionary API (through the cache, with when it was
    /// fetched) or WordNet (local files: no date).
    static func source(_ definition: TermDefinition) -> Source {
        var seen = Set<String>()
        let licenses = definition.entries.compactMap(\.license).filter { seen.insert($0.name + "\n" + ($0.url ?? "")).inserted }
        let urls = definition.entries.flatMap(\.sourceUrls).uniqued()
        switch definition.origin {
        case .team:
            return Source(kind: "glossary", urls: [], licenses: [], retrieved: nil)
        case .dictionary(let entry, _, _):
            return Source(
                kind: "dictionary", urls: urls, licenses: licenses.map { License(name: $0.name, url: $0.url) },
                retrieved: String(entry.fetchedAtText.prefix(10)))
        case .wordNet:
            return Source(kind: "wordnet", urls: urls, licenses: licenses.map { License(name: $0.name, url: $0.url) }, retrieved: nil)
        }
    }
}
