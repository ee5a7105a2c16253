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
        #expect(files["index.html"]?.contains(#"data-term="log_in""#) == true)
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
