import Foundation
import Testing

@testable import GlossaryKit

/// Deprecated and forbidden names: a page writing one — as a reference or a plain word, in any inflected form the
/// auto-linking matcher knows — gets `deprecated-term` (a warning) or `forbidden-term` (an error), with a note at the
/// preferred term's entry.
@Suite struct TermStatusTests {
    static let entries = """
        -- content/glossary/log-in.md --
        ---
        term: log in
        part_of_speech: verb
        deprecated: [logon]
        forbidden: [login]
        ---
        To open a session. Never write login.
        -- content/glossary/server.md --
        ---
        term: server
        ---
        A computer that serves.
        -- content/glossary/host.md --
        ---
        term: host
        status: deprecated
        use: server
        ---
        The old word.
        -- content/glossary/stop.md --
        ---
        term: stop
        forbidden: [kill]
        ---
        To end a process.

        """

    /// The build's diagnostics with their notes, as printed, for `page` as `content/index.md`.
    func diagnostics(_ page: String, config: String = "") async throws -> [String] {
        let site = try ExportTestSite("-- glossary.yml --\ntitle: T\n\(config)\n" + Self.entries + "-- content/index.md --\n" + page)
        defer { site.remove() }
        let (result, _) = await site.build()
        return result.diagnostics.map { diagnostic in
            ([diagnostic.description]
                + diagnostic.notes.map { note in "  note: \(note.location.map { "\($0.file):\($0.line):\($0.column)" } ?? ""): \(note.message)" })
                .joined(separator: "\n")
        }
    }

    @Test func aForbiddenReferenceIsAnErrorNamingThePreferredTerm() async throws {
        #expect(
            try await diagnostics("Please [[login]] first.\n") == [
                """
                content/index.md:1:10: error: 'login' is a forbidden term; use 'log in' [forbidden-term]
                  note: content/glossary/log-in.md:2:7: 'log in' is defined here
                """
            ])
    }

    @Test func aDeprecatedPlainWordIsAWarning() async throws {
        #expect(
            try await diagnostics("Use the logon screen.\n") == [
                """
                content/index.md:1:9: warning: 'logon' is a deprecated term; use 'log in' [deprecated-term]
                  note: content/glossary/log-in.md:2:7: 'log in' is defined here
                """
            ])
    }

    /// cmark places a text node after inline markup at a byte column; a column is counted in characters, so the
    /// characters of several bytes before it on the line don't move the name right (nor an auto-linked word: the
    /// language server's hover test).
    @Test(arguments: [("é *x* ", 7), ("中 [l](/) ", 10), ("😀 **b** ", 9), ("ab *x* ", 8)])
    func aNameAfterMarkupIsPlacedInCharacters(before: String, column: Int) async throws {
        #expect(
            try await diagnostics(before + "logon here.\n").first?.hasPrefix(
                "content/index.md:1:\(column): warning: 'logon' is a deprecated term; use 'log in' [deprecated-term]") == true)
    }

    @Test func inflectedFormsAreFoundByWordNet() async throws {
        #expect(
            try await diagnostics("Two hosts and\nthe processes killed.\n") == [
                """
                content/index.md:1:5: warning: 'hosts' is a form of 'host', a deprecated term; use 'server' [deprecated-term]
                  note: content/glossary/server.md:2:7: 'server' is defined here
                """,
                """
                content/index.md:2:15: error: 'killed' is a form of 'kill', a forbidden term; use 'stop' [forbidden-term]
                  note: content/glossary/stop.md:2:7: 'stop' is defined here
                """,
            ])
    }

    @Test func codeAndTheMarkingEntryItselfAreNotChecked() async throws {
        #expect(try await diagnostics("Type `login` here.\n\n```\nlogin\n```\n") == [])
    }

    @Test func aReferenceByADeprecatedNameStillLinksItsEntry() async throws {
        let site = try ExportTestSite("-- glossary.yml --\ntitle: T\n" + Self.entries + "-- content/index.md --\nSee [[logon]].\n")
        defer { site.remove() }
        let (_, files) = await site.build()
        #expect(files["index.html"]?.contains(#"href="/terms/log_in/" data-term="log in""#) == true)
    }

    @Test func termPagesShowTheStatus() async throws {
        let site = try ExportTestSite("-- glossary.yml --\ntitle: T\n" + Self.entries + "-- content/index.md --\nHello.\n")
        defer { site.remove() }
        let (_, files) = await site.build()
        #expect(
            files["terms/host/index.html"]?.contains(
                #"<p class="term-status" data-term-status="deprecated">Deprecated term · Use instead: <a href="/terms/server/">server</a></p>"#) == true)
        #expect(
            files["terms/log_in/index.html"]?.contains(
                #"<p class="term-status">Not to be written: <span class="sep-item">logon (deprecated)</span><span class="sep-item">login (forbidden)</span></p>"#
            )
                == true)
        #expect(files["terms/server/index.html"]?.contains("term-status") == false)
    }

    @Test func cardsAndTheTermAPISayAStatusOtherThanPreferredAndItsReplacement() async throws {
        let site = try ExportTestSite("-- glossary.yml --\ntitle: T\n" + Self.entries + "-- content/index.md --\nHello.\n")
        defer { site.remove() }
        let (_, files) = await site.build()
        let cards = try #require(files["terms/index.json"])
        #expect(
            cards.contains(
                #"{"aliases":[],"key":"host","slug":"host","source":"glossary","status":"deprecated","summary":"The old word.","summary_html":"The old word.","url":"/terms/host/","use":"server","word":"host"}"#
            ))
        #expect(cards.contains(#"{"aliases":[],"key":"server","slug":"server","source":"glossary","summary":"A computer that serves.","#))
        let api = try #require(files["terms/api.json"])
        #expect(api.contains(#"{"key":"host","word":"host","status":"deprecated","use":"server","url":"host/","summary_html":"The old word."}"#))
        #expect(api.contains(#"{"key":"server","word":"server","url":"server/","#))
        // Names an entry marks are its aliases: their cards are the entry's, which needs nothing new.
        #expect(cards.contains(#"{"aliases":["logon","login"],"key":"log in","part_of_speech":"verb","slug":"log_in","source":"glossary","summary":"#))
    }

    @Test func anUnknownStatusIsAConfigValueError() {
        let parsed = PageMetadata.parse(source: "---\nterm: x\nstatus: obsolete\n---\n", file: "e.md")
        #expect(parsed.metadata.status == nil)
        #expect(
            parsed.diagnostics.map(\.description) == [
                "e.md:3:9: error: 'status' must be one of preferred, admitted, deprecated, forbidden, found 'obsolete' [config-value]"
            ])
    }
}

