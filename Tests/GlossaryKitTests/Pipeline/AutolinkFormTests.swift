import Foundation
import Testing

@testable import GlossaryKit

/// Auto-linking finds a term's inflected forms as WordNet's Morphy reads them (the data Debian's `wordnet-base`
/// installs): regular plurals and verb forms, irregular ones from the exception lists, a multi-word term by its last
/// word; acronyms take only a plain `s`; the term page lists the forms found and counts the pages using them.
@Suite struct AutolinkFormTests {
    static let entries = """
        -- content/glossary/widget.md --
        ---
        term: widget
        aliases: [gizmo]
        ---
        A small device.
        -- content/glossary/keyboard.md --
        ---
        term: keyboard
        ---
        Keys in rows.
        -- content/glossary/index.md --
        ---
        term: index
        ---
        A list of where things are.
        -- content/glossary/goose.md --
        ---
        term: goose
        ---
        A bird.
        -- content/glossary/ssg.md --
        ---
        term: static site generator
        ---
        A tool.
        -- content/glossary/glass.md --
        ---
        term: glass
        ---
        A hard material.
        -- content/glossary/frobnicator.md --
        ---
        term: frobnicator
        ---
        A word WordNet doesn't know.
        -- content/glossary/api.md --
        ---
        term: API
        case_sensitive: true
        ---
        An interface.

        """

    /// The page's paragraphs as built, and the diagnostics.
    func paragraphs(_ page: String, config: String = "autolink: all") async throws -> (html: [String], diagnostics: [String]) {
        let site = try ExportTestSite("-- glossary.yml --\ntitle: T\n\(config)\n" + Self.entries + "-- content/index.md --\n" + page)
        defer { site.remove() }
        let (result, files) = await site.build()
        let html = (files["index.html"] ?? "").components(separatedBy: "<footer").first ?? ""
        return (html.matches(of: #/(?s)<p>(.*?)</p>/#).map { "<p>\($0.1)</p>" }, result.diagnostics.map(\.description))
    }

    let l = AutolinkBuildTests.link

    @Test func regularPluralsAndVerbFormsLinkToTheirTerm() async throws {
        let (html, diagnostics) = try await paragraphs("Widgets, two keyboards, gizmos and indexes.\n")
        #expect(diagnostics == [])
        #expect(
            html == [
                "<p>\(l("widget", "Widgets")), two \(l("keyboard", "keyboards")), \(l("widget", "gizmos")) and \(l("index", "indexes")).</p>"
            ])
    }

    @Test func irregularFormsComeFromWordNetsExceptionLists() async throws {
        let (html, _) = try await paragraphs("The indices of the geese.\n")
        #expect(html == ["<p>The \(l("index", "indices")) of the \(l("goose", "geese")).</p>"])
    }

    @Test func aMultiWordTermLinksWithItsLastWordInflected() async throws {
        let (html, _) = try await paragraphs("Static site generators, a static site generator, static sites generator.\n")
        #expect(
            html == [
                "<p>\(l("static_site_generator", "Static site generators")), a \(l("static_site_generator", "static site generator")), static sites generator.</p>"
            ])
    }

    @Test func aFormIsOnlyWhatMorphyMapsBackAndNoWordOfItsOwn() async throws {
        // `glasses` is a word of its own in WordNet (spectacles), as `[[glasses]]` would be; a word WordNet doesn't
        // know takes no forms; `boxs`-like misspellings are never generated (`glass` + s).
        let (html, _) = try await paragraphs("Glasses of glass, frobnicators and a frobnicator, glasss.\n")
        #expect(html == ["<p>Glasses of \(l("glass", "glass")), frobnicators and a \(l("frobnicator", "frobnicator")), glasss.</p>"])
    }

