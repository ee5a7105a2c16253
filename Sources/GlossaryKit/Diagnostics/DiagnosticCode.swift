/// Every stable code glossary reports, with its severity and what `glossary explain CODE` says of it.
///
/// The codes are a contract: editors, CI scripts and `--format json` readers match on them, so a code is
/// never renamed. The README lists them all (a test checks it does).
public enum DiagnosticCode: String, CaseIterable, Sendable, Hashable, Comparable {
    // glossary.yml and front matter
    case yamlSyntax = "yaml-syntax"
    case yamlAlias = "yaml-alias"
    case unknownKey = "unknown-key"
    case duplicateKey = "duplicate-key"
    case configType = "config-type"
    case configValue = "config-value"
    case frontMatterType = "front-matter-type"
    case frontMatterUnclosed = "front-matter-unclosed"
    // The site's files
    case configMissing = "config-missing"
    case contentMissing = "content-missing"
    case readFailed = "read-failed"
    case encoding = "encoding"
    case symlinkSkipped = "symlink-skipped"
    case fileSkipped = "file-skipped"
    case duplicatePage = "duplicate-page"
    case reservedPath = "reserved-path"
    case outputPath = "output-path"
    case writeFailed = "write-failed"
    case buildLocked = "build-locked"
    case dotfilesKept = "dotfiles-kept"
    // Terms and links
    case entryMissingTerm = "entry-missing-term"
    case duplicateTerm = "duplicate-term"
    case aliasCollision = "alias-collision"
    case unusedTerm = "unused-term"
    case conceptUntranslated = "concept-untranslated"
    case deprecatedTerm = "deprecated-term"
    case forbiddenTerm = "forbidden-term"
    case unclosedTerm = "unclosed-term"
    case termMarkup = "term-markup"
    case emptyTerm = "empty-term"
    case termTooLong = "term-too-long"
    case unknownTerm = "unknown-term"
    case ambiguousTerm = "ambiguous-term"
    case slugCollision = "slug-collision"
    case brokenLink = "broken-link"
    case brokenAnchor = "broken-anchor"
    case headingID = "heading-id"
    // Navigation
    case navUnknownPage = "nav-unknown-page"
    case navDuplicatePage = "nav-duplicate-page"
    // Themes
    case themeMissing = "theme-missing"
    case themeCycle = "theme-cycle"
    case templateSyntax = "template-syntax"
    case templateRecursion = "template-recursion"
    case templateMissing = "template-missing"
    case missingTranslation = "missing-translation"
    // The preview server
    case watchPolling = "watch-polling"
    // The definitions cache
    case cacheUnreadable = "cache-unreadable"
    case cacheCorrupt = "cache-corrupt"
    case cacheWrite = "cache-write"
    case cacheLeftover = "cache-leftover"
    case staleDefinition = "stale-definition"
    // The dictionary API
    case badAPIURL = "bad-api-url"
    case apiUnreachable = "api-unreachable"
    case apiError = "api-error"
    case apiRateLimited = "api-rate-limited"
    case badResponse = "bad-response"
    // WordNet
    case wordNetUnavailable = "wordnet-unavailable"
    // glossary import
    case importSyntax = "import-syntax"
    case importUnmapped = "import-unmapped"
    case importExists = "import-exists"

    public static func < (lhs: DiagnosticCode, rhs: DiagnosticCode) -> Bool { lhs.rawValue < rhs.rawValue }

    public var severity: Severity {
        switch self {
        case .conceptUntranslated:
            .note
        case .unknownKey, .duplicateKey, .symlinkSkipped, .fileSkipped, .watchPolling, .dotfilesKept, .unclosedTerm, .termMarkup, .emptyTerm, .unknownTerm,
            .brokenLink,
            .ambiguousTerm, .brokenAnchor, .headingID, .navUnknownPage, .navDuplicatePage, .unusedTerm, .deprecatedTerm, .cacheUnreadable, .cacheCorrupt,
            .cacheWrite,
            .cacheLeftover,
            .staleDefinition, .apiUnreachable, .apiError, .apiRateLimited, .wordNetUnavailable, .missingTranslation, .importUnmapped:
            .warning
        case .yamlSyntax, .yamlAlias, .configType, .configValue, .frontMatterType, .frontMatterUnclosed, .configMissing,
            .contentMissing, .readFailed, .encoding, .duplicatePage, .reservedPath, .outputPath, .writeFailed, .buildLocked, .entryMissingTerm,
            .duplicateTerm, .aliasCollision, .forbiddenTerm, .termTooLong, .slugCollision, .themeMissing, .themeCycle, .templateSyntax, .templateRecursion,
            .templateMissing,
            .badAPIURL,
            .badResponse, .importSyntax, .importExists:
            .error
        }
    }

