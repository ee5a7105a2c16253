import Foundation

/// What a preview session remembers between builds, so a rebuild redoes only the work whose inputs changed.
///
/// Every table keeps a previous result *together with the exact inputs it was made from*, and a result is
/// reused only when those inputs compare equal to this build's. So a memoised build produces the same bytes
/// as a fresh one by construction, whatever changed and whoever changed it (the file watcher only says
/// when to build, never what to reuse).
///
/// - parsed pages: by file, keyed by the file's text (or its unchanged `stat`, see `FileSignature`);
/// - page fragments: by page, keyed by the document and every term wrapper and link rewrite it renders
///   (not even computed when the page list and the wrappers of the page's terms are unchanged);
/// - rendered files: by output path, keyed by the template (with its partials and parents) and the whole
///   context the template sees;
/// - dictionary resolutions: by term key, for the session (unavailable ones are retried after a minute).
///
/// Within one build, values every page asks for again and again (term summaries, words linked to their term
/// pages, term wrappers) are computed once per key.
///
/// Tables fill during a build and become the "previous" tables when the next build begins, which also drops
/// entries of pages and files that no longer exist. A memo serves one build at a time.
public final class BuildMemo: @unchecked Sendable {
    private let lock = NSLock()

    public init() {}

    // MARK: Build boundaries

    /// Promotes what the last build recorded; called before each build.
    func beginBuild() {
        lock.withLock {
            if parseRan {
                parsed = nextParsed
            }
            if renderRan {
                fragments = nextFragments
                linkTargets = nextLinkTargets
                outputs = nextOutputs
                templateKeys = nextTemplateKeys
            }
            nextParsed = [:]
            nextFragments = [:]
            nextLinkTargets = nil
            nextOutputs = [:]
            parseRan = false
            renderRan = false
            reusedOutputs = []
        }
    }

    // MARK: Parsed pages

    struct ParsedFile {
        var signature: FileSignature?
        /// When the text was read: a file modified within a second of it is not trusted by `stat` alone.
        var readAt: Date
        var text: String
        var drafts: Bool
        var result: (ParsedPage?, [Diagnostic])
    }

    private var parsed: [String: ParsedFile] = [:]
    private var nextParsed: [String: ParsedFile] = [:]
    private var parseRan = false

    /// The parse of `file`: the previous one when the file is unchanged, else `parse` of its text.
    ///
    /// A file whose `stat` (device, inode, size, modification and change times) is unchanged, and was
    /// already a second old when it was last read, is not read again — the same rule git uses for "racily
    /// clean" files; any other file is read and compared by its text.
    func parsedPage(
        _ file: SiteSource.File, drafts: Bool, read: (SiteSource.File) -> Result<String, Diagnostic>,
        parse: (String) -> (ParsedPage?, [Diagnostic])
    ) -> (ParsedPage?, [Diagnostic]) {
        let previous = lock.withLock {
            parseRan = true
            return parsed[file.displayPath]
        }
        let signature = FileSignature(path: file.url.path)
        if let previous, previous.drafts == drafts, let signature, previous.signature == signature,
            previous.readAt.timeIntervalSince(signature.modified) > 1
        {
            lock.withLock { nextParsed[file.displayPath] = previous }
            return previous.result
        }
        let readAt = Date()
        let text: String
        switch read(file) {
        case .failure(let diagnostic): return (nil, [diagnostic])
        case .success(let contents): text = contents
        }
        var entry: ParsedFile
        if let previous, previous.drafts == drafts, previous.text == text {
            entry = previous
            entry.signature = signature
            entry.readAt = readAt
        } else {
            entry = ParsedFile(signature: signature, readAt: readAt, text: text, drafts: drafts, result: parse(text))
        }
        lock.withLock { nextParsed[file.displayPath] = entry }
        return entry.result
    }

    // MARK: Dictionary resolutions

    private var resolutions: [TermKey: (resolution: Resolution, at: Date)] = [:]
    /// What the remembered resolutions were made under (language, cache folder, maximum age): they are
    /// forgotten when `glossary.yml` changes any of it.
    private var resolutionContext: String?
    /// How long a term that could not be resolved (offline and not cached, or the API unreachable) is left
    /// alone before a rebuild tries again, so a dictionary that is down doesn't slow every keystroke.
    static let unavailableRetry: TimeInterval = 60

