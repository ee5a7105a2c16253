import Foundation
import Synchronization

/// Renders the files of a resolved site — content pages, term pages, the A–Z index, the dictionary page, the 404
/// page, the terms JSON the browser scripts read — each from one value: a template's context (`pageContext`,
/// `termContext`, …), or the data a file is written from. A file's fingerprint is that value's (`RenderStep`), so
/// whatever a context holds, a change to it makes the file again.
public struct SiteRenderer: Sendable {
    public var site: BuiltSite
    public var theme: Theme
    public var bodySuffix: String?
    /// The Content-Security-Policies of this build's pages, by the head-script they allow.
    let policies = ContentSecurityPolicy.Memo()
    /// Values every page asks for again and again, made once per build.
    let memo = Memo()
    /// Where canonical links and structured data start (`SiteRenderer.exportRoot`), computed once.
    let exportRoot: String
    /// Each page's versions in the site's other languages.
    let translations: PageTranslations
    /// The theme's strings for each of the site's languages (the templates' `t`).
    let localized: [String: [String: String]]
    /// `localized` as the templates' `t`, made once per build rather than once per page.
    let templateStrings: [String: MustacheValue]
    /// `scriptStrings` of each language whose scripts' strings aren't the English ones they have, for pages (by
    /// language) and for the dictionary page (by `<language>/search`).
    let scriptStrings: [String: String]
    /// The twelve month names of each language (its `months` string split at commas), for `dateText`.
    let monthNames: [String: [String]]

    public static let generator = "Glossary \(GlossaryVersion.current)"

    /// Threads the site search's index is made on.
    public var jobs: Int

    public init(site: BuiltSite, theme: Theme, bodySuffix: String?, jobs: Int = 1) {
        self.site = site
        self.theme = theme
        self.bodySuffix = bodySuffix
        self.jobs = jobs
        exportRoot = site.exportRoot
        translations = PageTranslations(site: site)
        localized = Dictionary(uniqueKeysWithValues: site.config.siteLanguages.codes.map { ($0, theme.strings.strings(for: $0)) })
        templateStrings = localized.mapValues { .object(MustacheObject($0.mapValues(MustacheValue.string)).sealed()) }
        var scripts: [String: String] = [:]
        for (language, strings) in localized {
            scripts[language] = Self.scriptStrings(strings, names: Self.pageScriptStrings)
            scripts[language + "/search"] = Self.scriptStrings(strings, names: Self.pageScriptStrings + Self.dictionaryScriptStrings)
        }
        scriptStrings = scripts.compactMapValues { $0 }
        monthNames = localized.mapValues { Self.monthNames($0["months"] ?? Self.titles["months"] ?? "") }
    }

    /// The strings `names` the theme's scripts show (each has its English words, en.yml's in the built-in theme): JSON
    /// of `strings`', for a page's `data-strings`; nil when they are those English ones, so an English page carries none.
    static func scriptStrings(_ strings: [String: String], names: [String]) -> String? {
        let english = BuiltInTheme.englishStrings
        guard names.contains(where: { strings[$0] != english[$0] }) else { return nil }
        let pairs = names.compactMap { name in strings[name].map { (key: name, value: JSONValue.string($0)) } }
        return JSONWriter.text(.object(pairs), pretty: false)
    }

    /// The theme's string `name` in `language` (the default language when nil); for a theme without it, the built-in
    /// theme's English one.
    func text(_ name: String, in language: String? = nil) -> String {
        let language = language ?? site.config.language
        return (localized[language] ?? theme.strings.strings(for: language))[name] ?? Self.titles[name] ?? name
    }

    /// The words the renderer gives (page titles, labels), in English: what a theme without locale files shows.
    static let titles = BuiltInTheme.englishStrings

    /// Linked words by word, for the build (synonyms repeat across thousands of entries). A term's summary is not
    /// kept: each A–Z page lists its terms once, and kept, the summaries of a dictionary's terms were the biggest value
    /// its build held.
    final class Memo: Sendable {
        private let linkedWords = Mutex<MustacheObject>([:])

        func linkedWord(_ word: String, language: String, _ make: () -> MustacheValue) -> MustacheValue {
            let name = language.isEmpty ? word : language + "\u{0}" + word
            if let known = linkedWords.withLock({ $0[name] }) { return known }
            let value = make()
            linkedWords.withLock { $0[name] = value }
            return value
        }
    }