    /// Whether a problem's location points at text worth showing under the message; false for problems about a whole
    /// file (they are located at its first line only so editors can open it). A problem said again by a build with
    /// nothing to do (`Problem.replayed`) shows what it showed the first time.
    public var showsSourceLine: Bool {
        switch self {
        case .readFailed, .symlinkSkipped, .fileSkipped, .duplicatePage, .reservedPath, .entryMissingTerm, .templateMissing, .cacheUnreadable,
            .cacheCorrupt, .cacheLeftover, .configMissing, .contentMissing:
            false
        default:
            true
        }
    }

    /// One line: what the code means.
    public var summary: String {
        switch self {
        case .yamlSyntax: "glossary.yml or a page's front matter is not valid YAML"
        case .yamlAlias: "YAML aliases (*name) are not supported"
        case .unknownKey: "a key glossary does not know, in glossary.yml, front matter or theme.yml"
        case .duplicateKey: "a key is written twice in one mapping"
        case .configType: "a setting has the wrong type (a list where a string belongs, a word where a number belongs)"
        case .configValue: "a setting is of the right type but out of range"
        case .frontMatterType: "front matter is not a mapping of keys to values"
        case .frontMatterUnclosed: "front matter opened with '---' is never closed"
        case .configMissing: "the site's folder has no glossary.yml"
        case .contentMissing: "the site's folder has no content/ folder"
        case .readFailed: "a file could not be read"
        case .encoding: "a markdown file is not valid UTF-8"
        case .symlinkSkipped: "a symbolic link in content/ or a theme's folder was not followed"
        case .fileSkipped:
            "something in content/ or a theme's folder can't be published (a FIFO, a dangling link, an unreadable folder, a name that is not UTF-8)"
        case .duplicatePage: "two files publish the same URL"
        case .reservedPath: "a page or file sits at a path glossary generates"
        case .outputPath: "the output folder would replace the site's own files"
        case .writeFailed: "the built site could not be written"
        case .buildLocked: "another build of the site is running (with --no-wait)"
        case .dotfilesKept: "the old site was kept because its dotfiles could not be moved into the new one"
        case .entryMissingTerm: "a glossary entry has no 'term:', or one that names no word"
        case .duplicateTerm: "two glossary entries define the same term"
        case .aliasCollision: "an alias of a glossary entry is another entry's term or alias"
        case .unusedTerm: "a glossary entry that no page uses (reported by glossary check)"
        case .conceptUntranslated: "a concept (concept:) with no entry in one of the site's languages (a note; a warning with require_all_languages)"
        case .deprecatedTerm: "a page writes a name the glossary marks deprecated (as a reference or a plain word, in any form)"
        case .forbiddenTerm: "a page writes a name the glossary marks forbidden (as a reference or a plain word, in any form)"
        case .unclosedTerm: "'[[' without ']]' on the same line"
        case .termMarkup: "a term reference holds markup (raw HTML, code, emphasis, a link) instead of a plain word"
        case .emptyTerm: "a term reference names no word"
        case .termTooLong: "a term is longer than a term can be (200 characters)"
        case .unknownTerm: "a referenced term has no definition"
        case .ambiguousTerm: "a reference names a word the glossary defines in several senses without picking one"
        case .slugCollision: "two terms would get the same page"
        case .brokenLink: "an internal link leads to no page or file of the site"
        case .brokenAnchor: "a link's #fragment names no heading of the page it leads to"
        case .headingID: "a heading's {#id} can't be its id: not an id, or another heading's"
        case .navUnknownPage: "glossary.yml's nav lists a page or folder that content/ does not publish"
        case .navDuplicatePage: "glossary.yml's nav lists a page twice"
        case .themeMissing: "the theme named in glossary.yml (or in a theme.yml's extends) does not exist"
        case .themeCycle: "themes extend each other in a circle"
        case .templateSyntax: "a Mustache template has a syntax error"
        case .templateRecursion: "a template includes itself (through partials or parents) outside any section, so it would never end"
        case .templateMissing: "a theme lacks a template every theme must have"
        case .missingTranslation: "the theme has no string in a language of the site, and shows the English one"
        case .watchPolling: "the preview server can't use inotify and checks the files for changes by polling"
        case .cacheUnreadable: "a definitions cache file can't be read"
        case .cacheCorrupt: "a definitions cache file is damaged or in the wrong place"
        case .cacheWrite: "a fetched definition could not be stored in the cache"
        case .cacheLeftover: "a temporary file left in the cache by an interrupted write"
        case .staleDefinition: "an old cached definition was used because refetching it failed"
        case .badAPIURL: "the dictionary API URL is not an http(s) URL"
        case .apiUnreachable: "the dictionary API could not be reached"
        case .apiError: "the dictionary API kept failing (HTTP 5xx)"
        case .apiRateLimited: "the dictionary API kept refusing requests as too many (HTTP 429)"
        case .badResponse: "the dictionary API sent an answer that can't be used"
        case .wordNetUnavailable: "the WordNet data could not be opened; the build went on without WordNet"
        case .importSyntax: "glossary import can't read the file: a TBX file that is not well-formed XML, a CSV file with a quote left open or no term column"
        case .importUnmapped: "glossary import met something in the file it has nothing to map to (an element, a column, a language the site is not in)"
        case .importExists: "glossary import would replace an entry that exists (without --force)"
        }
    }

