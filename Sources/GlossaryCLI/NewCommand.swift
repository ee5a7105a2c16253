import Foundation
import GlossaryKit

struct NewCommand: Command {
    static let name = "new"
    static let abstract = "Create a new glossary site"
    static let discussion = """
        Creates a glossary site in DIR (which must not exist or be empty): glossary.yml, a home page, a
        guide page, two glossary entries and a copy of the default theme. It builds offline with no warnings.
        """
    static let arguments = [Argument(synopsis: "DIR", completion: .directory)]
    static let options: [Option] = []

    static func run(_ parsed: ParsedArguments, context: CommandContext) async throws(UsageError) -> Int32 {
        guard parsed.positional.count == 1 else { throw UsageError(parsed.positional.isEmpty ? "missing DIR" : "new takes one folder") }
        let folder = context.resolve(parsed.positional[0])
        let fileManager = FileManager.default
        if let existing = try? fileManager.contentsOfDirectory(atPath: folder.path), !existing.isEmpty {
            context.console.printError("error: \(parsed.positional[0]) exists and is not empty; choose a new folder")
            return ExitCode.failure
        }
        guard let theme = Theme.locate(name: "default", siteRoot: folder) else {
            context.console.printError("error: the default theme was not found (looked beside the glossary binary and in GLOSSARY_THEMES)")
            return ExitCode.failure
        }
        do {
            for (path, text) in SiteScaffold.files {
                let url = folder.appendingPathComponent(path)
                try fileManager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url)
            }
            try fileManager.createDirectory(at: folder.appendingPathComponent("themes"), withIntermediateDirectories: true)
            try fileManager.copyItem(at: theme, to: folder.appendingPathComponent("themes/default"))
            try fileManager.createDirectory(at: folder.appendingPathComponent(".glossary/cache"), withIntermediateDirectories: true)
        } catch {
            context.console.printError("error: can't create \(parsed.positional[0]): \(error.localizedDescription)")
            return ExitCode.failure
        }
        context.console.print("""
            Created a glossary site in \(parsed.positional[0]).

            Next:
              cd \(parsed.positional[0])
              glossary serve        # preview at http://127.0.0.1:8080/
              glossary build        # write the site into site/
            """)
        return ExitCode.success
    }
}

/// The files of a new site.
enum SiteScaffold {
    static let files: [(String, String)] = [
        ("glossary.yml", """
            title: My Glossary
            description: Terms our documentation uses, explained.
            base_url: /
            language: en
            theme: default
            dictionary:
              api: https://api.dictionaryapi.dev/api/v2/entries/{lang}/{word}
              cache: .glossary/cache
              concurrency: 8
              rate_limit: 450/5m
              timeout_seconds: 10
              max_age_days: 30
              live_lookup: true

            """),
        (".gitignore", "site/\n"),
        ("content/index.md", """
            ---
            title: Welcome
            description: The home page of a new glossary site.
            ---

            # Welcome

            This site explains the words our documentation uses. Write a reference like [[glossary]] or
            [[a shown text|term]] in any page and it links to the term's own page, with its definition.

            Read the [guide](/guide/writing/) to start writing.

            """),
        ("content/guide/writing.md", """
            ---
            title: Writing pages
            description: How to write pages and reference terms.
            ---

            Pages are markdown files in `content/`. Reference a term with `[[word]]`, or show other text with
            `[[shown text|word]]`. Define your own terms in `content/glossary/`, like [[term]] and [[glossary]];
            other words are looked up in the dictionary and cached in `.glossary/cache/`.

            """),
        ("content/glossary/glossary.md", """
            ---
            term: glossary
            part_of_speech: noun
            see_also: [term]
            ---

            A list of terms with their definitions, kept alongside the pages that use them.

            """),
        ("content/glossary/term.md", """
            ---
            term: term
            part_of_speech: noun
            aliases: [terms]
            ---

            A word or phrase with a precise meaning in a subject; this site gives each one a page.

            """),
    ]
}
