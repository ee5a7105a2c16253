import Foundation

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
        (".gitignore", "site/\n.site.*/\n.glossary/build/\n"),
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