    @Test func firstLinksATermOnceWhicheverFormOrAliasComesFirst() async throws {
        let (html, _) = try await paragraphs(
            "Two widgets, a widget, a gizmo. Then [[keyboards]] and a keyboard, geese and a goose.\n", config: "autolink: first")
        #expect(
            html == [
                "<p>Two \(l("widget", "widgets")), a widget, a gizmo. Then <a class=\"term\" href=\"/terms/keyboard/\" data-term=\"keyboard\">keyboards</a> "
                    + "and a keyboard, \(l("goose", "geese")) and a goose.</p>"
            ])
    }

    @Test func aCaseSensitiveAcronymTakesOnlyAPlainS() async throws {
        let (html, _) = try await paragraphs("APIs and the API; not apis, Apis, APIS or APIes.\n")
        #expect(html == ["<p>\(l("api", "APIs")) and the \(l("api", "API")); not apis, Apis, APIS or APIes.</p>"])
    }

    @Test func theInflectionsOfATermAreMadeFromItsFormsAndAcronymsStayExact() {
        let inflected = AutolinkSettings.Term(term: TermKey("url")!, forms: ["URL", "Go"], caseSensitive: true).inflections { _ in ["never"] }
        #expect(inflected == ["URLs"])
        let plain = AutolinkSettings.Term(term: TermKey("box")!, forms: ["box", "crate"], caseSensitive: false).inflections { ["\($0)-1", "\($0)-2"] }
        #expect(plain == ["box-1", "box-2", "crate-1", "crate-2"])
    }

    @Test func regularInflectionsInvertMorphysSuffixRules() {
        #expect(WordNetDictionary.regularInflections(of: "box", as: .noun) == ["boxes"])
        #expect(WordNetDictionary.regularInflections(of: "story", as: .noun) == ["stories"])
        #expect(WordNetDictionary.regularInflections(of: "day", as: .noun) == ["days"])
        #expect(WordNetDictionary.regularInflections(of: "fireman", as: .noun) == ["firemans", "firemen"])
        #expect(WordNetDictionary.regularInflections(of: "parse", as: .verb) == ["parses", "parsed", "parsing"])
        #expect(WordNetDictionary.regularInflections(of: "carry", as: .verb) == ["carries", "carried", "carrying"])
        #expect(WordNetDictionary.regularInflections(of: "see", as: .verb) == ["sees", "seed", "seeing"])
        #expect(WordNetDictionary.regularInflections(of: "index", as: .verb) == ["indexes", "indexed", "indexing"])
    }

    @Test func aTeamTermsFormWinsOverTheSameWordReferencedAsADictionaryTerm() async throws {
        // `[[widgets]]` makes `widgets` a referenced word; in plain text it is still the widget's form, so `first`
        // links the widget once.
        let site = try ExportTestSite(
            "-- glossary.yml --\ntitle: T\nautolink: first\nautolink_dictionary: true\n" + Self.entries
                + "-- content/a.md --\n---\ntitle: A\n---\nSee [[widgets]].\n-- content/index.md --\nTwo widgets, a widget.\n")
        defer { site.remove() }
        let (_, files) = await site.build()
        #expect(files["index.html"]?.contains("<p>Two \(l("widget", "widgets")), a widget.</p>") == true)
    }

    @Test func theTermPageListsAutoLinkedFormsAndThePagesUsingThem() async throws {
        let site = try ExportTestSite(
            "-- glossary.yml --\ntitle: T\nautolink: all\n" + Self.entries
                + "-- content/index.md --\n---\ntitle: Home\n---\nSome geese.\n-- content/more.md --\n---\ntitle: More\n---\nIndices and a gizmo.\n")
        defer { site.remove() }
        let (_, files) = await site.build()
        let goose = files["terms/goose/index.html"] ?? ""
        #expect(goose.contains("<p class=\"forms-used\">Forms used: <span class=\"sep-item\">geese</span></p>"))
        #expect(goose.contains("<a href=\"/\">Home</a>"))
        let index = files["terms/index/index.html"] ?? ""
        #expect(index.contains("<p class=\"forms-used\">Forms used: <span class=\"sep-item\">indices</span></p>"))
        #expect(index.contains("<a href=\"/more/\">More</a>"))
        // An alias is no form: the widget's page lists the page but no forms.
        let widget = files["terms/widget/index.html"] ?? ""
        #expect(widget.contains("<a href=\"/more/\">More</a>"))
        #expect(!widget.contains("forms-used"))
    }
}
