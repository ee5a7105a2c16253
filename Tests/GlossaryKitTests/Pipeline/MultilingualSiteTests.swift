import Foundation
import Testing

@testable import GlossaryKit

/// A site in several languages (`languages:`): each page in its language's folder, its `<html lang>`, its `hreflang`
/// alternates and a switcher leading to the same page in each language, or to that language's home.
@Suite struct MultilingualSiteTests {
    static let site =
        """
        -- glossary.yml --
        title: Type
        site: https://docs.example.org
        languages: [en, fr, de]
        -- content/index.md --
        ---
        title: Home
        ---
        Welcome.
        -- content/guide/intro.md --
        ---
        title: Intro
        ---
        About type.
        -- content/guide/only-english.md --
        ---
        title: Only English
        ---
        Not translated.
        -- content/fr/index.md --
        ---
        title: Accueil
        ---
        Bienvenue.
        -- content/fr/guide/introduction.md --
        ---
        title: Introduction
        translation_of: guide/intro.md
        ---
        À propos de la typographie.
        -- content/de/index.md --
        ---
        title: Startseite
        ---
        Willkommen.
        -- content/de/guide/intro.md --
        ---
        title: Einführung
        ---
        Über Typografie.
        """

    /// The lines of `html` that say its language: `<html lang>`, the alternates and the switcher's links.
    static func languageLines(_ html: String) -> [String] {
        html.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            $0.hasPrefix("<html") || $0.hasPrefix("<link rel=\"alternate\"") || $0.contains(" hreflang=") || $0.hasPrefix("<a class=\"site-title\"")
        }
    }

    @Test func eachPageSaysItsLanguageAndLinksItsTranslations() async throws {
        let site = try ExportTestSite(Self.site)
        defer { site.remove() }
        let (result, files) = await site.build()
        #expect(result.diagnostics.map(\.description) == [])
        #expect(
            Self.languageLines(files["guide/intro/index.html"] ?? "") == [
                #"<html lang="en">"#,
                #"<link rel="alternate" hreflang="en" href="https://docs.example.org/guide/intro/">"#,
                #"<link rel="alternate" hreflang="fr" href="https://docs.example.org/fr/guide/introduction/">"#,
                #"<link rel="alternate" hreflang="de" href="https://docs.example.org/de/guide/intro/">"#,
                #"<a class="site-title" href="/">"#,
                #"<li><a href="/guide/intro/" hreflang="en" lang="en" aria-current="true">English</a></li>"#,
                #"<li><a href="/fr/guide/introduction/" hreflang="fr" lang="fr">Français</a></li>"#,
                #"<li><a href="/de/guide/intro/" hreflang="de" lang="de">Deutsch</a></li>"#,
            ])
        #expect(
            Self.languageLines(files["fr/guide/introduction/index.html"] ?? "") == [
                #"<html lang="fr">"#,
                #"<link rel="alternate" hreflang="en" href="https://docs.example.org/guide/intro/">"#,
                #"<link rel="alternate" hreflang="fr" href="https://docs.example.org/fr/guide/introduction/">"#,
                #"<link rel="alternate" hreflang="de" href="https://docs.example.org/de/guide/intro/">"#,
                #"<a class="site-title" href="/fr/">"#,
                #"<li><a href="/guide/intro/" hreflang="en" lang="en">English</a></li>"#,
                #"<li><a href="/fr/guide/introduction/" hreflang="fr" lang="fr" aria-current="true">Français</a></li>"#,
                #"<li><a href="/de/guide/intro/" hreflang="de" lang="de">Deutsch</a></li>"#,
            ])
        // Without a translation, the switcher leads to the language's home.
        #expect(
            Self.languageLines(files["guide/only-english/index.html"] ?? "") == [
                #"<html lang="en">"#,
                #"<link rel="alternate" hreflang="en" href="https://docs.example.org/guide/only-english/">"#,
                #"<a class="site-title" href="/">"#,
                #"<li><a href="/guide/only-english/" hreflang="en" lang="en" aria-current="true">English</a></li>"#,
                #"<li><a href="/fr/" hreflang="fr" lang="fr">Français</a></li>"#,
                #"<li><a href="/de/" hreflang="de" lang="de">Deutsch</a></li>"#,
            ])
        #expect(
            Self.languageLines(files["de/index.html"] ?? "") == [
                #"<html lang="de">"#,
                #"<link rel="alternate" hreflang="en" href="https://docs.example.org/">"#,
                #"<link rel="alternate" hreflang="fr" href="https://docs.example.org/fr/">"#,
                #"<link rel="alternate" hreflang="de" href="https://docs.example.org/de/">"#,
                #"<a class="site-title" href="/de/">"#,
                #"<li><a href="/" hreflang="en" lang="en">English</a></li>"#,
                #"<li><a href="/fr/" hreflang="fr" lang="fr">Français</a></li>"#,
                #"<li><a href="/de/" hreflang="de" lang="de" aria-current="true">Deutsch</a></li>"#,
            ])
    }

    /// The hrefs of the page's sidebar, in order.
    static func sidebarLinks(_ html: String) -> [String] {
        guard let start = html.range(of: "<nav class=\"sidebar\""), let end = html.range(of: "</nav>", range: start.upperBound..<html.endIndex) else {
            return []
        }
        return html[start.upperBound..<end.lowerBound].components(separatedBy: "href=\"").dropFirst().compactMap {
            $0.split(separator: "\"").first.map(String.init)
        }
    }

    @Test func eachLanguageHasItsOwnSidebarAndPager() async throws {
        let site = try ExportTestSite(Self.site)
        defer { site.remove() }
        let (_, files) = await site.build()
        #expect(Self.sidebarLinks(files["guide/intro/index.html"] ?? "") == ["/guide/", "/guide/intro/", "/guide/only-english/"])
        #expect(Self.sidebarLinks(files["fr/guide/introduction/index.html"] ?? "") == ["/fr/guide/", "/fr/guide/introduction/"])
        #expect(files["fr/guide/introduction/index.html"]?.contains("rel=\"prev\"") == true)
        #expect(files["de/guide/intro/index.html"]?.contains("rel=\"next\"") == false)
    }

    @Test func aSiteInOneLanguageHasNoSwitcherAndNoAlternates() async throws {
        let site = try ExportTestSite(
            """
            -- glossary.yml --
            title: Type
            languages: [fr]
            -- content/index.md --
            Bienvenue.
            """)
        defer { site.remove() }
        let (result, files) = await site.build()
        #expect(result.diagnostics.map(\.description) == [])
        #expect(
            Self.languageLines(files["index.html"] ?? "") == [
                #"<html lang="fr">"#, #"<a class="site-title" href="/">"#,
            ])
    }

    @Test(arguments: [
        ("languages: [en, en]\n", "glossary.yml:1:17: error: 'languages' must name each language once, found 'en' [config-value]"),
        ("languages: [en, fr/x]\n", "glossary.yml:1:17: error: 'languages' must list language codes like 'en', the default first, found 'fr/x' [config-value]"),
        ("languages: fr/x\n", "glossary.yml:1:12: error: 'languages' must list language codes like 'en', the default first, found 'fr/x' [config-value]"),
        ("languages: []\n", "glossary.yml:1:12: error: 'languages' must list language codes like 'en', the default first, found a list [config-value]"),
        (
            "language: de\nlanguages: [en, de]\n",
            "glossary.yml:2:12: error: 'languages' must start with the default language, 'de' (language:), found a list [config-value]"
        ),
    ])
    func languagesMustBeDistinctCodesStartingWithTheDefault(yaml: String, message: String) {
        let (_, diagnostics) = SiteConfig.load(yaml: yaml, file: "glossary.yml")
        #expect(diagnostics.map(\.description) == [message])
    }

    @Test func languagesSetTheDefaultLanguage() {
        let (config, diagnostics) = SiteConfig.load(yaml: "languages: [fr, en]\ndefault_language_at_root: false\n", file: "glossary.yml")
        #expect(diagnostics.isEmpty)
        #expect(config.language == "fr")
        #expect(config.siteLanguages.folder("fr") == "fr/")
        #expect(config.siteLanguages.language(ofPath: "en/guide/") == "en")
        #expect(config.siteLanguages.language(ofPath: "guide/") == "fr")
    }

    /// The lines of `html` with the theme's words this test looks at.
    static func wordLines(_ html: String) -> [String] {
        html.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            $0.hasPrefix("<title>") || $0.hasPrefix("<a class=\"skip-link\"") || $0.hasPrefix("<span class=\"visually-hidden\">")
                || $0.hasPrefix("<option") || $0.hasPrefix("{{") || $0.hasPrefix("<nav class=\"site-nav\"")
                || $0.hasPrefix("<li><a href=\"/") && !$0.contains("hreflang")
                || $0.hasPrefix("<nav class=\"language-switcher\"")
        }
    }

    @Test func theThemeSpeaksThePageLanguageWithTheSiteOwnStrings() async throws {
        let site = try ExportTestSite(
            Self.site + """

                -- themes/default/i18n/fr.yml --
                dark_mode: Thème sombre
                """)
        defer { site.remove() }
        let (result, files) = await site.build()
        #expect(result.diagnostics.map(\.description) == [])
        #expect(
            Self.wordLines(files["fr/index.html"] ?? "") == [
                "<title>Accueil · Type</title>",
                ##"<a class="skip-link" href="#main">Aller au contenu</a>"##,
                #"<nav class="language-switcher" aria-label="Langue">"#,
                #"<span class="visually-hidden">Police</span>"#,
                #"<option value="sans">Sans empattement</option>"#,
                #"<option value="serif">Avec empattement</option>"#,
                #"<option value="mono">Chasse fixe</option>"#,
                #"<span class="visually-hidden">Thème sombre</span>"#,
                #"<nav class="site-nav" aria-label="Site">"#,
                #"<li><a href="/fr/" aria-current="page">Accueil</a></li>"#,
                #"<li><a href="/fr/terms/">Glossaire</a></li>"#,
                #"<li><a href="/fr/search/">Dictionnaire</a></li>"#,
            ])
        #expect(
            Self.wordLines(files["de/guide/intro/index.html"] ?? "") == [
                "<title>Einführung · Type</title>",
                ##"<a class="skip-link" href="#main">Zum Inhalt springen</a>"##,
                #"<nav class="language-switcher" aria-label="Sprache">"#,
                #"<span class="visually-hidden">Schrift</span>"#,
                #"<option value="sans">Serifenlos</option>"#,
                #"<option value="serif">Serifen</option>"#,
                #"<option value="mono">Festbreite</option>"#,
                #"<span class="visually-hidden">Dunkelmodus</span>"#,
                #"<nav class="site-nav" aria-label="Website">"#,
                #"<li><a href="/de/">Startseite</a></li>"#,
                #"<li><a href="/de/terms/">Glossar</a></li>"#,
                #"<li><a href="/de/search/">Wörterbuch</a></li>"#,
            ])
    }

    @Test func theScriptsGetThePageLanguageStringsAndAnEnglishPageNone() async throws {
        let site = try ExportTestSite(Self.site)
        defer { site.remove() }
        let (_, files) = await site.build()
        let body = { (html: String) in
            html.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.first { $0.hasPrefix("<body") } ?? ""
        }
        #expect(body(files["guide/intro/index.html"] ?? "") == #"<body data-root="/" data-terms-json="/terms/index.json">"#)
        let french = body(files["fr/index.html"] ?? "")
        let json = french.components(separatedBy: "data-strings=\"").last?.components(separatedBy: "\"").first ?? ""
        let strings = try JSONParser.parse(Array(json.replacingOccurrences(of: "&quot;", with: "\"").utf8))
        #expect(strings["no_results"] == .string("Aucun résultat pour « {query} »"))
        #expect(strings["search_site"] == .string("Rechercher dans le site"))
        #expect(strings["some_results"] == .string("{shown} résultats sur {total}"))
    }

    /// The documents (their addresses) of the search index in `folder`.
    /// The path of the one shard of the search index in `folder`, as its manifest names it.
    static func onlyShard(_ files: [String: String], folder: String) throws -> String {
        let manifest = try #require(files[folder + "search/index.json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(manifest.utf8)) as? [String: Any])
        let shards = try #require(object["shards"] as? [[String]])
        try #require(shards.count == 1)
        return folder + "search/shards/" + shards[0][1] + ".json"
    }

    static func searchDocuments(_ files: [String: String], folder: String) throws -> [String] {
        let chunk = try JSONParser.parse(Array((files[folder + "search/docs/0.json"] ?? "").utf8))
        guard case .array(let entries) = chunk else { return [] }
        return entries.compactMap { entry in
            guard case .array(let fields) = entry, fields.count > 2, case .string(let url) = fields[2] else { return nil }
            return url
        }
    }

    @Test func eachLanguageHasItsOwnSearchIndexAndItsPagesLoadIt() async throws {
        let site = try ExportTestSite(
            Self.site + """

                -- content/glossary/kerning.md --
                ---
                term: Kerning
                ---
                The space between two letters.
                -- content/fr/glossary/police.md --
                ---
                term: police
                ---
                Un jeu de caractères.
                """)
        defer { site.remove() }
        let (result, files) = await site.build()
        #expect(result.diagnostics.map(\.description) == [])
        #expect(
            files.keys.filter { $0.contains("search/") && $0.hasSuffix(".json") }.sorted() == [
                "de/search/docs/0.json", "de/search/index.json", try Self.onlyShard(files, folder: "de/"), "fr/search/docs/0.json",
                "fr/search/index.json", try Self.onlyShard(files, folder: "fr/"), "search/docs/0.json", "search/index.json",
                try Self.onlyShard(files, folder: ""),
            ])
        #expect(try Self.searchDocuments(files, folder: "") == ["guide/intro/", "guide/only-english/", "", "guide/", "terms/kerning/"])
        // A term is in its own language's index.
        #expect(try Self.searchDocuments(files, folder: "fr/") == ["fr/guide/introduction/", "fr/", "fr/guide/", "fr/terms/police/"])
        #expect(try Self.searchDocuments(files, folder: "de/") == ["de/guide/intro/", "de/", "de/guide/"])
        let box = { (html: String) in
            html.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.first { $0.contains("data-site-search") } ?? ""
        }
        #expect(
            box(files["fr/guide/introduction/index.html"] ?? "")
                == #"<div class="site-search js-only" data-site-search data-index="/fr/search/index.json"></div>"#)
        #expect(box(files["guide/intro/index.html"] ?? "") == #"<div class="site-search js-only" data-site-search data-index="/search/index.json"></div>"#)
    }

    @Test func aSiteInOneLanguageKeepsItsSearchIndexAtTheRoot() async throws {
        let site = try ExportTestSite("-- glossary.yml --\ntitle: Type\nlanguages: [fr]\n-- content/index.md --\nBienvenue au café.\n")
        defer { site.remove() }
        let (_, files) = await site.build()
        let shard = try Self.onlyShard(files, folder: "")
        #expect(files.keys.filter { $0.contains("search/") && $0.hasSuffix(".json") }.sorted() == ["search/docs/0.json", "search/index.json", shard])
        // Accents folded: `cafe` and `café` are one term.
        #expect(files[shard]?.contains(#"["bienvenue","#) == true && files[shard]?.contains(#"["cafe","#) == true)
        #expect(files[shard]?.contains("café") == false)
    }

    @Test func aStringALanguageLacksIsEnglishWithAWarningNamingIt() async throws {
        let site = try ExportTestSite(
            """
            -- glossary.yml --
            title: Type
            languages: [en, fr, sv]
            -- content/index.md --
            Welcome.
            -- themes/default/i18n/en.yml --
            new_label: New
            """)
        defer { site.remove() }
        let (result, files) = await site.build()
        #expect(
            result.diagnostics.map(\.description) == [
                "glossary.yml:2:12: warning: the theme has no 'fr' string 'new_label'; the English one is shown [missing-translation]",
                "glossary.yml:2:12: warning: the theme has no strings in 'sv' (i18n/sv.yml); the English ones are shown [missing-translation]",
            ])
        #expect(files["index.html"]?.contains(##"<a class="skip-link" href="#main">Skip to content</a>"##) == true)
    }

    @Test func everyLocaleOfTheDefaultThemeHasEveryString() {
        let strings = BuiltInThemeStrings.load()
        #expect(Set(strings.byLanguage.keys) == ["en", "fr", "de", "es", "it", "pt", "nl"])
        for language in strings.byLanguage.keys.sorted() {
            #expect(strings.missing(in: language) == [], "\(language)")
            #expect(Set((strings.byLanguage[language] ?? [:]).keys) == Set((strings.byLanguage["en"] ?? [:]).keys), "\(language)")
        }
    }
}

