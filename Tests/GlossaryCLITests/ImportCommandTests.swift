import Foundation
import Testing

/// `glossary import` reads the site's languages from its `glossary.yml`: each language's entries go to its folder.
@Suite struct ImportCommandTests {
    @Test func aMultilingualSiteGetsEachLanguagesEntriesInItsFolder() async throws {
        let site = try TestSite(
            """
            -- glossary.yml --
            title: T
            languages: [en, fr]
            -- content/index.md --
            Hello.
            -- terms.csv --
            term,language,concept
            server,en,c1
            serveur,fr,c1
            Server,de,c1

            """)
        defer { site.remove() }
        let dry = try await site.run(["import", "terms.csv", "--dry-run"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout == "Would write content/glossary/server.md\nWould write content/fr/glossary/serveur.md\n")
        #expect(dry.stderr.hasPrefix("terms.csv:4:1: warning: a row in 'de' (the site is in 'en', 'fr') is not imported"))
        let written = try await site.run(["import", "terms.csv"])
        #expect(written.status == 0, "\(written.stderr)")
        #expect(site.read("content/fr/glossary/serveur.md") == "---\nterm: \"serveur\"\nconcept: \"c1\"\n---\n")
    }
}
