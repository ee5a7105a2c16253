import Foundation
import Testing

@testable import GlossaryKit

/// A multilingual site built again after edits that change which pages are translations of which (a page added in
/// one language, a `translation_of:`, a site string, the list of languages), or a language's terms (an entry added,
/// edited, moved to another language, its concept changed), gives what a build from nothing gives.
@Suite struct MultilingualIncrementalTests {
    static let startingSite: [String: String] = [
        "glossary.yml": "title: Site\nlanguages: [en, fr, de]\n",
        "content/index.md": "---\ntitle: Home\n---\nWelcome to [[kerning]].\n",
        "content/guide/intro.md": "---\ntitle: Intro\n---\n# Intro\n\nAbout [[kerning]].\n",
        "content/fr/index.md": "---\ntitle: Accueil\n---\nBienvenue.\n",
        "content/de/index.md": "---\ntitle: Startseite\n---\nWillkommen.\n",
        "content/glossary/kerning.md": "---\nterm: Kerning\n---\nThe space between two letters.\n",
    ]

    static let edits: [(String, @Sendable (IncrementalBuildTests.Folder) throws -> Void)] = [
        ("translate a page by its path", { try $0.write("content/de/guide/intro.md", "---\ntitle: Einführung\n---\nÜber Typografie.\n") }),
        (
            "translate a page by translation_of",
            { try $0.write("content/fr/guide/presentation.md", "---\ntitle: Présentation\ntranslation_of: guide/intro.md\n---\nÀ propos.\n") }
        ),
        ("edit a translation's text", { try $0.append("content/fr/guide/presentation.md", "\nEncore.\n") }),
        // The French search index patched, the others kept.
        ("edit the French home's text", { try $0.append("content/fr/index.md", "\nUn café crème, à côté.\n") }),
        ("edit the German home's text", { try $0.append("content/de/index.md", "\nKaffee und Kuchen.\n") }),
        ("change a site string", { try $0.write("themes/default/i18n/fr.yml", "dark_mode: Thème sombre\n") }),
        ("remove a translation", { try $0.remove("content/de/guide/intro.md") }),
        (
            "add a French entry",
            { try $0.write("content/fr/glossary/crenage.md", "---\nterm: crénage\nconcept: kern\n---\nL’espace entre deux lettres.\n") }
        ),
        ("link it by a form", { try $0.write("content/fr/index.md", "---\ntitle: Accueil\n---\nBienvenue au [[crénages]].\n") }),
        ("edit the text of a page linking it", { try $0.append("content/fr/index.md", "\nEncore.\n") }),
        ("edit the French entry", { try $0.append("content/fr/glossary/crenage.md", "\nEncore.\n") }),
        (
            "give an entry its concept",
            { try $0.write("content/glossary/kerning.md", "---\nterm: Kerning\nconcept: kern\n---\nThe space between two letters.\n") }
        ),
        ("edit the French entry of a shared concept", { try $0.append("content/fr/glossary/crenage.md", "\nDe nouveau.\n") }),
        ("show source terms", { try $0.write("glossary.yml", "title: Site\nlanguages: [en, fr, de]\ncards: {show_source_term: true}\n") }),
        (
            "change a concept",
            { try $0.write("content/fr/glossary/crenage.md", "---\nterm: crénage\nconcept: spacing\n---\nL’espace entre deux lettres.\n") }
        ),
        (
            "move an entry to another language",
            {
                try $0.write("content/de/glossary/crenage.md", "---\nterm: crénage\nconcept: kern\n---\nL’espace entre deux lettres.\n")
                try $0.remove("content/fr/glossary/crenage.md")
            }
        ),
        ("drop a language", { try $0.write("glossary.yml", "title: Site\nlanguages: [en, fr]\n") }),
        ("back to one language", { try $0.write("glossary.yml", "title: Site\n") }),
    ]