/// The built-in theme's strings, as a build reads them.
enum BuiltInThemeStrings {
    static func load() -> ThemeStrings {
        var problems: [Diagnostic] = []
        let strings = ThemeLayer(name: "default", source: .builtIn).strings(displayPath: \.path, problems: &problems)
        return ThemeStrings(byLanguage: strings)
    }
}

/// Terms per language: each language's entries in its glossary folder, resolved for that language's pages (with
/// Snowball's forms), and each language's term pages, A–Z index, terms JSON and dictionary page in its folder.
@Suite struct MultilingualTermsTests {
    static let site =
        """
        -- glossary.yml --
        title: Type
        site: https://docs.example.org
        languages: [en, fr, de]
        -- content/index.md --
        A [[server]] and a [[database]].
        -- content/fr/index.md --
        Des [[serveurs]].
        -- content/de/index.md --
        ---
        autolink: all
        ---
        Viele Datenbanken.
        -- content/glossary/server.md --
        ---
        term: server
        concept: srv
        ---
        A computer that serves.
        -- content/glossary/database.md --
        ---
        term: database
        concept: db
        ---
        Stored data.
        -- content/fr/glossary/serveur.md --
        ---
        term: serveur
        concept: srv
        ---
        Un ordinateur qui sert.
        -- content/de/glossary/datenbank.md --
        ---
        term: Datenbank
        concept: db
        ---
        Gespeicherte Daten.
        """

