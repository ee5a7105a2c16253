import Foundation
import Testing

@testable import GlossaryKit

/// The default theme in the site's language: every word it shows comes from its locale file (`i18n/<lang>.yml`),
/// those its scripts show too (`data-strings`), and dates are written with the locale's month names.
@Suite struct ThemeLanguageTests {
    static func site(_ language: String, extra: String = "") -> String {
        """
        -- glossary.yml --
        title: Type
        language: \(language)
        -- content/index.md --
        ---
        title: Start
        date: 2024-03-05
        ---
        Text.
        -- content/glossary/kerning.md --
        ---
        term: Kerning
        ---
        The space between two letters.
        """ + extra
    }

    /// The JSON of the first `data-strings` attribute of `html`.
    static func scriptStrings(_ html: String) throws -> JSONValue? {
        guard let start = html.range(of: "data-strings=\"") else { return nil }
        let json = html[start.upperBound...].prefix { $0 != "\"" }.replacingOccurrences(of: "&quot;", with: "\"")
        return try JSONParser.parse(Array(json.utf8))
    }

    static let fragments: [(language: String, files: [String: [String]])] = [
        (
            "fr",
            [
                "index.html": [
                    #"<p class="page-meta">Mis à jour le <time datetime="2024-03-05">5 mars 2024</time></p>"#,
                    "<p>Type · créé avec \(SiteRenderer.generator).</p>",
                    #"<p>Chaque page de terme indique la source et la licence de sa définition. Définitions du dictionnaire : <a href="https://dictionaryapi.dev/" target="_blank" rel="noopener">Free Dictionary API</a>, d’après <a href="https://en.wiktionary.org/""#,
                ],
                "404.html": [
                    #"<h1 class="page-title">Page introuvable</h1>"#, "<p>Il n’y a aucune page à cette adresse. Essayez plutôt :</p>",
                    #"<ul class="not-found-links"><li><a href="/">Accueil</a></li><li><a href="/terms/">Glossaire</a></li><li><a href="/search/">Dictionnaire</a></li></ul>"#,
                ],
                "terms/index.html": [
                    #"<p class="lead">1 terme, issu des entrées de l’équipe et des dictionnaires. <a href="/search/">Cherchez tout autre mot dans le dictionnaire.</a></p>"#
                ],
                "terms/kerning/index.html": ["<p>Rédigé par l’équipe de ce glossaire.</p>"],
                "search/index.html": [
                    "<p class=\"lead\">Cherchez un mot : les termes de ce glossaire s’affichent pendant la saisie, et tout autre mot français est cherché dans la Free Dictionary API.</p>",
                    #"<p>Saisissez un mot ci-dessus et appuyez sur Entrée. <a href="/terms/">Parcourir tous les termes dans l’index du glossaire.</a></p>"#,
                ],
            ]
        ),
        (
            "de",
            [
                "index.html": [
                    #"<p class="page-meta">Aktualisiert am <time datetime="2024-03-05">5. März 2024</time></p>"#,
                    "<p>Type · erstellt mit \(SiteRenderer.generator).</p>",
                    #"<p>Jede Begriffsseite nennt Quelle und Lizenz ihrer Definition. Wörterbuchdefinitionen: <a href="https://dictionaryapi.dev/" target="_blank" rel="noopener">Free Dictionary API</a>, basierend auf <a href="https://en.wiktionary.org/""#,
                ],
                "404.html": [
                    #"<h1 class="page-title">Seite nicht gefunden</h1>"#, "<p>Unter dieser Adresse gibt es keine Seite. Versuchen Sie es hier:</p>",
                    #"<ul class="not-found-links"><li><a href="/">Startseite</a></li><li><a href="/terms/">Glossar</a></li><li><a href="/search/">Wörterbuch</a></li></ul>"#,
                ],
                "terms/index.html": [
                    #"<p class="lead">1 Begriff aus den eigenen Einträgen des Teams und den Wörterbüchern. <a href="/search/">Schlagen Sie jedes andere Wort im Wörterbuch nach.</a></p>"#
                ],
                "terms/kerning/index.html": ["<p>Verfasst vom Team dieses Glossars.</p>"],
                "search/index.html": [
                    "<p class=\"lead\">Schlagen Sie ein Wort nach: Begriffe aus diesem Glossar erscheinen schon beim Tippen, jedes andere deutsche Wort wird in der Free Dictionary API nachgeschlagen.</p>"
                ],
            ]
        ),
    ]