/// Word forms beyond English: Snowball's stemmer for the site's language finds a name's forms in references and
/// plain words, for term status and for resolving references.
@Suite struct SnowballFormTests {
    func build(_ text: String) async throws -> (diagnostics: [String], files: [String: String]) {
        let site = try ExportTestSite(text)
        defer { site.remove() }
        let (result, files) = await site.build()
        return (result.diagnostics.map(\.description), files)
    }

    @Test func stemsAreSnowballs() throws {
        let french = try #require(SnowballStemmer(language: "fr"))
        #expect(french.stem("serveurs") == french.stem("serveur"))
        let german = try #require(SnowballStemmer(language: "de-AT"))
        #expect(german.stem("Datenbanken") == german.stem("Datenbank"))
        #expect(SnowballStemmer(language: "en") == nil)
        #expect(SnowballStemmer(language: "tlh") == nil)
    }

    @Test func aFrenchReferenceByAPluralLinksItsTerm() async throws {
        let (diagnostics, files) = try await build(
            """
            -- glossary.yml --
            title: T
            language: fr
            -- content/glossary/serveur.md --
            ---
            term: serveur
            ---
            Un ordinateur.
            -- content/index.md --
            Les [[serveurs]] répondent.

            """)
        #expect(diagnostics == [])
        #expect(files["index.html"]?.contains(#"<a class="term" href="/terms/serveur/" data-term="serveur">serveurs</a>"#) == true)
    }

    @Test func frenchDeprecatedAndForbiddenFormsAreFound() async throws {
        let (diagnostics, _) = try await build(
            """
            -- glossary.yml --
            title: T
            language: fr
            -- content/glossary/courriel.md --
            ---
            term: courriel
            deprecated: [mél]
            forbidden: [email]
            ---
            Un message électronique.
            -- content/index.md --
            Deux [[mél]] et trois emails.

            """)
        #expect(
            diagnostics == [
                "content/index.md:1:8: warning: 'mél' is a deprecated term; use 'courriel' [deprecated-term]",
                "content/index.md:1:23: error: 'emails' is a form of 'email', a forbidden term; use 'courriel' [forbidden-term]",
            ])
    }

    @Test func germanPluralsOfAForbiddenTermAreFound() async throws {
        let (diagnostics, _) = try await build(
            """
            -- glossary.yml --
            title: T
            language: de
            -- content/glossary/datenbank.md --
            ---
            term: Datenbank
            status: forbidden
            use: Datenspeicher
            ---
            Veraltet.
            -- content/glossary/datenspeicher.md --
            ---
            term: Datenspeicher
            ---
            Ein Speicher.
            -- content/index.md --
            Zwei Datenbanken.

            """)
        #expect(diagnostics == ["content/index.md:1:6: error: 'Datenbanken' is a form of 'Datenbank', a forbidden term; use 'Datenspeicher' [forbidden-term]"])
    }
}