    // MARK: Files

    /// A content page, from its record and its body HTML.
    public func page(_ record: PageRecord, body: String) -> Data {
        renderPage(pageContext(record), body: Self.bodyValues(record, html: body)).0
    }

    /// A page's context rendered with its body's values in the slots, and where the page shows them (nil when the
    /// render stopped at a limit).
    func renderPage(_ context: MustacheValue, body values: [String]) -> (Data, MustacheSlots?) {
        render("page", context, slots: values)
    }

    /// A term's context rendered with its entry's body (for a team's term) in its slot (`termContext`), and where the
    /// page shows it; no slots for a dictionary's term.
    func renderTerm(_ context: MustacheValue, entryBody: String?) -> (Data, MustacheSlots?) {
        guard let entryBody else { return (render("term", context), nil) }
        return render("term", context, slots: [entryBody])
    }

    /// `template` rendered with `values` in the context's slots, and where it shows them (nil when the render stopped
    /// at a limit).
    private func render(_ template: String, _ context: MustacheValue, slots values: [String]) -> (Data, MustacheSlots?) {
        let (data, slots) = theme.renderData(template, context, slots: values)
        let (page, at) = finishing(data)
        guard var slots, let at, let added = bodySuffix?.utf8.count else { return (page, slots) }
        // What the suffix went before moved after it.
        for index in slots.written.indices where slots.written[index].start >= at { slots.written[index].start += added }
        return (page, slots)
    }

    /// The values of a page context's slots (`pageContext`): its HTML whole (`content`), and in two when the markdown
    /// opens with its own level-1 heading (`body`, after the heading `title_html`), so a theme can place the heading
    /// with the title.
    static func bodyValues(_ record: PageRecord, html: String) -> [String] {
        if record.startsWithTitleHeading, html.hasPrefix("<h1"), let end = html.range(of: "</h1>\n") {
            return [html, String(html[end.upperBound...]), String(html[..<end.upperBound])]
        }
        return [html, html, ""]
    }

    /// The generated page of a section without a page of its own (a folder without an index): what it holds.
    public func section(_ node: Int) -> Data {
        render("page", sectionContext(node))
    }

    /// A term's page; `entryBody` is the HTML of the team's entry for team terms.
    public func term(_ definition: TermDefinition, entryBody: String?) -> Data {
        renderTerm(termContext(definition), entryBody: definition.isTeamEntry ? entryBody ?? "" : nil).0
    }

    /// The A–Z index of `definitions`.
    public func index(_ definitions: [TermDefinition]) -> Data {
        render("terms", indexContext(definitions))
    }

    public func search() -> Data { render("search", searchContext()) }

    public func notFound() -> Data { render("404", notFoundContext()) }

    /// The dictionary page of `language` (a code), at its folder's `search/`.
    func searchContext(language: String? = nil) -> MustacheValue {
        let language = language ?? site.config.language
        return .object(common(title: text("dictionary", in: language), url: site.config.siteLanguages.folder(language) + "search/", kind: "search"))
    }

    func notFoundContext() -> MustacheValue { .object(common(title: text("page_not_found"), url: "404.html", kind: "404")) }

    func render(_ template: String, _ context: MustacheValue) -> Data {
        finish(theme.renderData(template, context))
    }

    /// The page with `bodySuffix` (the preview server's live-reload tag) before `</body>`.
    func finish(_ html: Data) -> Data { finishing(html).0 }

    /// `finish`, and where the suffix went.
    private func finishing(_ html: Data) -> (Data, Int?) {
        guard let bodySuffix, let end = html.range(of: Data("</body>".utf8), options: .backwards) else { return (html, nil) }
        var html = html
        html.replaceSubrange(end.lowerBound..<end.lowerBound, with: Data(bodySuffix.utf8))
        return (html, end.lowerBound - html.startIndex)
    }

    // MARK: Contexts