    /// The term links of `html`, as written.
    static func termLinks(_ html: String) -> [String] {
        html.components(separatedBy: "<a class=\"term\"").dropFirst().map { "<a class=\"term\"" + ($0.components(separatedBy: "</a>").first ?? "") + "</a>" }
    }

    @Test func eachLanguageResolvesItsOwnEntriesWithItsForms() async throws {
        let site = try ExportTestSite(Self.site)
        defer { site.remove() }
        let (_, files) = await site.build()
        #expect(
            Self.termLinks(files["index.html"] ?? "") == [
                #"<a class="term" href="/terms/server/" data-term="server">server</a>"#,
                #"<a class="term" href="/terms/database/" data-term="database">database</a>"#,
            ])
        #expect(Self.termLinks(files["fr/index.html"] ?? "") == [#"<a class="term" href="/fr/terms/serveur/" data-term="serveur">serveurs</a>"#])
        #expect(
            Self.termLinks(files["de/index.html"] ?? "") == [
                #"<a class="term" href="/de/terms/datenbank/" data-term="datenbank" data-autolink>Datenbanken</a>"#
            ])
    }

    @Test func eachLanguageHasItsTermPagesIndexTermsJSONAndDictionaryPage() async throws {
        let site = try ExportTestSite(Self.site)
        defer { site.remove() }
        let (result, files) = await site.build()
        let generated = Set(files.keys.filter { $0.contains("terms/") && !$0.contains("api") || $0.hasSuffix("search/index.html") })
        #expect(
            generated == [
                "terms/index.html", "terms/index.json", "terms/server/index.html", "terms/database/index.html", "search/index.html",
                "fr/terms/index.html", "fr/terms/index.json", "fr/terms/serveur/index.html", "fr/search/index.html",
                "de/terms/index.html", "de/terms/index.json", "de/terms/datenbank/index.html", "de/search/index.html",
            ])
        #expect(!(result.outputPaths ?? []).contains("fr/glossary/serveur/index.html"))
        #expect(
            files["fr/terms/index.json"]
                == #"{"terms":[{"aliases":[],"key":"serveur","slug":"serveur","source":"glossary","summary":"Un ordinateur qui sert.","summary_html":"Un ordinateur qui sert.","url":"/fr/terms/serveur/","word":"serveur"}]}"#
                + "\n")
        #expect(MultilingualSiteTests.languageLines(files["fr/terms/serveur/index.html"] ?? "").first == #"<html lang="fr">"#)
        #expect(MultilingualSiteTests.languageLines(files["de/terms/index.html"] ?? "").first == #"<html lang="de">"#)
        #expect(MultilingualSiteTests.languageLines(files["de/search/index.html"] ?? "").first == #"<html lang="de">"#)
        // The A–Z index lists its language's terms only.
        let index = files["de/terms/index.html"] ?? ""
        #expect(index.contains(#"href="/de/terms/datenbank/""#) && !index.contains("/terms/server/") && !index.contains("serveur"))
        // Cards read their language's terms.
        #expect(files["fr/index.html"]?.contains(#"data-terms-json="/fr/terms/index.json""#) == true)
    }

    @Test func theSitemapListsEveryLanguageTermPages() async throws {
        let site = try ExportTestSite(Self.site)
        defer { site.remove() }
        let (_, files) = await site.build()
        let locations = (files["sitemap.xml"] ?? "").components(separatedBy: "<loc>").dropFirst().compactMap { $0.components(separatedBy: "</loc>").first }
        #expect(
            Array(locations.suffix(7)) == [
                "https://docs.example.org/terms/", "https://docs.example.org/terms/database/", "https://docs.example.org/terms/server/",
                "https://docs.example.org/fr/terms/", "https://docs.example.org/fr/terms/serveur/",
                "https://docs.example.org/de/terms/", "https://docs.example.org/de/terms/datenbank/",
            ])
    }

    /// The lines of `html` in its "in other languages" section.
    static func translationLines(_ html: String) -> [String] {
        guard let start = html.range(of: "<section class=\"translations\""), let end = html.range(of: "</section>", range: start.upperBound..<html.endIndex)
        else { return [] }
        return html[start.lowerBound..<end.upperBound].split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test func aTermPageListsItsConceptInTheOtherLanguagesAndItsSwitcherLeadsThere() async throws {
        let site = try ExportTestSite(Self.site)
        defer { site.remove() }
        let (_, files) = await site.build()
        #expect(
            Self.translationLines(files["terms/server/index.html"] ?? "") == [
                #"<section class="translations" aria-labelledby="translations-heading">"#,
                #"<h2 id="translations-heading">In other languages</h2>"#,
                #"<ul class="nym-list"><li><a href="/fr/terms/serveur/" hreflang="fr" lang="fr">serveur</a> <span class="translation-language">(Français)</span></li></ul>"#,
                "</section>",
            ])
        #expect(
            Self.translationLines(files["fr/terms/serveur/index.html"] ?? "") == [
                #"<section class="translations" aria-labelledby="translations-heading">"#,
                #"<h2 id="translations-heading">Dans d’autres langues</h2>"#,
                #"<ul class="nym-list"><li><a href="/terms/server/" hreflang="en" lang="en">server</a> <span class="translation-language">(English)</span></li></ul>"#,
                "</section>",
            ])
        // The switcher leads to the concept's term page, else to the language's A–Z index.
        #expect(
            MultilingualSiteTests.languageLines(files["fr/terms/serveur/index.html"] ?? "").prefix(7) == [
                #"<html lang="fr">"#,
                #"<link rel="alternate" hreflang="en" href="https://docs.example.org/terms/server/">"#,
                #"<link rel="alternate" hreflang="fr" href="https://docs.example.org/fr/terms/serveur/">"#,
                #"<a class="site-title" href="/fr/">"#,
                #"<li><a href="/terms/server/" hreflang="en" lang="en">English</a></li>"#,
                #"<li><a href="/fr/terms/serveur/" hreflang="fr" lang="fr" aria-current="true">Français</a></li>"#,
                #"<li><a href="/de/terms/" hreflang="de" lang="de">Deutsch</a></li>"#,
            ])
        #expect(Self.translationLines(files["de/terms/datenbank/index.html"] ?? "").count == 4)
        #expect(files["fr/terms/serveur/index.html"]?.contains(#"<p class="term-kicker"><a href="/fr/terms/">Glossaire</a>"#) == true)
        // An A–Z index's versions are the other languages' indexes.
        #expect(
            MultilingualSiteTests.languageLines(files["de/terms/index.html"] ?? "").filter { $0.hasPrefix("<li>") } == [
                #"<li><a href="/terms/" hreflang="en" lang="en">English</a></li>"#,
                #"<li><a href="/fr/terms/" hreflang="fr" lang="fr">Français</a></li>"#,
                #"<li><a href="/de/terms/" hreflang="de" lang="de" aria-current="true">Deutsch</a></li>"#,
            ])
    }

    static let untranslated = [
        "content/glossary/database.md:3:10: note: concept 'db' has no entry in fr (Français) [concept-untranslated]",
        "content/glossary/server.md:3:10: note: concept 'srv' has no entry in de (Deutsch) [concept-untranslated]",
    ]

    @Test func aConceptMissingInALanguageIsANoteThatStrictDoesNotFail() async throws {
        let site = try ExportTestSite(Self.site)
        defer { site.remove() }
        var options = site.options
        options.strict = true
        let result = await SiteBuilder(options: options).build(into: MemorySink())
        #expect(result.diagnostics.map(\.description) == Self.untranslated)
        #expect(result.output?.files["fr/terms/serveur/index.html"] != nil)
    }

    @Test func requireAllLanguagesMakesAMissingConceptAWarning() async throws {
        let site = try ExportTestSite(
            Self.site.replacingOccurrences(of: "languages: [en, fr, de]", with: "languages: [en, fr, de]\nrequire_all_languages: true"))
        defer { site.remove() }
        var options = site.options
        options.strict = true
        let result = await SiteBuilder(options: options).build(into: MemorySink())
        #expect(result.diagnostics.map(\.description) == Self.untranslated.map { $0.replacingOccurrences(of: ": note:", with: ": warning:") })
        #expect(result.output == nil)
    }

    @Test func showSourceTermGivesCardsInOtherLanguagesTheDefaultLanguageTerm() async throws {
        let site = try ExportTestSite(
            Self.site.replacingOccurrences(of: "languages: [en, fr, de]", with: "languages: [en, fr, de]\ncards: {show_source_term: true}"))
        defer { site.remove() }
        let (_, files) = await site.build()
        #expect(
            files["fr/terms/index.json"]
                == #"{"terms":[{"aliases":[],"key":"serveur","slug":"serveur","source":"glossary","source_term":{"language":"en","word":"server"},"summary":"Un ordinateur qui sert.","summary_html":"Un ordinateur qui sert.","url":"/fr/terms/serveur/","word":"serveur"}]}"#
                + "\n")
        #expect(files["terms/index.json"]?.contains("source_term") == false)
    }

    @Test func theExportsListEveryLanguageTermsWithTheirOwnAliases() async throws {
        let site = try ExportTestSite(Self.site.replacingOccurrences(of: "term: serveur\n", with: "term: serveur\naliases: [Serveur, hôte]\n"))
        defer { site.remove() }
        let (_, files) = await site.build()
        let json = try JSONParser.parse(Array((files["glossary.json"] ?? "").utf8))
        guard case .array(let terms) = json["terms"] else {
            Issue.record("no terms")
            return
        }
        let serveur = terms.first { $0["word"] == .string("serveur") }
        #expect(serveur?["aliases"] == .array([.string("hôte")]))
        #expect(serveur?["url"] == .string("https://docs.example.org/fr/terms/serveur/"))
        #expect(terms.compactMap { if case .string(let word) = $0["word"] { word } else { nil } } == ["database", "server", "Datenbank", "serveur"])
    }
}