    @Test(arguments: fragments)
    func theDefaultThemeWritesTheSiteLanguage(language: String, files expected: [String: [String]]) async throws {
        let site = try ExportTestSite(Self.site(language))
        defer { site.remove() }
        let (result, files) = await site.build()
        #expect(result.diagnostics.map(\.description) == [])
        for (path, fragments) in expected {
            for fragment in fragments { #expect(files[path]?.contains(fragment) == true, "\(path): \(fragment)") }
        }
    }

    /// The dictionary page's states and the scripts' words, as the page hands them to its scripts.
    @Test(arguments: [
        ("fr", "« zzz » ne figure ni dans ce glossaire ni dans le dictionnaire.", "Recherche de « zzz »…", "Aucune définition trouvée", "Copier"),
        ("de", "„zzz“ steht weder in diesem Glossar noch im Wörterbuch.", "„zzz“ wird nachgeschlagen…", "Keine Definition gefunden", "Kopieren"),
    ])
    func theScriptsGetTheSiteLanguageWords(language: String, notFound: String, loading: String, title: String, copy: String) async throws {
        let site = try ExportTestSite(Self.site(language))
        defer { site.remove() }
        let (_, files) = await site.build()
        let dictionary = try #require(try Self.scriptStrings(files["search/index.html"] ?? ""))
        let fill = { (name: String) -> String? in
            guard case .string(let text) = dictionary[name] else { return nil }
            return text.replacingOccurrences(of: "{word}", with: "zzz")
        }
        #expect(fill("not_in_glossary_or_dictionary") == notFound)
        #expect(fill("looking_up") == loading)
        #expect(fill("no_definitions_found") == title)
        #expect(fill("copy") == copy)
        // Other pages carry what their scripts show, not the dictionary page's states.
        let page = try #require(try Self.scriptStrings(files["index.html"] ?? ""))
        #expect(page["copy"] == .string(copy))
        #expect(page["looking_up"] == nil)
    }

    @Test func aSiteOverridesOneStringOfTheThemeAndOfItsScripts() async throws {
        let site = try ExportTestSite(
            Self.site(
                "en",
                extra: """

                    -- themes/default/i18n/en.yml --
                    built_with: made with
                    copy: Copy it
                    """))
        defer { site.remove() }
        let (result, files) = await site.build()
        #expect(result.diagnostics.map(\.description) == [])
        #expect(files["index.html"]?.contains("<p>Type · made with \(SiteRenderer.generator).</p>") == true)
        // The scripts' English is the built-in theme's: an English page carries only what the site changed.
        let strings = try #require(try Self.scriptStrings(files["index.html"] ?? ""))
        #expect(strings["copy"] == .string("Copy it"))
        #expect(strings["search"] == .string("Search"))
    }

    @Test func anEnglishSiteDatesAndCountsInEnglishAndItsPagesCarryNoStrings() async throws {
        let site = try ExportTestSite(Self.site("en"))
        defer { site.remove() }
        let (_, files) = await site.build()
        #expect(files["index.html"]?.contains(#"<p class="page-meta">Updated <time datetime="2024-03-05">March 5, 2024</time></p>"#) == true)
        #expect(files["index.html"]?.contains("data-strings") == false)
        #expect(files["search/index.html"]?.contains("data-strings") == false)
        #expect(files["terms/index.html"]?.contains(#"<p class="lead">1 term, from the team’s own entries and the dictionaries."#) == true)
    }

    @Test(arguments: [
        ("2024-03-05", "de", "5. März 2024"), ("2024-12-01T10:00:00Z", "fr", "1er décembre 2024"), ("2024-12-01", "en", "December 1, 2024"),
        ("2024-01-09", "pt", "9 de janeiro de 2024"),
        ("2024-13-01", "fr", "2024-13-01"), ("March 2024", "fr", "March 2024"), ("2024-03-05x", "fr", "2024-03-05x"),
    ])
    func datesAreWrittenInTheLanguageOrAsWritten(date: String, language: String, text: String) async throws {
        let renderer = try await SiteRendererTests.renderer()
        #expect(renderer.dateText(date, in: language) == text)
    }

    /// Each English word a script of the default theme has of its own is en.yml's, and a page hands it the string.
    @Test func theScriptsEnglishIsTheLocaleFilesAndEveryStringTheyShowIsHandedToThem() throws {
        let english = BuiltInTheme.englishStrings
        let handed = Set(SiteRenderer.pageScriptStrings + SiteRenderer.dictionaryScriptStrings)
        #expect(handed.subtracting(english.keys).isEmpty)
        let pattern = try Regex(#"say\("([a-z_]+)", "([^"]*)""#)
        var names = Set<String>()
        for (path, data) in BuiltInTheme.files where path.hasPrefix("assets/js/") && path != "assets/js/embed.js" {
            for match in String(decoding: data, as: UTF8.self).matches(of: pattern) {
                let name = String(match.output[1].substring ?? "")
                #expect(english[name] == String(match.output[2].substring ?? ""), "\(path): \(name)")
                #expect(handed.contains(name), "\(path): \(name)")
                names.insert(name)
            }
        }
        // Every string handed over is one a script shows (the accents' by their code, `accent_` + code).
        #expect(handed.subtracting(names).sorted() == ["accent_au", "accent_ca", "accent_uk", "accent_us"])
    }

    @Test func theSidebarCountsWhatItLeavesOutInThePageLanguage() async throws {
        var text = "-- glossary.yml --\ntitle: T\nlanguages: [en, de]\n-- content/index.md --\nHome.\n"
        for number in 10...29 { text += "-- content/de/notes/n\(number).md --\n---\ntitle: Notiz \(number)\n---\nText.\n" }
        let site = try ExportTestSite(text)
        defer { site.remove() }
        let (_, files) = await site.build()
        let page = try #require(files["de/notes/n20/index.html"])
        #expect(page.contains(#"<li class="nav-more"><a href="/de/notes/">7 weitere</a></li>"#))
        #expect(page.contains(#"<li class="nav-more"><a href="/de/notes/">6 weitere</a></li>"#))
    }

    /// A string's `{key}`s are filled in one pass: a value is never filled in itself, and other braces stay.
    @Test func placeholdersAreFilledOnceEach() {
        #expect(SiteRenderer.filled("{day} {month} {year}", ["day": "1er", "month": "mars", "year": "2024"]) == "1er mars 2024")
        #expect(SiteRenderer.filled("{a} and {b}", ["a": "{b}", "b": "x"]) == "{b} and x")
        #expect(SiteRenderer.filled("{unknown} {count} { count} {", ["count": "3"]) == "{unknown} 3 { count} {")
        #expect(SiteRenderer.filled("«{count}» pages, {count} fois", ["count": "3"]) == "«3» pages, 3 fois")
        #expect(SiteRenderer.filled("no braces", ["count": "3"]) == "no braces")
    }
}