    /// Values every template sees.
    func common(title: String, url: String, kind: String, description: String? = nil, term: TermDefinition? = nil) -> MustacheObject {
        let config = site.config
        let languages = config.siteLanguages
        let language = languages.language(ofPath: url)
        var values: MustacheObject = [
            "site": .object([
                "title": .string(config.title),
                "description": config.description.map(MustacheValue.string) ?? .null,
                "language": .string(language),
                "live_lookup": .bool(config.dictionary.liveLookup),
                "api": .string(config.dictionary.api),
                "generator": .string(Self.generator),
            ]),
            "root": .string(site.href("")),
            "home": .string(site.href(languages.folder(language))),
            "assets": .string(site.href("assets/")),
            "terms_json": .string(site.href(languages.termsFolder(language) + "index.json")),
            // The site search's index of the page's language.
            "search_index": .string(site.href(languages.folder(language) + "search/index.json")),
            "title": .string(title),
            "page_title": .string(title == config.title ? title : "\(title) · \(config.title)"),
            "description": (description ?? config.description).map(MustacheValue.string) ?? .null,
            "url": .string(site.href(url)),
            "is_\(kind)": .bool(true),
            "nav": .array(navigation(current: url, home: languages.folder(language), language: language)),
            "script_strings": scriptStrings[kind == "search" ? language + "/search" : language].map(MustacheValue.string) ?? .null,
            "t": templateStrings[language] ?? .object(MustacheObject(theme.strings.strings(for: language).mapValues(MustacheValue.string))),
            // The 404 page is served at any address, so it names none as its own.
            "canonical_url": kind == "404" ? .null : .string(site.exportURL(url, root: exportRoot)),
            "og_type": .string(["page", "term"].contains(kind) ? "article" : "website"),
        ]
        if languages.isMultilingual, kind != "404" { addLanguages(to: &values, url: url, language: language, kind: kind, term: term) }
        values["csp"] = .string(contentSecurityPolicy(values))
        return values
    }

    /// The page's Content-Security-Policy, allowing the theme's inline no-flash script (`head-script`) by the
    /// hash of its text as rendered with these values: a theme that changes the script still gets a policy for it.
    func contentSecurityPolicy(_ values: MustacheObject) -> String {
        policies.text(config: site.config, inlineScriptsIn: theme.render("head-script", .object(values)))
    }

    /// The site-wide navigation: home, the glossary index and the dictionary page of the page's language.
    func navigation(current: String, home: String, language: String) -> [MustacheValue] {
        [("home", home), ("glossary", home + "terms/"), ("dictionary", home + "search/")].map { name, path in
            .object([
                "title": .string(text(name, in: language)), "url": .string(site.href(path)),
                "current": .bool(path == home ? current == home : current.hasPrefix(path)),
            ])
        }
    }

    /// A content page's context, its body left in slots (see `bodyValues`): `content` 0, `body` 1, `title_html` 2.
    func pageContext(_ record: PageRecord) -> MustacheValue {
        let page = record.page
        let title = record.title
        var context = common(title: title, url: page.urlPath, kind: page.urlPath.isEmpty ? "home" : "page", description: page.metadata.description)
        let language = site.config.siteLanguages.language(ofPath: page.urlPath)
        let usedTerms = record.allReferences.map(\.key).uniqued().compactMap { site.definition(for: $0) }
        var seen = Set<TermKey>()
        let termList = usedTerms.filter { seen.insert($0.key).inserted }.map(termSummary)
        context["page"] = Self.flagged([
            "title": .string(title),
            "description": page.metadata.description.map(MustacheValue.string) ?? .null,
            "date": page.metadata.date.map(MustacheValue.string) ?? .null,
            "date_text": page.metadata.date.map { .string(dateText($0, in: language)) } ?? .null,
            "tags": .array(page.metadata.tags.map(MustacheValue.string)),
            "content": .slot(0),
            "title_html": .slot(2),
            "body": .slot(1),
            "terms": .array(termList),
            "source": .string(page.displayPath),
            // False when the markdown opens with its own level-1 heading, so the theme doesn't repeat it.
            "show_title": .bool(!record.startsWithTitleHeading),
            "toc": tableOfContents(record),
        ])
        context["navigation"] = navigationContext(site.navigation.view(forURL: page.urlPath, languages: site.config.siteLanguages), language: language)
        return .object(context)
    }