    /// What to do about it, for `glossary explain`.
    public var fix: String {
        switch self {
        case .yamlSyntax:
            "Read the message and the line it points at: a missing space after ':', an unclosed quote or bracket, a tab used for indentation. The note shows where the construct that failed began."
        case .yamlAlias:
            "Write the value out in full where the alias stands; a configuration is short enough to repeat a value."
        case .unknownKey:
            "Check the spelling (the message suggests a near miss) or remove the key; the README lists every key."
        case .duplicateKey:
            "Remove one of the two; the last value is the one used. The note points at the first."
        case .configType:
            "Write the value in the type the message names: quote text that looks like a number, use [a, b] for a list."
        case .configValue:
            "Choose a value within the range the message gives."
        case .frontMatterType:
            "Front matter holds 'key: value' lines between two '---' lines, such as 'title: Getting started'."
        case .frontMatterUnclosed:
            "Add a line '---' after the front matter, or remove the first line '---' if the page has none."
        case .configMissing:
            "Run the command in the folder that holds glossary.yml, pass --source DIR, or start a site with 'glossary new DIR'."
        case .contentMissing:
            "Create content/ with at least an index.md; 'glossary new DIR' writes a working site."
        case .readFailed:
            "Check the file's permissions, and that it is a regular file that still exists."
        case .encoding:
            "Save the file as UTF-8 in your editor; the location points at the first byte that is not UTF-8."
        case .symlinkSkipped:
            "Links to folders (which could loop) and to files outside content/ are not published; copy the file into content/ instead."
        case .fileSkipped:
            "Replace it with a regular file, fix or remove the link, make the folder readable, or rename the file with a UTF-8 name."
        case .duplicatePage:
            "'a.md' and 'a/index.md' both publish /a/: rename or remove one. The note points at the other file."
        case .reservedPath:
            "/terms/, /search/, /assets/, /_glossary/ and the exports (/glossary.json, /glossary.csv, /glossary.tbx) are generated; move the file elsewhere. A file in content/assets/ may replace a theme asset of the same name, and content/robots.txt or content/sitemap.xml replaces glossary's."
        case .outputPath:
            "Choose an output folder outside content/, themes/ and .glossary/, such as site/ (the default)."
        case .writeFailed:
            "Check free space and permissions of the output folder's parent; the previous site is left as it was."
        case .buildLocked:
            "Wait for the other build to finish (leave out --no-wait and the build waits for it by itself)."
        case .dotfilesKept:
            "The new site already has files of those names; move what you need from the kept folder the message names, then delete it."
        case .entryMissingTerm:
            "Add 'term: the word' to the entry's front matter, the word not empty."
        case .duplicateTerm:
            "Keep one definition per term: remove one entry, or turn one into an alias of the other. The note points at the first definition."
        case .aliasCollision:
            "A name links to one entry only: remove the alias, or merge the two entries. The note points at the entry that has the name; terms win over aliases, and the first entry (in path order) over later ones."
        case .conceptUntranslated:
            "Add an entry with the same 'concept:' to the glossary folder (content/<lang>/glossary/) of each language the message names. A note never fails a build; with 'require_all_languages: true' in glossary.yml it is a warning, which fails a build or glossary check under --strict."
        case .unusedTerm:
            "Reference the term from a page ([[word]], or the page's front matter terms:), or delete the entry if the glossary no longer needs it. Uses by other glossary entries don't count; the warning fails glossary check only with --strict."
        case .deprecatedTerm:
            "Write the term the message names instead (the note points at its entry). An entry marks a name with 'status: deprecated' and 'use: TERM' on its term, or lists it in 'deprecated:'; the entry's own text may write it. The warning fails a build or glossary check only with --strict."
        case .forbiddenTerm:
            "Write the term the message names instead (the note points at its entry); the build fails until then. An entry marks a name with 'status: forbidden' and 'use: TERM' on its term, or lists it in 'forbidden:'; the entry's own text may write it."
        case .unclosedTerm:
            "Close the reference on the same line ('[[word]]', without markup inside), or write '\\[[' for a literal '[['."
        case .termMarkup:
            "A reference names a word: write it plain, '[[word]]', or '[[shown text|word]]'. Markup (raw HTML, `code`, *emphasis*, links) goes around the reference, not inside it."
        case .emptyTerm:
            "Write the word between the brackets, '[[word]]', or remove the empty reference."
        case .termTooLong:
            "A term reference names a word or a short phrase: close the reference where the term ends ('[[word]]'), or write '\\[[' for a literal '[['. Such a term is never looked up."
        case .unknownTerm:
            "Check the spelling, add a team entry in content/glossary/, or build online so the dictionary can be asked (then commit .glossary/cache/ for offline builds)."
        case .ambiguousTerm:
            "Pick the sense in the reference ([[crane (machine)]]), or for the whole page in its front matter (senses: {crane: machine}). Until then the reference links to the first sense the message lists."
        case .slugCollision:
            "Two terms whose keys differ map to one page name; rename one of them."
        case .brokenLink:
            "Check the link's path: write site-absolute links (/guide/intro/) or links to markdown files (intro.md), which follow base_url."
        case .brokenAnchor:
            "Link to a heading's id as the page shows it (hover a heading for its link): the heading's text lowercased, punctuation dropped, spaces as '-' (## Set up Pods → #set-up-pods); repeated headings get -1, -2."
        case .headingID:
            "A heading may end with {#id} to choose its id (## Owners and dependents {#owners-dependents}): letters, digits, '-', '_', ':' and '.', each id once on a page, not one the page itself uses (main, top, terms-on-page). Until then the heading gets the id the message names."
        case .navUnknownPage:
            "Write the path below content/ of a page (guide/intro.md) or of a folder (guide/); check its spelling, or remove the entry. Drafts are left out without a warning."
        case .navDuplicatePage:
            "List each page once; the note points at its first place, which is the one used for the sidebar and previous/next links."
        case .themeMissing:
            "Use theme: default (built in), or create themes/NAME/ with a templates/ folder (or a theme.yml that extends default)."
        case .themeCycle:
            "Make one theme of the chain stop extending the next: a theme.yml's 'extends' names a theme that (through others) extends it."
        case .templateSyntax:
            "Fix the template at the line and column given: every {{#section}} needs its {{/section}}, tags need '}}'."
        case .templateRecursion:
            "Put the partial that leads back into a section ({{#children}}{{>tree}}{{/children}} ends with the data), or remove it: the message lists the chain of templates, the location is the first tag of it."
        case .templateMissing:
            "Every theme needs page, term, terms, search and 404 templates; extend the default theme (theme.yml: extends: default) to inherit what you don't override."
        case .missingTranslation:
            "Add the string to the site's themes/default/i18n/LANG.yml (a site's locale file holds only the strings it adds or changes), or to the theme's."
        case .watchPolling:
            "Raise the system's inotify limits (fs.inotify.max_user_watches, max_user_instances) to get instant rebuilds, or keep polling; pass --poll to poll without the warning."
        case .cacheUnreadable:
            "Check the file's permissions; the build refetches the term when online, or delete the file."
        case .cacheCorrupt:
            "Delete the file (the next online build refetches the term) or restore it from version control."
        case .cacheWrite:
            "Check that the cache folder (dictionary.cache) is writable; the definition was used for this build but will be fetched again."
        case .cacheLeftover:
            "Run 'glossary cache prune' to delete it; it holds nothing the cache needs."
        case .staleDefinition:
            "The dictionary could not be asked; the old definition is used. Build again when the API is reachable."
        case .badAPIURL:
            "Set dictionary.api (or --api-url, or GLOSSARY_API_URL) to an http:// or https:// URL containing {word}."
        case .apiUnreachable:
            "Check the network and dictionary.api; build with --offline to use only the cache and WordNet."
        case .apiError:
            "The dictionary API is having trouble; build again later, or --offline."
        case .apiRateLimited:
            "Lower dictionary.rate_limit or dictionary.concurrency, or build again later; cached terms are not asked again."
        case .badResponse:
            "The answer was not the API's format; check dictionary.api points at a Free Dictionary API compatible service. Nothing of it was cached."
        case .importSyntax:
            "Fix the file at the place given (xmllint FILE shows XML errors), or export it again from the tool that made it; nothing was imported."
        case .importUnmapped:
            "Nothing to do if you don't need it: the rest of the file was imported. Otherwise add what it said to the entries by hand. The README lists what import maps."
        case .importExists:
            "Pass --force to replace the entry with the imported one, or remove or rename the existing entry; the other entries were imported."
        case .wordNetUnavailable:
            "Install Debian's wordnet-base (the data in /usr/share/wordnet), or set WNSEARCHDIR to the folder holding index.noun; or take wordnet out of dictionary.providers to build without it and without the warning."
        }
    }
}
