import Foundation

/// What one build leaves for the next build of the same site into the same output folder: the files it read, as they
/// were; every markdown file's record; the output folder's files, each with the fingerprint of the value it was made
/// from; and what it reported.
///
/// A value passed from build to build: `glossary build` keeps it in one file (`StateFile`), the preview server in
/// memory. An empty state is a full build; a state made under another context (another version of glossary, other
/// options, another output folder) is never used. Every entry is checked against the disk before it is trusted.
public struct BuildState: Sendable {
    /// The engine and options the entries were made under (`SiteBuilder.context`).
    var context: Fingerprint
    /// When the build that made this state began looking at its files (seconds since 1970): a file whose signature
    /// is younger than a second then may have been written again since without its signature changing, so it is
    /// read again before it is trusted (`StoredFile.isSettled`).
    var verifiedAt: Double = 0
    /// Every input file but markdown, by path: the configuration, the theme's assets, the content's other files, the
    /// cache files looked up (absent ones too), WordNet's data.
    var files: [String: StoredFile] = [:]
    /// Every markdown file, by path below `content/`.
    var pages: [String: StoredPage] = [:]
    /// The fingerprint of everything else a build reads: the configuration's text, the theme's templates, what the
    /// scan left out (`InputCheck.digest`).
    var digest: Fingerprint = .zero
    /// The output folder's files, by path.
    var outputs: [String: StoredOutput] = [:]
    /// The signatures of the output folder's folders (a file added to a folder, or taken from it, changes its
    /// signature): how a file put there by hand is found.
    var folders: [String: FileSignature] = [:]
    /// The folder beside the output that holds the site before (`SiteTransaction`), when it is known.
    var previous: PreviousFolder?
    /// What the build reported, said again by a build that finds nothing changed.
    var report = Report()

    init(context: Fingerprint) {
        self.context = context
    }

    /// A file as the build read it: its signature (nil: there was none) and its bytes' fingerprint (nil: only the
    /// signature is compared, for big files that never change, such as WordNet's data).
    struct StoredFile: Sendable, Equatable {
        var signature: FileSignature?
        var hash: Fingerprint?
    }

    /// A markdown file as the build read it: its signature, its bytes' fingerprint, and its record (nil when it had a
    /// problem: such a file is read again by every build, which reports the problem again).
    ///
    /// A value held by one reference, its fields replaced whole when one is set (a touched file's signature, a kit): a
    /// build copies the table of every page's (`InputCheck.unchanged`, a text edit's next state) when one page
    /// changes, a reference a page.
    struct StoredPage: Sendable {
        private final class Fields: Sendable {
            let signature: FileSignature
            let hash: Fingerprint
            let record: StoredRecord?
            let kit: StoredKit?
            let body: StoredBody?

            init(signature: FileSignature, hash: Fingerprint, record: StoredRecord?, kit: StoredKit?, body: StoredBody?) {
                self.signature = signature
                self.hash = hash
                self.record = record
                self.kit = kit
                self.body = body
            }
        }

        private var fields: Fields

        init(signature: FileSignature, hash: Fingerprint, record: StoredRecord? = nil, kit: StoredKit? = nil, body: StoredBody? = nil) {
            fields = Fields(signature: signature, hash: hash, record: record, kit: kit, body: body)
        }

        var signature: FileSignature {
            get { fields.signature }
            set { fields = Fields(signature: newValue, hash: hash, record: record, kit: kit, body: body) }
        }
        var hash: Fingerprint { fields.hash }
        var record: StoredRecord? { fields.record }
        /// What a text edit of the page needs, for a content page or an entry that can take one (`TextEdit`).
        var kit: StoredKit? {
            get { fields.kit }
            set { fields = Fields(signature: signature, hash: hash, record: record, kit: newValue, body: body) }
        }
        /// A glossary entry's body as markdown made it, with the destinations its links were written with: what its
        /// term page and the exports show of it, so that an unchanged entry is not read and parsed again.
        var body: StoredBody? { fields.body }
    }