    @Test(arguments: IncrementalBuildTests.Mode.allCases)
    func incrementalBuildsOfAMultilingualSiteEqualCleanBuilds(mode: IncrementalBuildTests.Mode) async throws {
        let folder = try IncrementalBuildTests.Folder(Self.startingSite, theme: .builtIn)
        let builds = try IncrementalBuildTests.Builds(folder, mode: mode)
        await builds.check("first build")
        for (name, edit) in Self.edits {
            try edit(folder)
            let result = await builds.check(name)
            // A French page's text, its term links in its language's folder, takes the text-edit shortcut.
            if name == "edit the text of a page linking it" { #expect(result.stats.textEdit, "\(name)") }
        }
    }

    /// A text edit of a page in another language patches that language's search index only, as a clean build makes it.
    @Test(arguments: IncrementalBuildTests.Mode.allCases)
    func aTextEditPatchesThePageLanguageSearchIndex(mode: IncrementalBuildTests.Mode) async throws {
        var site = Self.startingSite
        site["content/fr/guide/intro.md"] = "---\ntitle: Introduction\n---\nÀ propos.\n"
        let folder = try IncrementalBuildTests.Folder(site, theme: .builtIn)
        let builds = try IncrementalBuildTests.Builds(folder, mode: mode)
        await builds.check("first build")
        try folder.append("content/fr/guide/intro.md", "\nUn café crème.\n")
        let edited = await builds.check("edit a French page's text")
        #expect(edited.stats.textEdit)
        let changed = edited.outputs?.changed ?? []
        #expect(changed.contains("fr/guide/intro/index.html") && changed.contains("fr/search/index.json"))
        #expect(changed.allSatisfy { $0 == "fr/guide/intro/index.html" || $0 == "llms-full.txt" || $0.hasPrefix("fr/search/") }, "\(changed.sorted())")
        try folder.append("content/fr/guide/intro.md", "\nEt un autre café.\n")
        try folder.append("content/guide/intro.md", "\nAnd a coffee.\n")
        #expect(await builds.check("edit pages in two languages").stats.textEdit)
    }

    /// Each language's term index is sharded on its own as its terms come and go; a text edit of a page linking a term
    /// whose key is not its slug (`crénage`) names it by key, as a clean build does.
    @Test(arguments: IncrementalBuildTests.Mode.allCases)
    func eachLanguagesTermIndexShardsFollowItsTerms(mode: IncrementalBuildTests.Mode) async throws {
        let folder = try IncrementalBuildTests.Folder(Self.startingSite, theme: .builtIn)
        let builds = try IncrementalBuildTests.Builds(folder, mode: mode)
        builds.termShards = TermShards.Limits(file: 400, shard: 200)
        await builds.check("first build")
        func entry(_ word: String) throws {
            try folder.write("content/fr/glossary/\(word).md", "---\nterm: \(word)\n---\nLe mot \(word).\n")
        }
        try entry("crénage")
        try folder.write("content/fr/index.md", "---\ntitle: Accueil\n---\nBienvenue au [[crénage]].\n")
        await builds.check("one French term")
        #expect(IncrementalBuildTests.output(builds, "fr/terms/index.json").hasPrefix(#"{"terms":["#))
        for word in ["approche", "graisse", "empattement"] { try entry(word) }
        await builds.check("four French terms: shards")
        #expect(IncrementalBuildTests.output(builds, "fr/terms/index.json").hasPrefix(#"{"shards":[{"file":"index.0.json","first":"approche"}"#))
        #expect(IncrementalBuildTests.output(builds, "terms/index.json").hasPrefix(#"{"terms":["#), "the English index stays one file")
        try folder.append("content/fr/index.md", "\nEncore.\n")
        #expect(await builds.check("edit the text of a page linking a term").stats.textEdit)
        #expect(IncrementalBuildTests.output(builds, "fr/index.html").contains(#"href="/fr/terms/crenage-"#))
        #expect(IncrementalBuildTests.output(builds, "fr/index.html").contains(#"data-term="crénage">crénage</a>"#))
        try folder.remove("content/fr/glossary/approche.md")
        await builds.check("a French term removed")
        for word in ["graisse", "empattement"] { try folder.remove("content/fr/glossary/\(word).md") }
        await builds.check("one file again")
        #expect(IncrementalBuildTests.output(builds, "fr/terms/index.json").hasPrefix(#"{"terms":["#))
    }
}