    func sectionContext(_ node: Int) -> MustacheValue {
        let section = site.navigation.nodes[node]
        let url = section.urlPath ?? ""
        var context = common(title: section.title, url: url, kind: "page")
        context["page"] = Self.flagged([
            "title": .string(section.title),
            "description": .null,
            "date": .null,
            "tags": .array([]),
            "content": .string(""),
            "title_html": .null,
            "body": .string(""),
            "terms": .array([]),
            "source": .null,
            "show_title": .bool(true),
            "toc": .array([]),
            "is_generated": .bool(true),
        ])
        context["navigation"] = navigationContext(
            site.navigation.view(forURL: url, languages: site.config.siteLanguages), language: site.config.siteLanguages.language(ofPath: url))
        return .object(context)
    }

    func termSummary(_ definition: TermDefinition) -> MustacheValue {
        .object([
            "word": .string(definition.word),
            "sense": definition.sense.map(MustacheValue.string) ?? .null,
            "slug": .string(definition.slug),
            "url": .string(site.termURL(definition)),
            "summary": definition.summary.map(MustacheValue.string) ?? .null,
            "part_of_speech": definition.partOfSpeech.map(MustacheValue.string) ?? .null,
            "phonetic": definition.phonetic.map(MustacheValue.string) ?? .null,
        ])
    }

    /// A word linked to its term page in `language` (a key language) when the glossary has one.
    func linkedWord(_ word: String, in language: String) -> MustacheValue {
        memo.linkedWord(word, language: language) { linkedWordValue(word, in: language) }
    }

    private func linkedWordValue(_ word: String, in language: String) -> MustacheValue {
        // An explicit null stops Mustache from finding an outer `url` (the term page's own) instead.
        .object(["word": .string(word), "url": Self.linkedURL(word, in: site, language: language).map(MustacheValue.string) ?? .null])
    }

    /// The term page a word of `language` (a key language) links to, if the glossary has one.
    static func linkedURL(_ word: String, in site: BuiltSite, language: String = "") -> String? {
        guard let key = TermKey(word)?.inLanguage(language), let definition = site.termPages[key] ?? site.definition(for: key) else { return nil }
        return site.termURL(definition)
    }

    /// A `see_also:` item: a term linked to its page, or a link with the title of the page it leads to.
    func seeAlso(_ item: String, of definition: TermDefinition) -> MustacheValue {
        guard SeeAlso.isLink(item), case .team(let index) = definition.origin else { return linkedWord(item, in: definition.key.language) }
        let link = site.seeAlsoLink(item, from: site.pages[index].page)
        return .object(["word": .string(link.text), "url": .string(link.url)])
    }

