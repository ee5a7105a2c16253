/// Every problem glossary reports, with what it needs to say: the one place that fixes each problem's code
/// and message text (as Publish's `Reason` does), so messages are written, reviewed and tested together.
///
/// Values from outside (words, keys, URLs, answers) are shown through `DiagnosticText`, escaped and
/// shortened.
public indirect enum Problem: Hashable, Sendable {
    // MARK: glossary.yml and front matter
    /// libyaml's own description of the error.
    case yamlSyntax(detail: String)
    case yamlOutOfMemory
    case yamlSecondDocument
    case yamlTooDeep(limit: Int)
    case yamlUnexpected
    case yamlAlias(name: String)
    /// `context` says where the keys live: "in glossary.yml", "in front matter".
    case unknownKey(key: String, context: String, suggestion: String?)
    case duplicateKey(key: String, context: String)
    case keyNotWord(context: String, found: String)
    /// A file whose top level must be a mapping (`glossary.yml`, `theme.yml`).
    case fileNotMapping(file: String, found: String)
    /// `found` is `YAMLNode.foundDescription`: `'docs/'`, `a list`.
    case wrongType(name: String, requirement: String, found: String)
    case outOfRange(name: String, requirement: String, found: String)
    case frontMatterType(found: String)
    case frontMatterUnclosed

    // MARK: The site's files
    case configMissing(folder: String)
    case contentMissing(folder: String)
    case readFailed(reason: String)
    case encoding
    case symlinkSkipped(folder: String)
    case fileSkipped(reason: String)
    case duplicatePage(url: String, other: String)
    case reservedPage(prefix: String)
    case reservedFile(path: String)
    case outputPath
    case writeFailed(reason: String)
    case buildLocked(holder: Int32?)
    case dotfilesKept(folder: String, names: [String])

    // MARK: Terms and links
    case entryMissingTerm
    /// An entry's `term:` that names no word (empty, or white space only).
    case entryEmptyTerm
    case duplicateTerm(name: String)
    /// `other` is the word of the entry that already has the name: its term, or the term it is an alias of.
    case aliasCollision(alias: String, other: String, otherIsAlias: Bool)
    case unusedTerm(word: String)
    /// A concept the team's entries name in some of the site's languages, not in the `missing` ones (codes).
    case conceptUntranslated(concept: String, missing: [String])
    case unclosedTerm
    /// `[[…]]` closed on its line around markup cmark parsed (`found`: what stands between the brackets).
    case termMarkup(found: String)
    case emptyTerm
    /// `length` is the word's length in characters (Unicode scalars).
    case termTooLong(word: String, length: Int, limit: Int)
    case unknownTerm(word: String, reason: UnknownTermReason)
    /// A page writes a name an entry marks deprecated (`form`: the inflected form written, nil for the name itself).
    case deprecatedTerm(name: String, form: String?, preferred: String?)
    case forbiddenTerm(name: String, form: String?, preferred: String?)
    // MARK: glossary import
    /// A TBX file that is not well-formed XML, a CSV file with a quote left open or no term column.
    case importSyntax(detail: String)
    /// `what`: `<elementName type="x">`, `the column 'x'`, `a row in 'fr' (…)`.
    case importUnmapped(what: String)
    case importExists(path: String)
    case unknownSeeAlso(word: String)
    /// A bare reference to a word of several senses (sorted), none picked.
    case ambiguousTerm(word: String, senses: [String])
    case slugCollision(first: String, second: String, slug: String)
    case brokenLink(destination: String)
    /// `page`: "this page", or the URL path of the page the link leads to.
    case brokenAnchor(destination: String, fragment: String, page: String)
    /// A heading's `{#id}` that is no id (`valid` false) or is taken; the heading gets `given`.
    case headingID(id: String, valid: Bool, given: String)

    // MARK: Navigation
    /// `path` as glossary.yml's `nav:` writes it (below content/).
    case navUnknownPage(path: String)
    case navDuplicatePage(path: String)

    // MARK: Themes
    case themeMissing(name: String)
    case themeExtendsMissing(theme: String, extends: String)
    case themeCycle(theme: String, extends: String, chain: String, files: String)
    /// The Mustache engine's description of the error.
    case templateSyntax(detail: String)
    /// Templates that include each other in a circle outside any section: their names, the first again at the end.
    case templateRecursion(chain: [String])
    /// `extended`: the themes it extends, which lack it too.
    case templateMissing(theme: String, template: String, extended: [String])
    /// Strings of the theme in English (`names`) without a translation into `language`; none named: the theme has no
    /// strings in that language at all.
    case missingTranslation(language: String, names: [String])

    // MARK: The preview server
    case watchPolling(reason: String, milliseconds: Int)

    // MARK: The definitions cache
    case cacheUnreadable(key: String, then: CacheFallback?)
    case cacheCorrupt(key: String?, problem: CacheEntry.Problem, then: CacheFallback?)
    case cacheWrongKey(holds: String, expected: String, then: CacheFallback?)
    case cacheMisplaced(holds: String, language: String, belongs: String)
    case cacheWrite(key: String, reason: String)
    case cacheLeftover
    case staleDefinition(key: String, notFound: Bool, fetched: String, cause: Problem)

    // MARK: The dictionary API
    case badAPIURL(key: String)
    case apiTimedOut(key: String, seconds: Double, attempts: Int)
    case apiCannotConnect(key: String, attempts: Int)
    case apiCannotResolve(key: String, attempts: Int)
    case apiTransferFailed(key: String, detail: String, attempts: Int)
    case apiCancelled(key: String)
    case apiError(status: Int, key: String, attempts: Int)
    case apiRateLimited(key: String, attempts: Int)
    case responseTooLarge(key: String, limit: Int)
    case responseNotJSON(key: String)
    case responseWrongShape(key: String, problem: CacheEntry.Problem)
    case unexpectedStatus(status: Int, key: String)
    /// A problem of an earlier build, told again as it was (a build with nothing to do repeats what the last
    /// one found: `BuildSnapshot`).
    case replayed(code: DiagnosticCode, message: String)
    /// A transfer the API redirected elsewhere failed there: `to` is where, `failure` what happened (`Problem.redirectFailure`).
    case apiRedirectFailed(key: String, to: String, failure: String, attempts: Int)
    /// The client stopped asking the API at `host` (its authority, `api.example:8080`) mid-build; `words` got no answer.
    case apiStoppedAsking(host: String, reason: APIStop, words: Int)

    // MARK: WordNet
    /// `WordNetError`'s description: the folder and what was wrong there.
    case wordNetUnavailable(reason: String)

    /// Why a referenced term has no definition, as the message tells it.
    public enum UnknownTermReason: Hashable, Sendable {
        /// The dictionary was asked and knows no such word.
        case notFound
        /// Offline, and the cache has no entry.
        case offline
        /// The dictionary could not be asked (network failure, rate limit).
        case unreachable
        /// The dictionary answered, but not with anything usable (not JSON, the wrong shape, too large).
        case unusableAnswer
    }

    /// Why the dictionary client stopped asking the API before every word was answered.
    public enum APIStop: Hashable, Sendable {
        /// `failures` connection attempts in a row were refused or could not be made.
        case cannotConnect(failures: Int)
        /// `failures` attempts in a row could not resolve the API's host name.
        case cannotResolve(failures: Int)
        /// `failures` attempts in a row could not connect within `seconds`.
        case connectTimedOut(seconds: Double, failures: Int)
        /// `failures` attempts in a row got no complete answer within `seconds`.
        case timedOut(seconds: Double, failures: Int)
        /// `failures` attempts in a row broke off mid-answer; `detail` is libcurl's description of the last.
        case transferFailed(detail: String, failures: Int)
        /// `failures` attempts in a row were answered with a server error; `status` is the last one's.
        case serverError(status: Int, failures: Int)
        /// The API asked to wait `requested` seconds (Retry-After), more than is left of the build's `budget`.
        case retryAfterTooLong(requested: Double, budget: Double)
        /// The API asked to wait again once the build had waited `budget` seconds in all.
        case retryAfterSpent(budget: Double)
        /// No request could be sent: the HTTP client can't be used (`detail`: libcurl can't be loaded, and why).
        case clientUnavailable(detail: String)
    }

    /// What the build does instead of using an unusable cache entry.
    public enum CacheFallback: Hashable, Sendable {
        case refetch
        case ignoredOffline
    }

    public var code: DiagnosticCode {
        switch self {
        case .yamlSyntax, .yamlOutOfMemory, .yamlSecondDocument, .yamlTooDeep, .yamlUnexpected: .yamlSyntax
        case .yamlAlias: .yamlAlias
        case .unknownKey: .unknownKey
        case .duplicateKey: .duplicateKey
        case .keyNotWord, .fileNotMapping, .wrongType: .configType
        case .outOfRange: .configValue
        case .frontMatterType: .frontMatterType
        case .frontMatterUnclosed: .frontMatterUnclosed
        case .configMissing: .configMissing
        case .contentMissing: .contentMissing
        case .readFailed: .readFailed
        case .encoding: .encoding
        case .symlinkSkipped: .symlinkSkipped
        case .fileSkipped: .fileSkipped
        case .duplicatePage: .duplicatePage
        case .reservedPage, .reservedFile: .reservedPath
        case .outputPath: .outputPath
        case .writeFailed: .writeFailed
        case .buildLocked: .buildLocked
        case .dotfilesKept: .dotfilesKept
        case .entryMissingTerm, .entryEmptyTerm: .entryMissingTerm
        case .duplicateTerm: .duplicateTerm
        case .aliasCollision: .aliasCollision
        case .unusedTerm: .unusedTerm
        case .conceptUntranslated: .conceptUntranslated
        case .deprecatedTerm: .deprecatedTerm
        case .forbiddenTerm: .forbiddenTerm
        case .importSyntax: .importSyntax
        case .importUnmapped: .importUnmapped
        case .importExists: .importExists
        case .unclosedTerm: .unclosedTerm
        case .termMarkup: .termMarkup
        case .emptyTerm: .emptyTerm
        case .termTooLong: .termTooLong
        case .unknownTerm, .unknownSeeAlso: .unknownTerm
        case .ambiguousTerm: .ambiguousTerm
        case .slugCollision: .slugCollision
        case .brokenLink: .brokenLink
        case .brokenAnchor: .brokenAnchor
        case .headingID: .headingID
        case .navUnknownPage: .navUnknownPage
        case .navDuplicatePage: .navDuplicatePage
        case .themeMissing, .themeExtendsMissing: .themeMissing
        case .themeCycle: .themeCycle
        case .templateSyntax: .templateSyntax
        case .templateRecursion: .templateRecursion
        case .templateMissing: .templateMissing
        case .missingTranslation: .missingTranslation
        case .watchPolling: .watchPolling
        case .cacheUnreadable: .cacheUnreadable
        case .cacheCorrupt, .cacheWrongKey, .cacheMisplaced: .cacheCorrupt
        case .cacheWrite: .cacheWrite
        case .cacheLeftover: .cacheLeftover
        case .staleDefinition: .staleDefinition
        case .badAPIURL: .badAPIURL
        case .apiTimedOut, .apiCannotConnect, .apiCannotResolve, .apiTransferFailed, .apiCancelled, .apiRedirectFailed: .apiUnreachable
        case .apiStoppedAsking(_, let reason, _):
            switch reason {
            case .cannotConnect, .cannotResolve, .connectTimedOut, .timedOut, .transferFailed, .clientUnavailable: .apiUnreachable
            case .serverError: .apiError
            case .retryAfterTooLong, .retryAfterSpent: .apiRateLimited
            }
        case .wordNetUnavailable: .wordNetUnavailable
        case .apiError: .apiError
        case .apiRateLimited: .apiRateLimited
        case .responseTooLarge, .responseNotJSON, .responseWrongShape, .unexpectedStatus: .badResponse
        case .replayed(let code, _): code
        }
    }

    public var message: String {
        func q(_ text: String) -> String { DiagnosticText.quoted(text) }
        func tries(_ attempts: Int) -> String { attempts == 1 ? "1 attempt" : "\(attempts) attempts" }
        switch self {
        case .yamlSyntax(let detail): return DiagnosticText.escaped(detail)
        case .yamlOutOfMemory: return "out of memory while parsing YAML"
        case .yamlSecondDocument: return "found a second YAML document; only one is allowed here (remove the '---' line)"
        case .yamlTooDeep(let limit): return "YAML is nested more than \(limit) levels deep"
        case .yamlUnexpected: return "unexpected YAML structure"
        case .yamlAlias(let name):
            return "YAML aliases ('*\(DiagnosticText.shortened(DiagnosticText.escaped(name)))') are not supported; write the value out instead"
        case .unknownKey(let key, let context, let suggestion):
            return "unknown key \(q(key)) \(context)" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
        case .duplicateKey(let key, let context): return "key \(q(key)) is repeated \(context); the last value is used"
        case .keyNotWord(let context, let found): return "keys \(context) must be words, found \(DiagnosticText.escaped(found))"
        case .fileNotMapping(let file, let found): return "\(file) must be a mapping of keys to values, found \(DiagnosticText.escaped(found))"
        case .wrongType(let name, let requirement, let found), .outOfRange(let name, let requirement, let found):
            return "'\(name)' \(requirement), found \(DiagnosticText.escaped(found))"
        case .frontMatterType(let found): return "front matter must be a mapping of keys to values, found \(DiagnosticText.escaped(found))"
        case .frontMatterUnclosed: return "front matter opened on line 1 is never closed with '---'"

        case .configMissing(let folder): return "no glossary.yml in \(DiagnosticText.escaped(folder)); run 'glossary new DIR' to start a site"
        case .contentMissing(let folder): return "no content/ folder in \(DiagnosticText.escaped(folder))"
        case .readFailed(let reason): return "can't read file: \(reason)"
        case .encoding: return "file is not valid UTF-8"
        case .symlinkSkipped(let folder): return "symbolic link to a folder or to a file outside \(DiagnosticText.escaped(folder))/ is not published"
        case .fileSkipped(let reason): return "not published: \(reason)"
        case .duplicatePage(let url, let other): return "this page and \(DiagnosticText.escaped(other)) both publish /\(DiagnosticText.escaped(url))"
        case .reservedPage(let prefix): return "/\(prefix) is generated by glossary; move this page elsewhere"
        case .reservedFile(let path): return "/\(DiagnosticText.escaped(path)) is generated by glossary; move this file elsewhere"
        case .outputPath: return "the output folder would replace the site's own files; choose a folder such as site/"
        case .writeFailed(let reason): return DiagnosticText.escaped(reason)
        case .buildLocked(let holder):
            return "another build of this site is running" + (holder.map { " (process \($0))" } ?? "") + "; not waiting for it (--no-wait)"
        case .dotfilesKept(let folder, let names):
            let list = names.map { DiagnosticText.escaped($0) }.joined(separator: ", ")
            return "the old site's \(list) could not be moved into the new site, which has its own; the old site is kept in \(DiagnosticText.escaped(folder))"

        case .entryMissingTerm: return "glossary entry has no 'term:' in its front matter"
        case .entryEmptyTerm: return "glossary entry's 'term:' names no word"
        case .duplicateTerm(let name): return "\(q(name)) is already defined"
        case .aliasCollision(let alias, let other, let otherIsAlias):
            return otherIsAlias ? "alias \(q(alias)) is already an alias of \(q(other))" : "alias \(q(alias)) is already the term \(q(other))"
        case .unusedTerm(let word): return "no page uses \(q(word))"
        case .conceptUntranslated(let concept, let missing):
            return "concept \(q(concept)) has no entry in "
                + missing.map { "\(DiagnosticText.escaped($0)) (\(SiteLanguages.name(of: $0)))" }.joined(separator: ", ")
        case .deprecatedTerm(let name, let form, let preferred), .forbiddenTerm(let name, let form, let preferred):
            let status = code == .forbiddenTerm ? "forbidden" : "deprecated"
            let written = form.map { "\(q($0)) is a form of \(q(name)), a \(status) term" } ?? "\(q(name)) is a \(status) term"
            return written + (preferred.map { "; use \(q($0))" } ?? "")
        case .importSyntax(let detail): return DiagnosticText.escaped(detail)
        case .importUnmapped(let what): return "\(DiagnosticText.escaped(what)) is not imported: glossary has nothing to map it to"
        case .importExists(let path): return "\(DiagnosticText.escaped(path)) exists; pass --force to replace it"
        case .unclosedTerm: return "'[[' is not closed by ']]' on the same line; write '\\[[' for a literal '[['"
        case .termMarkup(let found):
            return "term reference \(q("[[" + found + "]]")) holds markup; a reference names a plain word ([[word]] or [[shown text|word]])"
        case .emptyTerm: return "term reference names no word"
        case .termTooLong(let word, let length, let limit): return "term \(q(word)) is \(length) characters long, more than a term may have (\(limit))"
        case .unknownTerm(let word, let reason):
            let why: String
            switch reason {
            case .notFound: why = ""
            case .offline: why = " (offline, and not in the cache)"
            case .unreachable: why = " (the dictionary could not be reached)"
            case .unusableAnswer: why = " (the dictionary's answer could not be used)"
            }
            return "no definition found for \(q(word))\(why)"
        case .unknownSeeAlso(let word): return "see_also names \(q(word)), which has no definition"
        case .ambiguousTerm(let word, let senses):
            let list = senses.map { q("\(word) (\($0))") }.joined(separator: ", ")
            return "\(q(word)) has several senses: \(list); write one, or pick one in front matter with 'senses:'; linking the first"
        case .slugCollision(let first, let second, let slug): return "terms \(q(first)) and \(q(second)) would share /terms/\(slug)/"
        case .brokenLink(let destination): return "link to \(q(destination)) leads to no page or file of the site"
        case .brokenAnchor(let destination, let fragment, let page):
            return "link to \(q(destination)) leads to no heading \(q(fragment)) on \(DiagnosticText.escaped(page))"
        case .headingID(let id, let valid, let given):
            let why = valid ? "another heading of the page (or the page itself) has that id" : "an id is letters, digits, '-', '_', ':' and '.'"
            return "heading id \(q("{#" + id + "}")) can't be used: \(why); the heading's id is \(q(given))"

        case .navUnknownPage(let path): return "nav lists \(q(path)), which is not a page or folder of content/"
        case .navDuplicatePage(let path): return "nav lists \(q(path)) again; only its first place is used"

        case .themeMissing(let name):
            return "theme \(q(name)) not found in themes/\(DiagnosticText.escaped(name))/ (the built-in theme is '\(BuiltInTheme.name)')"
        case .missingTranslation(let language, let names):
            if names.isEmpty { return "the theme has no strings in \(q(language)) (i18n/\(DiagnosticText.escaped(language)).yml); the English ones are shown" }
            let listed = names.map(q).joined(separator: ", ")
            return
                "the theme has no \(q(language)) \(names.count == 1 ? "string" : "strings") \(listed); the English \(names.count == 1 ? "one is" : "ones are") shown"
        case .themeExtendsMissing(let theme, let extends):
            return "theme \(q(theme)) extends \(q(extends)), which is not in themes/\(DiagnosticText.escaped(extends))/"
        case .themeCycle(let theme, let extends, let chain, let files):
            return "theme \(q(theme)) extends \(q(extends)), which extends it again: \(DiagnosticText.escaped(chain)) (\(DiagnosticText.escaped(files)))"
        case .templateSyntax(let detail): return DiagnosticText.escaped(detail)
        case .templateRecursion(let chain):
            let shown = chain.map { q($0) }.joined(separator: " → ")
            return "template \(q(chain[0])) includes itself outside any section (\(shown)): rendering it would never end"
        case .templateMissing(let theme, let template, let extended):
            let also = extended.isEmpty ? "" : ", nor does the theme it extends (\(extended.map(q).joined(separator: ", ")))"
            return "theme \(q(theme)) has no \(template).mustache\(also)"

        case .watchPolling(let reason, let milliseconds):
            return "can't watch files with inotify (\(DiagnosticText.escaped(reason))); checking them for changes every \(milliseconds) ms instead"
        case .cacheUnreadable(let key, let then): return "cache entry for \(q(key)) can't be read" + Self.fallback(then)
        case .cacheCorrupt(let key, let problem, let then):
            return "cache entry " + (key.map { "for \(q($0)) " } ?? "") + Self.describe(problem) + Self.fallback(then)
        case .cacheWrongKey(let holds, let expected, let then): return "cache entry holds \(q(holds)), expected \(q(expected))" + Self.fallback(then)
        case .cacheMisplaced(let holds, let language, let belongs):
            return "cache entry holds \(q(holds)) in \(q(language)), which belongs in \(DiagnosticText.escaped(belongs))"
        case .cacheWrite(let key, let reason): return "can't write the cache entry for \(q(key)): \(reason)"
        case .cacheLeftover: return "leftover of an interrupted write; 'glossary cache prune' deletes it"
        case .staleDefinition(let key, let notFound, let fetched, let cause):
            let kept = notFound ? "the cached answer that \(q(key)) is not in the dictionary" : "the cached definition of \(q(key))"
            return "using \(kept) fetched \(fetched): \(cause.message)"

        case .badAPIURL(let key): return "can't request \(q(key)): not an http or https URL"
        case .apiTimedOut(let key, let seconds, let attempts):
            return "no answer from the dictionary API for \(q(key)) within \(Self.seconds(seconds)) (\(tries(attempts)))"
        case .apiCannotConnect(let key, let attempts): return "can't connect to the dictionary API for \(q(key)) (\(tries(attempts)))"
        case .apiCannotResolve(let key, let attempts): return "can't resolve the dictionary API's host for \(q(key)) (\(tries(attempts)))"
        case .apiTransferFailed(let key, let detail, let attempts):
            return "the dictionary API's response for \(q(key)) failed: \(Self.lowercasedFirst(DiagnosticText.escaped(detail))) (\(tries(attempts)))"
        case .apiCancelled(let key): return "fetching \(q(key)) was cancelled"
        case .apiError(let status, let key, let attempts): return "the dictionary API answered HTTP \(status) for \(q(key)) (\(tries(attempts)))"
        case .apiRateLimited(let key, let attempts):
            return "the dictionary API kept answering HTTP 429 (too many requests) for \(q(key)) (\(tries(attempts)))"
        case .responseTooLarge(let key, let limit): return "response for \(q(key)) is larger than \(Self.byteCount(limit))"
        case .responseNotJSON(let key): return "response for \(q(key)) is not valid JSON"
        case .responseWrongShape(let key, let problem): return "response for \(q(key)) \(Self.describe(problem))"
        case .unexpectedStatus(let status, let key): return "unexpected HTTP \(status) from the dictionary API for \(q(key))"
        case .replayed(_, let message): return message
        case .apiRedirectFailed(let key, let to, let failure, let attempts):
            return "the dictionary API redirected the request for \(q(key)) to \(q(to)), where it failed: \(failure) (\(tries(attempts)))"
        case .apiStoppedAsking(let host, let reason, let words):
            let shownHost = DiagnosticText.escaped(host)
            let why: String
            switch reason {
            case .cannotConnect(let failures):
                why = "can't connect to the dictionary API at \(shownHost) (\(failures) attempts in a row failed)"
            case .cannotResolve(let failures):
                why = "can't resolve the dictionary API's host \(shownHost) (\(failures) attempts in a row failed)"
            case .connectTimedOut(let seconds, let failures):
                why = "no connection to the dictionary API at \(shownHost) within \(Self.seconds(seconds)) (\(failures) attempts in a row)"
            case .timedOut(let seconds, let failures):
                why = "no answer from the dictionary API at \(shownHost) within \(Self.seconds(seconds)) (\(failures) attempts in a row)"
            case .transferFailed(let detail, let failures):
                why =
                    "the dictionary API's responses from \(shownHost) failed: \(Self.lowercasedFirst(DiagnosticText.escaped(detail))) "
                    + "(\(failures) attempts in a row)"
            case .serverError(let status, let failures):
                why = "the dictionary API at \(shownHost) answered HTTP \(status) (\(failures) attempts in a row failed)"
            case .retryAfterTooLong(let requested, let budget):
                why =
                    "the dictionary API at \(shownHost) asked to wait \(Self.seconds(requested)) (Retry-After), "
                    + "more than a build waits in all (\(Self.seconds(budget)))"
            case .retryAfterSpent(let budget):
                why = "the dictionary API at \(shownHost) kept asking to wait (Retry-After), past the \(Self.seconds(budget)) a build waits in all"
            case .clientUnavailable(let detail):
                why = "can't send requests to the dictionary API at \(shownHost): \(Self.lowercasedFirst(DiagnosticText.escaped(detail)))"
            }
            let count = words == 1 ? "1 word was" : "\(words) words were"
            return "\(why); stopped asking it, so \(count) not looked up there"
        case .wordNetUnavailable(let reason): return DiagnosticText.escaped(reason) + "; building without WordNet"
        }
    }

    /// The same cache problem, saying what the build does instead.
    public func withFallback(_ fallback: CacheFallback) -> Problem {
        switch self {
        case .cacheUnreadable(let key, _): .cacheUnreadable(key: key, then: fallback)
        case .cacheCorrupt(let key, let problem, _): .cacheCorrupt(key: key, problem: problem, then: fallback)
        case .cacheWrongKey(let holds, let expected, _): .cacheWrongKey(holds: holds, expected: expected, then: fallback)
        default: self
        }
    }

    /// Whether the location points at text worth showing under the message (`DiagnosticCode.showsSourceLine`).
    public var showsSourceLine: Bool { code.showsSourceLine }

    // MARK: Notes

    /// The note of a repeated definition: where the first one is.
    public static func firstDefinitionNote(_ name: String, at location: SourceLocation) -> Diagnostic.Note {
        .init("\(DiagnosticText.quoted(name)) is first defined here", at: location)
    }

    /// The note of an alias that collides: where the other entry has the name, as its term (`aliasOf` nil) or as
    /// an alias of its term `aliasOf`.
    public static func collidingNameNote(_ name: String, aliasOf word: String?, at location: SourceLocation) -> Diagnostic.Note {
        guard let word else { return .init("\(DiagnosticText.quoted(name)) is defined here", at: location) }
        return .init("\(DiagnosticText.quoted(name)) is first an alias of \(DiagnosticText.quoted(word)) here", at: location)
    }

    public static func firstKeyNote(_ key: String, at location: SourceLocation) -> Diagnostic.Note {
        .init("\(DiagnosticText.quoted(key)) first appears here", at: location)
    }

    public static func firstNavNote(_ path: String, at location: SourceLocation) -> Diagnostic.Note {
        .init("\(DiagnosticText.quoted(path)) is first listed here", at: location)
    }

    public static func otherPageNote(at location: SourceLocation) -> Diagnostic.Note {
        .init("the other page", at: location, showsSourceLine: false)
    }

    /// The note closing a file's capped diagnostics of one code (`DiagnosticLog.capped`): how many more there are.
    public static func moreOfTheSameNote(_ count: Int, code: DiagnosticCode, file: String) -> Diagnostic.Note {
        .init("… and \(count) more [\(code.rawValue)] in \(DiagnosticText.escaped(file)), not shown", at: nil)
    }

    /// The note of a YAML error: where the construct the parser was reading began (libyaml's context).
    public static func yamlContextNote(_ context: String, at location: SourceLocation) -> Diagnostic.Note {
        .init("\(DiagnosticText.escaped(context)) started here", at: location)
    }

    // MARK: Pieces of messages

    static func describe(_ problem: CacheEntry.Problem) -> String {
        switch problem {
        case .notJSON(let detail): "is not valid JSON (\(DiagnosticText.escaped(detail)))"
        case .wrongShape(let detail): "does not have the expected shape (\(DiagnosticText.escaped(detail)))"
        }
    }

    private static func fallback(_ fallback: CacheFallback?) -> String {
        switch fallback {
        case .refetch: "; it will be refetched"
        case .ignoredOffline: "; ignored offline"
        case nil: ""
        }
    }

    static func byteCount(_ bytes: Int) -> String {
        if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }

    /// What failed where a redirect led, for `apiRedirectFailed`.
    static func redirectFailure(_ failure: TransportFailure, timeout: Double) -> String {
        switch failure.kind {
        case .timedOut, .connectTimedOut: "no answer within \(seconds(timeout))"
        case .cannotConnect: "can't connect"
        case .cannotResolve: "its host can't be resolved"
        case .network, .bodyTooLarge, .badURL, .notSent, .cancelled: lowercasedFirst(DiagnosticText.escaped(failure.detail))
        }
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? "\(Int(value)) s" : "\(value) s"
    }

    private static func lowercasedFirst(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.lowercased() + text.dropFirst()
    }
}
