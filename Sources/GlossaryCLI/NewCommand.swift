import Foundation

struct NewCommand: Command {
    static let name = "new"
    static let abstract = "Create a new glossary site"
    static let discussion = """
        Creates a glossary site in DIR (which must not exist or be empty): glossary.yml, a home page, a guide
        page, two glossary entries, a README.md and a .gitignore. The site uses the built-in default theme
        ('glossary theme eject' copies it, or some of its files, into the site to customise) and builds
        offline with no warnings.
        """
    static let arguments = [Argument(synopsis: "DIR", completion: .directory)]
    static let force = Option.flag("--force", "Also write into a folder that is not empty; files that exist are kept, never overwritten or deleted")
    static let options = [force]

    static func run(_ parsed: ParsedArguments, context: CommandContext) async throws(UsageError) -> Int32 {
        guard parsed.positional.count == 1 else { throw UsageError(parsed.positional.isEmpty ? "missing DIR" : "new takes one folder") }
        let name = parsed.positional[0]
        let folder = context.resolve(name)
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        if fileManager.fileExists(atPath: folder.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            context.console.printError("error: \(name) exists and is not a folder")
            return ExitCode.failure
        }
        if !parsed.has(force), let existing = try? fileManager.contentsOfDirectory(atPath: folder.path), !existing.isEmpty {
            context.console.printError(
                "error: \(name) exists and is not empty; choose a new folder, or pass --force to add the site's files to it (existing files are kept)")
            return ExitCode.failure
        }
        var kept: [String] = []
        do {
            for (path, text) in SiteScaffold.files {
                let url = folder.appendingPathComponent(path)
                // With --force the folder may hold the user's files: never replace one (nor a link or folder there).
                if (try? fileManager.attributesOfItem(atPath: url.path)) != nil {
                    kept.append(path)
                    continue
                }
                try fileManager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url, options: .withoutOverwriting)
            }
            try fileManager.createDirectory(at: folder.appendingPathComponent(".glossary/cache"), withIntermediateDirectories: true)
        } catch {
            context.console.printError("error: can't create \(name): \(error.localizedDescription)")
            return ExitCode.failure
        }
        let here = folder == context.currentDirectory.standardizedFileURL
        var lines = ["Created a glossary site in \(here ? "this folder" : name)."]
        if !kept.isEmpty {
            lines.append("Kept the files that were there (not overwritten): \(kept.joined(separator: ", ")).")
        }
        lines += ["", "Next:"] + (here ? [] : ["  cd \(name)"])
        lines += ["  glossary serve        # preview at http://127.0.0.1:8080/", "  glossary build        # write the site into site/"]
        context.console.print(lines.joined(separator: "\n"))
        return ExitCode.success
    }
}

/// The files of a new site.
enum SiteScaffold {
    static let files: [(String, String)] = [
        (
            "glossary.yml",
            """
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

            """
        ),
        (".gitignore", "site/\n.glossary/build/\n"),
        (
            "README.md",
            """
            # My Glossary

            A glossary site built with `glossary`, a static site generator for dictionary glossaries.

            - `glossary serve` previews the site at http://127.0.0.1:8080/ and reloads the page when you save.
            - `glossary build` writes the site into `site/`; in CI, `glossary build --offline --strict` uses no
              network and fails on any warning.
            - Pages are markdown files in `content/`. Link a word to its definition with `[[word]]`, or show other
              text with `[[shown text|word]]`.
            - The team's own terms are files in `content/glossary/`: `term:` in the front matter, the definition
              below it. Other words are looked up in the Free Dictionary and cached in `.glossary/cache/`; commit
              the cache for reproducible, offline builds.
            - The look is the built-in `default` theme. `glossary theme eject templates/header.mustache` copies
              that file into `themes/default/`, where your copy wins; every file you don't copy still comes from
              the built-in theme. `glossary theme eject` copies the whole theme.

            """
        ),
        (
            "content/index.md",
            """
            ---
            title: Welcome
            description: The home page of a new glossary site.
            ---

            # Welcome

            This site explains the words our documentation uses. Write a reference like [[glossary]] or
            [[a shown text|term]] in any page and it links to the term's own page, with its definition.

            Read the [guide](/guide/writing/) to start writing.

            """
        ),
        (
            "content/guide/writing.md",
            """
            ---
            title: Writing pages
            description: How to write pages and reference terms.
            ---

            Pages are markdown files in `content/`. Reference a term with `[[word]]`, or show other text with
            `[[shown text|word]]`. Define your own terms in `content/glossary/`, like [[term]] and [[glossary]];
            other words are looked up in the dictionary and cached in `.glossary/cache/`.

            """
        ),
        (
            "content/glossary/glossary.md",
            """
            ---
            term: glossary
            part_of_speech: noun
            see_also: [term]
            ---

            A list of terms with their definitions, kept alongside the pages that use them.

            """
        ),
        (
            "content/glossary/term.md",
            """
            ---
            term: term
            part_of_speech: noun
            aliases: [terms]
            ---

            A word or phrase with a precise meaning in a subject; this site gives each one a page.

            """
        ),
    ]
}