    /// A term page's context; a team's term shows its entry's body in slot 0 (`renderTerm`).
    func termContext(_ definition: TermDefinition) -> MustacheValue {
        // The key's language (empty for the default one) links words; the language's code picks the theme's strings.
        let language = definition.key.language
        let languages = site.config.siteLanguages
        let code = languages.code(ofKey: definition.key)
        var context = common(
            title: definition.title, url: languages.termPath(definition.key), kind: "term", description: definition.summary, term: definition)
        var term: MustacheObject = [
            "word": .string(definition.word),
            "sense": definition.sense.map(MustacheValue.string) ?? .null,
            "slug": .string(definition.slug),
            "url": .string(site.termURL(definition)),
            // Its language's A–Z index.
            "index_url": .string(site.href(languages.termsFolder(languages.code(ofKey: definition.key)))),
            "phonetic": definition.phonetic.map(MustacheValue.string) ?? .null,
            "part_of_speech": definition.partOfSpeech.map(MustacheValue.string) ?? .null,
            "aliases": .array(definition.aliases.map { .string($0.rawValue) }),
            "see_also": .array(definition.seeAlso.map { seeAlso($0, of: definition) }),
            "used_on": .array(
                site.usedOn(definition).map { record in
                    .object(["title": .string(record.title), "url": .string(site.href(record.page.urlPath))])
                }),
            "forms_used": .array((site.formsUsed[definition.key] ?? []).map { .string($0.rawValue) }),
            // The same concept's terms in the other languages, in the site's order.
            "translations": .array(
                languages.codes.filter { languages.keyLanguage($0) != language }.compactMap { code in
                    site.conceptTerm(of: definition, in: code).map { other in
                        .object([
                            "word": .string(other.title), "url": .string(site.termURL(other)), "language": .string(code),
                            "name": .string(SiteLanguages.name(of: code)),
                        ])
                    }
                }),
            "pronunciation_of": .string(text("pronunciation_of", in: code, ["word": definition.word])),
        ]
        switch definition.origin {
        case .team(let index):
            term["is_team"] = true
            term["body"] = .slot(0)
            // The entry's term status: its own when not preferred (with the term to use), and the names it marks.
            let metadata = site.pages[index].page.metadata
            term["status"] = metadata.status.flatMap { $0 == .preferred ? nil : .string($0.rawValue) } ?? .null
            term["status_text"] = metadata.status.flatMap { $0 == .preferred ? nil : .string(text("status_\($0.rawValue)", in: code)) } ?? .null
            term["use"] = metadata.use.map { linkedWord($0, in: language) } ?? .null
            term["has_discouraged"] = .bool(!metadata.deprecated.isEmpty || !metadata.forbidden.isEmpty)
            term["deprecated"] = .array(metadata.deprecated.map { .string($0) })
            term["forbidden"] = .array(metadata.forbidden.map { .string($0) })
            term["synonyms"] = .array(definition.entries.flatMap(\.meanings).flatMap(\.synonyms).uniqued().map { linkedWord($0, in: language) })
            term["antonyms"] = .array(definition.entries.flatMap(\.meanings).flatMap(\.antonyms).uniqued().map { linkedWord($0, in: language) })
        case .dictionary(let entry, _, let stale):
            addEntries(definition.entries, language: language, to: &term)
            term["is_dictionary"] = true
            term["audio"] = .array(audio(definition.entries, language: code))
            term["fetched_at"] = .string(String(entry.fetchedAtText.prefix(10)))
            term["fetched_at_text"] = .string(dateText(String(entry.fetchedAtText.prefix(10)), in: code))
            term["stale"] = .bool(stale)
            term["sample"] = entry.sampleNote.map(MustacheValue.string) ?? .null
            term["entries_count"] = .int(definition.entries.count)
        case .wordNet:
            addEntries(definition.entries, language: language, to: &term)
            term["is_wordnet"] = true
        }
        context["term"] = Self.flagged(term)
        context["structured_data"] = .string(StructuredData.termPage(definition, site: site, root: exportRoot))
        return .object(context)
    }

    /// What a dictionary's entries (the API's, WordNet's) give a term page: meanings, sources, licences.
    private func addEntries(_ entries: [DictionaryEntry], language: String, to term: inout MustacheObject) {
        term["meanings"] = .array(meanings(entries, language: language))
        term["source_urls"] = .array(DictionaryEntry.distinctSourceURLs(entries).map(MustacheValue.string))
        term["licenses"] = .array(licenses(entries))
    }

    /// Meanings grouped by part of speech (the API repeats `noun` across entries and within one), in order of
    /// first appearance, definitions numbered within their group.
    func meanings(_ entries: [DictionaryEntry], language: String = "") -> [MustacheValue] {
        DictionaryEntry.groupedMeanings(entries).map { meaning in
            Self.flagged([
                "part_of_speech": .string(meaning.partOfSpeech),
                "definitions": .array(
                    meaning.definitions.enumerated().map { index, sense in
                        Self.flagged([
                            "number": .int(index + 1),
                            "definition": .string(sense.definition),
                            "example": sense.example.map(MustacheValue.string) ?? .null,
                            "examples": .array(sense.examples.map(MustacheValue.string)),
                            "synonyms": .array(sense.synonyms.map { linkedWord($0, in: language) }),
                            "antonyms": .array(sense.antonyms.map { linkedWord($0, in: language) }),
                        ])
                    }),
                "synonyms": .array(meaning.synonyms.map { linkedWord($0, in: language) }),
                "antonyms": .array(meaning.antonyms.map { linkedWord($0, in: language) }),
            ])
        }
    }

    /// Each distinct pronunciation recording, labelled in `language` by its accent when the file name tells (`-us.mp3`).
    func audio(_ entries: [DictionaryEntry], language: String) -> [MustacheValue] {
        entries.flatMap(\.phonetics).filter { $0.audio != nil }.map(\.audio!).uniqued().map { url in
            let phonetic = entries.flatMap(\.phonetics).first { $0.audio == url }
            let accent = Self.accentCode(ofRecording: url).map { text("accent_\($0)", in: language) }
            let play = text("play", in: language)
            return .object([
                "url": .string(url),
                "label": .string(accent.map { "\(play) (\($0))" } ?? play),
                "accent": accent.map(MustacheValue.string) ?? .null,
                "text": phonetic?.text.map(MustacheValue.string) ?? .null,
                "source_url": phonetic?.sourceUrl.map(MustacheValue.string) ?? .null,
                "license": phonetic?.license.map { .object(["name": .string($0.name), "url": $0.url.map(MustacheValue.string) ?? .null]) } ?? .null,
            ])
        }
    }