    /// The keys that need resolving this build: new ones, team terms (free), and unavailable ones due a retry.
    func keysToResolve(
        _ keys: Set<TermKey>, team: [TermKey: TermDefinition], context: String, now: Date = Date()
    ) -> (resolve: [TermKey], known: [TermKey: Resolution]) {
        lock.withLock {
            if resolutionContext != context {
                resolutions = [:]
                resolutionContext = context
            }
            var resolve: [TermKey] = []
            var known: [TermKey: Resolution] = [:]
            for key in keys {
                if team[key] == nil, let previous = resolutions[key] {
                    if case .unavailable = previous.resolution, now.timeIntervalSince(previous.at) > Self.unavailableRetry {
                        resolve.append(key)
                    } else {
                        known[key] = previous.resolution
                    }
                } else {
                    resolve.append(key)
                }
            }
            return (resolve, known)
        }
    }

    func remember(_ resolved: [TermKey: Resolution], team: [TermKey: TermDefinition], now: Date = Date()) {
        lock.withLock {
            for (key, resolution) in resolved where team[key] == nil {
                resolutions[key] = (resolution, now)
            }
        }
    }

    // MARK: Fragments

    /// What every page's links depend on, computed once per build: each referenced key's term wrapper
    /// (`BuiltSite.termWrapper` reads only the key's definition), and what `BuiltSite.rewrittenLink` reads
    /// besides the link and its page — every page's path and kind, and the root path.
    struct LinkTargets {
        var wrappers: [TermKey: MarkdownDocument.Wrapper]
        var pages: [String]

        func sameWrapper(_ key: TermKey, as other: LinkTargets) -> Bool {
            guard let mine = wrappers[key], let theirs = other.wrappers[key] else { return false }
            return mine.open == theirs.open && mine.close == theirs.close
        }
    }

    private var linkTargets: LinkTargets?
    private var nextLinkTargets: LinkTargets?

    private var samePages = false

    /// This build's link targets (made by the first caller), the previous rendered build's, and whether
    /// the pages and root path are the same in both.
    func linkTargets(_ make: () -> LinkTargets) -> (current: LinkTargets, previous: LinkTargets?, samePages: Bool) {
        lock.withLock {
            if nextLinkTargets == nil {
                nextLinkTargets = make()
                samePages = linkTargets?.pages == nextLinkTargets?.pages
            }
            return (nextLinkTargets!, linkTargets, samePages)
        }
    }

    struct Fragment {
        var document: MarkdownDocument
        var wrappers: [MarkdownDocument.Wrapper]
        var links: [String?]
        var html: String
    }

    private var fragments: [String: Fragment] = [:]
    private var nextFragments: [String: Fragment] = [:]

    /// A page's body HTML: the previous one when it comes from the same document with the same term
    /// wrappers and link rewrites, else `render` of the document.
    ///
    /// `unchangedTargets` says the page's wrappers and rewrites are known equal to the previous build's
    /// (same link targets for each of its keys, same pages): then they are not even computed.
    func fragment(
        _ parsed: ParsedPage, unchangedTargets: Bool, wrappers: () -> [MarkdownDocument.Wrapper], links: () -> [String?],
        render: (MarkdownDocument) -> String
    ) -> String {
        let path = parsed.page.displayPath
        let previous = lock.withLock { fragments[path] }
        if let previous, previous.document === parsed.document, unchangedTargets {
            lock.withLock { nextFragments[path] = previous }
            return previous.html
        }
        let wrappers = wrappers()
        let links = links()
        if let previous, previous.document === parsed.document, previous.links == links,
            previous.wrappers.elementsEqual(wrappers, by: { $0.open == $1.open && $0.close == $1.close })
        {
            lock.withLock { nextFragments[path] = previous }
            return previous.html
        }
        let html = render(parsed.document)
        lock.withLock {
            nextFragments[path] = Fragment(document: parsed.document, wrappers: wrappers, links: links, html: html)
        }
        return html
    }

    /// Words linked to their term pages, this build (synonyms and antonyms repeat across thousands of entries).
    private var linkedWords: [String: MustacheValue] = [:]

    func linkedWord(_ word: String, make: () -> MustacheValue) -> MustacheValue {
        if let known = lock.withLock({ linkedWords[word] }) { return known }
        let value = make()
        lock.withLock { linkedWords[word] = value }
        return value
    }