    /// An entry's body as the build made it, or its bytes in the state file (decoded when a build needs it).
    enum StoredBody: Sendable {
        case made(BodyHTML, destinations: [String?])
        case encoded(StateFile.RecordBytes)

        var body: (html: BodyHTML, destinations: [String?])? {
            switch self {
            case .made(let html, let destinations): (html, destinations)
            case .encoded(let bytes): bytes.body()
            }
        }
    }

    /// A record as the build parsed it, or its bytes in the state file (decoded when a build needs it).
    enum StoredRecord: Sendable {
        case parsed(PageRecord)
        case encoded(StateFile.RecordBytes)

        func record(file: String) -> PageRecord? {
            switch self {
            case .parsed(let record): record
            case .encoded(let bytes): bytes.record(file: file)
            }
        }
    }

    /// A page's kit as the build made it, or its bytes in the state file (decoded when a text edit needs it).
    enum StoredKit: Sendable {
        case made(PageKit)
        case encoded([UInt8])

        var kit: PageKit? {
            switch self {
            case .made(let kit): kit
            case .encoded(let bytes): StateFile.decodeKit(bytes)
            }
        }
    }

    /// A file of the output folder.
    struct StoredOutput: Sendable, Equatable {
        /// Of the value it was made from; nil when not known (a text edit made it): it is made again when planned.
        var fingerprint: Fingerprint?
        var bytesHash: Fingerprint
        /// Its signature once written; nil in a folder nobody else writes (the preview server's).
        var signature: FileSignature?
        /// Where the file shows its slots' values (see `MustacheSlots`): a content page's or a term page's body, each
        /// page's and term's text in `llms-full.txt`, each term's part of an export.
        var slots: MustacheSlots?
    }

    /// The output folder as the last build left it beside the live one (`.NAME.previous`): the folder itself, the paths
    /// where it may not hold the live folder's file (everywhere else it holds it, linked), and the signatures of its
    /// folders, which show anything added to it or taken from it since.
    struct PreviousFolder: Sendable, Equatable {
        var identity: FileSignature.Identity
        var differs: Set<String>
        var folders: [String: FileSignature]
    }

    /// What a build reported and counted.
    struct Report: Sendable {
        var diagnostics: [Diagnostic] = []
        var stats = BuildStats()
        /// When the first cached definition the build used goes stale (`.infinity`: never, or offline).
        var validUntil = Double.infinity
        /// The build would ask the dictionary again next time (it fetched, or left terms unresolved or stale): a build
        /// that may go online then does more than say this one again.
        var wantsNetwork = false
        /// The site's root path, which term links start with.
        var rootPath = "/"
    }

    /// What a text edit of a content page or a glossary entry takes besides its new bytes (`TextEdit`): a page's place
    /// among the content pages (its text's slot in `llms-full.txt`) and among its language's search index documents,
    /// or an entry's among the glossary's terms and its term page; its links' destinations, the term each term it
    /// references links to and, for a page of a site with files for language models, where its text there links to.
    struct PageKit: Sendable, Equatable {
        var document: Int
        var search: Int
        var destinations: [String?]
        /// By the record's referenced keys, in order of first reference (nil: no definition).
        var targets: [TermMarkup.Target?]
        var llms: LLMsText.Targets? = nil
        /// A glossary entry's term page's path below the site's root (`terms/kerning/`); `document` is then the term's
        /// place among the glossary's terms (its part's slot in the exports and `llms-full.txt`).
        var term: String? = nil
    }
}

extension BuildState.StoredFile {
    /// Whether a file whose signature is now `signature` is as stored: by its signature alone when it is unchanged and
    /// was older than a second at `verifiedAt` (git's rule for racily clean files: a write within the clock's
    /// granularity of the look may leave the signature as it was), else by its bytes' fingerprint (`read`).
    func matches(_ signature: FileSignature?, verifiedAt: Double, read: () -> Fingerprint?) -> Bool {
        guard let signature, let stored = self.signature else { return signature == nil && self.signature == nil }
        if signature == stored && signature.isSettled(at: verifiedAt) { return true }
        guard let hash else { return signature == stored }
        return read() == hash
    }
}
