import Foundation

/// What the build engine knows from the builds before this one, for one site written to one output: every
/// markdown file's record, the fingerprint of every other input file, and the fingerprint of the inputs every
/// output file was made from. A build redoes only what changed and leaves everything else as it is.
///
/// `glossary build` keeps it in the build manifest (`.glossary/build/`, see `BuildState+Manifest.swift`); the
/// preview server keeps one in memory for the session. It is an explicit value passed to the stages: a build
/// with an empty state is a full build, and a state that doesn't match (another version of glossary, other
/// options, a damaged manifest) is discarded, never trusted.
public final class BuildState: @unchecked Sendable {
    /// A markdown file's record, with the file's signature and when it was read (seconds since 1970).
    public struct StoredRecord: Sendable {
        public var signature: FileSignature
        public var readAt: Double
        public var record: PageRecord
    }

    /// Another input file's content fingerprint, with its signature and when it was read.
    public struct StoredFile: Sendable, Equatable {
        public var signature: FileSignature
        public var readAt: Double
        public var hash: Fingerprint
    }

    /// An output file: the fingerprint of what it was made from, of its bytes, its signature once written, and for a
    /// content page where it shows its body.
    public struct StoredOutput: Sendable, Equatable {
        public var fingerprint: Fingerprint
        public var bytesHash: Fingerprint
        public var signature: FileSignature?
        public var slots: BodySlots? = nil
    }

    private let lock = NSLock()
    /// How long a file must have been left alone before its signature alone is trusted (see
    /// `FileSignature.isSettled`); tests that edit files many times a second lower it.
    public var settleSeconds: Double = 1
    /// What the state's files were made under: the engine's identity and the build options that shape output.
    public internal(set) var context: Fingerprint = .zero
    var records: [String: StoredRecord] = [:]
    var files: [String: StoredFile] = [:]
    /// The outputs of the live output folder.
    public internal(set) var outputs: [String: StoredOutput] = [:]
    /// The outputs of the folder beside it that holds the build before (`.NAME.previous`), which the next
    /// build updates in place and swaps in.
    var previousOutputs: [String: StoredOutput] = [:]
    /// The signatures of the live and previous output folders themselves, so a replaced folder is noticed.
    var outputFolder: FileSignature?
    var previousFolder: FileSignature?
    /// The signatures of the folders below each (by path below it), taken once the build left them: a file added to
    /// a folder, or taken from it, changes the folder's.
    var outputFolders: [String: FileSignature] = [:]
    var previousFolders: [String: FileSignature] = [:]
    /// The generation of the outputs file (`BuildOutputs`) these were read from or last written to.
    var outputsGeneration: Fingerprint?

    /// The last scan of the site's folder (the preview server's builds update it with what the watcher saw).
    var source: SiteSource?
    /// Cache lookups by file, with the file's signature: the preview server reads an entry again only when
    /// its file changed.
    var cacheLookups: [String: (signature: FileSignature?, readAt: Double, lookup: DefinitionCache.Lookup)] = [:]

    /// Dictionary fetches of this session (the preview server's) that failed, by key, with when.
    var resolutions: [TermKey: (resolution: Resolution, at: Date)] = [:]
    var resolutionContext: String?
    /// Whether anything changed since the state was read from (or written to) the manifest.
    public internal(set) var isDirty = true

    /// WordNet as opened for this state's builds (or why it couldn't be), with what it was asked so far.
    var wordNet: (folder: String, result: Result<WordNetDictionary, WordNetError>)?
    /// The site search's counted runs, kept from one build to the next when set (the preview server's state,
    /// which lives for the session; `glossary build`'s would only hold them until the process ends).
    public var searchMemo: SearchIndex.Memo?
    /// The last build's navigation, reused while its inputs stay the same (see `SiteNavigation.inputs`).
    let navigationMemo = SiteNavigation.Memo()
    /// The last plan's page fingerprints by path below `content/`, with the record each was made from, valid
    /// while the plan's context for pages (`OutputPlan.Inputs.pageContext`) is `pageContext`.
    var pagePrints: [String: (record: PageRecord, fingerprint: Fingerprint)] = [:]
    var pageContext: Fingerprint = .zero
    /// Whether a build told what changed may patch the last good build when only pages' text changed
    /// (`SiteBuilder.patch`): the preview server's state, which keeps that build for the session.
    public var patchesTextEdits = false
    /// The last good build, kept when `patchesTextEdits` is set; nil while the last build failed or went another way.
    var lastBuild: SiteBuilder.LastBuild?
    /// What the build in progress learns: the next `files`.
    private var nextFiles: [String: StoredFile] = [:]

    public init() {}