    /// The accent a recording's file name tells (`…-us.mp3` → `US`), if it tells one, in English (as exports name it).
    static func accent(ofRecording url: String) -> String? {
        accentCode(ofRecording: url).flatMap { BuiltInTheme.englishStrings["accent_" + $0] }
    }

    /// The code of the accent a recording's file name tells (`…-us.mp3` → `us`): the theme's `accent_us` names it. The
    /// file name is the last part of the URL's path (before any `?` or `#`), without its extension.
    static func accentCode(ofRecording url: String) -> String? {
        let path = url.utf8.prefix { $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
        guard let name = path.split(separator: UInt8(ascii: "/")).last else { return nil }
        let stem = name.lastIndex(of: UInt8(ascii: ".")).map { $0 == name.startIndex ? name : name[..<$0] } ?? name
        guard stem.count >= 3, stem[stem.index(stem.endIndex, offsetBy: -3)] == UInt8(ascii: "-") else { return nil }
        let code = String(decoding: stem.suffix(2), as: UTF8.self).lowercased()
        return ["us", "uk", "au", "ca"].contains(code) ? code : nil
    }

    func licenses(_ entries: [DictionaryEntry]) -> [MustacheValue] {
        DictionaryEntry.distinctLicenses(entries).map {
            .object(["name": .string($0.name), "url": $0.url.map(MustacheValue.string) ?? .null])
        }
    }

    /// The A–Z index of `definitions`, the terms of `language` (a code; the default when nil), at its folder's `terms/`.
    func indexContext(_ definitions: [TermDefinition], language: String? = nil) -> MustacheValue {
        let language = language ?? site.config.language
        var context = common(title: text("glossary", in: language), url: site.config.siteLanguages.termsFolder(language), kind: "terms")
        var groups: [(letter: String, terms: [MustacheValue])] = []
        let sorted = TermIndexPages.wordOrder(definitions)
        for definition in sorted {
            let letter = TermIndexPages.letter(definition.word)
            if groups.last?.letter != letter { groups.append((letter, [])) }
            groups[groups.count - 1].terms.append(termSummary(definition))
        }
        let present = Set(groups.map(\.letter))
        context["letters"] = .array(
            groups.map { group in
                .object([
                    "letter": .string(group.letter), "id": .string("letter-\(group.letter == "#" ? "other" : group.letter.lowercased())"),
                    "terms": .array(group.terms), "has_terms": .bool(true),
                ])
            })
        context["alphabet"] = .array(
            ((65...90).map { String(UnicodeScalar(UInt8($0))) } + (present.contains("#") ? ["#"] : [])).map { letter in
                .object([
                    "letter": .string(letter), "id": .string("letter-\(letter == "#" ? "other" : letter.lowercased())"),
                    "present": .bool(present.contains(letter)), "href": .string("#letter-\(TermIndexPages.pathName(letter))"),
                ])
            })
        context["term_count"] = .int(definitions.count)
        context["term_count_text"] = .string(counted("terms_count", definitions.count, in: language))
        context["structured_data"] = .string(StructuredData.termSet(site: site, definitions: definitions, root: exportRoot))
        return .object(context)
    }

    /// The data term cards and the dictionary page read in the browser, as one file: compact JSON with sorted keys,
    /// written key by key (strings quoted by `JSONWriter`).
    public func termsJSON(_ definitions: [TermDefinition]) -> Data {
        Data(termsJSONText(definitions).utf8)
    }

    func termsJSONText(_ definitions: [TermDefinition]) -> String {
        TermsJSON.file(definitions.map { TermsJSON.record($0, site: site) })
    }

    /// The object with `has_<key>` set for each list in it, so templates can test "is this list non-empty".
    static func flagged(_ object: MustacheObject) -> MustacheValue {
        var result = object
        for (key, value) in object.elements {
            if case .array(let items) = value { result["has_" + key] = .bool(!items.isEmpty) }
        }
        return .object(result)
    }

}