    /// Term summaries of this build by key (one definition per key in a build; every page lists its terms').
    private var summaries: [TermKey: MustacheValue] = [:]

    func summary(of key: TermKey, make: () -> MustacheValue) -> MustacheValue {
        if let known = lock.withLock({ summaries[key] }) { return known }
        let summary = make()
        lock.withLock { summaries[key] = summary }
        return summary
    }

    // MARK: Rendered files

    struct Output {
        var template: String
        var context: MustacheValue
        var bytes: Data
    }

    private var outputs: [String: Output] = [:]
    private var nextOutputs: [String: Output] = [:]
    /// Per top-level template: the sources of it and every template it includes, plus the text injected
    /// before `</body>`; a template whose key changed re-renders everything it renders.
    private var templateKeys: [String: String] = [:]
    private var nextTemplateKeys: [String: String] = [:]
    private var unchangedTemplates: Set<String> = []
    private var renderRan = false
    /// Whether the build since `beginBuild()` got as far as rendering.
    var didRender: Bool { lock.withLock { renderRan } }
    /// Output paths whose bytes this build took from the previous one.
    private(set) var reusedOutputs: Set<String> = []

    /// Called once at the start of rendering, with the theme the build loaded.
    func beginRender(theme: Theme, bodySuffix: String?) {
        let keys = Dictionary(
            uniqueKeysWithValues: Theme.requiredTemplates.map { name in
                (
                    name,
                    theme.dependencyClosure(of: name).map { "\($0)\u{0}\(theme.templateSources[$0] ?? "\u{1}missing")" }.joined(separator: "\u{0}")
                        + "\u{0}suffix\u{0}" + (bodySuffix ?? "")
                )
            })
        lock.withLock {
            renderRan = true
            summaries = [:]
            linkedWords = [:]
            nextTemplateKeys = keys
            unchangedTemplates = Set(keys.filter { templateKeys[$0.key] == $0.value }.map(\.key))
        }
    }

    /// A rendered file: the previous bytes when its template and its whole context are unchanged, else `render()`.
    func output(_ path: String, template: String, context: MustacheValue, render: () -> Data) -> Data {
        let (previous, templateUnchanged) = lock.withLock { (outputs[path], unchangedTemplates.contains(template)) }
        if templateUnchanged, let previous, previous.template == template, previous.context == context {
            lock.withLock {
                nextOutputs[path] = previous
                reusedOutputs.insert(path)
            }
            return previous.bytes
        }
        let bytes = render()
        lock.withLock { nextOutputs[path] = Output(template: template, context: context, bytes: bytes) }
        return bytes
    }
}

/// What `stat` says about a file: enough to notice any write, rename or replacement.
struct FileSignature: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modifiedSeconds: Int
    var modifiedNanoseconds: Int
    var changedSeconds: Int
    var changedNanoseconds: Int

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modifiedSeconds = info.st_mtim.tv_sec
        modifiedNanoseconds = info.st_mtim.tv_nsec
        changedSeconds = info.st_ctim.tv_sec
        changedNanoseconds = info.st_ctim.tv_nsec
    }

    /// The later of the modification and change times.
    var modified: Date {
        let seconds = max(Double(modifiedSeconds) + Double(modifiedNanoseconds) / 1e9, Double(changedSeconds) + Double(changedNanoseconds) / 1e9)
        return Date(timeIntervalSince1970: seconds)
    }
}

extension Theme {
    /// `name` and every template it reaches through partials and parents, sorted.
    func dependencyClosure(of name: String) -> [String] {
        var seen: Set<String> = []
        var pending = [name]
        while let next = pending.popLast() {
            guard seen.insert(next).inserted else { continue }
            if let template = templates[next] { pending += MustacheNode.referencedTemplates(template.nodes) }
        }
        return seen.sorted()
    }
}

extension MustacheNode {
    /// Names of the partials and parents these nodes include, at any depth.
    static func referencedTemplates(_ nodes: [MustacheNode]) -> [String] {
        var names: [String] = []
        for node in nodes {
            switch node {
            case .text, .variable: break
            case .section(_, _, let body): names += referencedTemplates(body)
            case .partial(let name, _): names.append(name)
            case .parent(let name, _, let overrides):
                names.append(name)
                for override in overrides.values { names += referencedTemplates(override.body) }
            case .block(let block): names += referencedTemplates(block.defaultBody)
            }
        }
        return names
    }
}