    /// Forgets everything: the next build is a full one.
    public func reset() {
        lock.withLock {
            isDirty = true
            context = .zero
            records = [:]
            files = [:]
            outputs = [:]
            previousOutputs = [:]
            outputFolder = nil
            previousFolder = nil
            outputFolders = [:]
            previousFolders = [:]
            outputsGeneration = nil
            resolutions = [:]
            resolutionContext = nil
            wordNet = nil
            source = nil
            cacheLookups = [:]
            pagePrints = [:]
            pageContext = .zero
            lastBuild = nil
        }
    }

    func withLock<T>(_ body: (BuildState) throws -> T) rethrows -> T {
        try lock.withLock { try body(self) }
    }

    // MARK: A build's turn

    /// Starts a build made under `context`: a state made under another one is forgotten first.
    func begin(context: Fingerprint) {
        if lock.withLock({ self.context != context }) {
            reset()
            lock.withLock { self.context = context }
        }
        lock.withLock { nextFiles = [:] }
    }

    /// The build's records: every markdown file as it was read, now what the state knows.
    func learn(records: [String: StoredRecord]) {
        lock.withLock {
            if !isDirty {
                isDirty =
                    records.count != self.records.count
                    || records.contains { path, stored in
                        guard let old = self.records[path] else { return true }
                        return old.readAt != stored.readAt || old.signature != stored.signature || old.record !== stored.record
                    }
            }
            self.records = records
        }
    }

    /// One record a build read again, now what the state knows of its file (the others stay as they are).
    func learn(_ stored: StoredRecord, for path: String) {
        lock.withLock {
            if let old = records[path], old.readAt == stored.readAt, old.signature == stored.signature, old.record === stored.record { return }
            isDirty = true
            records[path] = stored
        }
    }

    /// The fingerprints of the files planning looked at (assets, content files), now what the state knows.
    func learnFiles() {
        lock.withLock {
            if !isDirty { isDirty = files != nextFiles }
            files = nextFiles
        }
    }

    /// What the output folders hold after a commit (see `SiteTransaction.committed`).
    func written(_ folders: SiteTransaction.Committed) {
        lock.withLock {
            outputs = folders.outputs
            outputFolder = folders.folder
            outputFolders = folders.folders
            previousOutputs = folders.previous?.outputs ?? [:]
            previousFolder = folders.previous?.folder
            previousFolders = folders.previous?.folders ?? [:]
            outputsGeneration = nil
        }
    }

    /// What an outputs file says (`BuildOutputs`), now what the state knows of the output folders.
    func adopt(_ contents: BuildOutputs.Contents) {
        outputs = contents.outputs
        previousOutputs = contents.previousOutputs
        outputFolder = contents.outputFolder
        previousFolder = contents.previousFolder
        outputFolders = contents.outputFolders
        previousFolders = contents.previousFolders
        outputsGeneration = contents.generation
    }

    // MARK: Input files

    /// The stored record of `file` when the file is unchanged since it was read: same signature, and settled
    /// then (see `FileSignature.isSettled`).
    func record(for file: SiteSource.File, signature: FileSignature?) -> StoredRecord? {
        guard let signature else { return nil }
        return lock.withLock {
            guard let stored = records[file.contentPath], stored.signature == signature, signature.isSettled(at: stored.readAt, after: settleSeconds) else {
                return nil
            }
            return stored
        }
    }

    /// The stored record of `file`, trusted unread (the preview server's watcher said it didn't change).
    func storedRecord(for file: SiteSource.File) -> StoredRecord? {
        lock.withLock { records[file.contentPath] }
    }

    /// The stored record of `file` whatever its signature, when its bytes hash to `hash` (a touched but unchanged file).
    func record(for file: SiteSource.File, hash: Fingerprint) -> PageRecord? {
        lock.withLock {
            guard let stored = records[file.contentPath], stored.record.contentHash == hash else { return nil }
            return stored.record
        }
    }

    /// The content fingerprint of a file other than a page, from the state when its signature is unchanged and
    /// settled, else read and hashed now (nil when it can't be read).
    func fileHash(_ path: String, signature: FileSignature?) -> Fingerprint? {
        guard let signature else { return nil }
        if let known = lock.withLock({ () -> Fingerprint? in
            guard let stored = files[path], stored.signature == signature, signature.isSettled(at: stored.readAt, after: settleSeconds) else { return nil }
            nextFiles[path] = stored
            return stored.hash
        }) {
            return known
        }
        let readAt = Date().timeIntervalSince1970
        guard case .success(let data) = FileContents.read(path) else { return nil }
        let hash = Fingerprint.of(bytes: data)
        lock.withLock { nextFiles[path] = StoredFile(signature: signature, readAt: readAt, hash: hash) }
        return hash
    }
}
