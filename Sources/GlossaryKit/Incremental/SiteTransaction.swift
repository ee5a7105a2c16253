import CSystem
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A new version of an output folder, prepared beside it and swapped in whole: readers see the old site or the new
/// one, complete, at every instant; a build that fails leaves the old one as it was.
///
/// The new version is prepared in `.NAME.building-PID`. It starts as the folder the last commit left beside the
/// output, `.NAME.previous` — the site before the live one, whose files are hard links to the live site's but where
/// the state says they may differ (`BuildState.PreviousFolder`) — so that bringing it up to date costs what changed:
/// a file made from the same value as the live one is linked from the live site where the previous folder may differ,
/// and left alone elsewhere; every other file is written. Without a known previous folder, staging starts empty and
/// every kept file is linked, and a previous folder it can't start from is renamed `.NAME.removed-PID`, to be
/// deleted at the commit.
///
/// `commit()` exchanges staging and the output in one `renameat2(RENAME_EXCHANGE)`, moves the old site's top-level
/// dotfiles (a gh-pages `.git`, `.nojekyll`) into the new one, and keeps the old site as the previous folder. When
/// there was no old site, the previous folder is made of hard links to the new one's files as they are written
/// (`.NAME.linking-PID`). Nothing holding a dotfile is ever deleted: a dotfile that can't be moved keeps its folder
/// (reported as `kept`). Folders that builds which died left beside the output are cleaned up the same way.
///
/// Files in staging are never changed in place (a file may be a hard link shared with the live site): a write
/// replaces the name with a new file.
public final class SiteTransaction: OutputSink, @unchecked Sendable {
    // @unchecked: the variables are set only by `init`, `start(from:)` and `commit`, which run alone; the rest is
    // constant or behind a mutex.
    public let output: URL
    /// Whether nobody else writes the output and its previous folder (the preview server's own): they are taken to be
    /// as the state says, unlooked at, and their folders' signatures are not kept.
    let trusted: Bool
    let staging: URL
    let previous: URL
    private let outputPath: String
    private let stagingPath: String
    /// What the state of the last build says of the live and previous folders (`start(from:)`): the live site's files
    /// (those found changed left out; empty when it is unknown), the previous folder, and the live folder's paths
    /// found otherwise than the state says (changed, gone or added by hand).
    /// Set by `start(from:)` before the build offers any file; only read from then on.
    private var live: [String: BuildState.StoredOutput] = [:]
    private var known: BuildState.PreviousFolder?
    private var tampered: Set<String> = []
    /// The live folder's folders, as the state lists them.
    private var liveFolders: [String: FileSignature] = [:]
    private var table = OutputTable(before: [:])

    /// Staging as made on first use: from the previous folder (`differs`: where it may differ from the live site), or
    /// empty (`differs` nil), with the folder a previous folder of links to the new site is made in when there will be
    /// no old site to keep.
    private struct Staging {
        var differs: Set<String>?
        var linking: URL? { didSet { linkingPath = linking?.path } }
        /// `linking`'s path, asked for at every write.
        private(set) var linkingPath: String?
        /// The previous folder's folders as staging started from it, with the signatures they were found with (nil when
        /// they were not looked at).
        var folders: [String: FileSignature]?
        /// Folders set aside to be deleted when the build is committed or abandoned (an old previous folder).
        var doomed: [URL] = []
    }
    private let staged = Mutex<Staging?>(nil)
    /// What of the previous folder `lookAhead()` found for `prepare()` to start staging from (nil: not looked at yet).
    /// Set and taken under `staged`'s lock.
    private let lookedAhead = Mutex<PreviousLook??>(nil)
    /// The previous folder, found as the state says (no `tampered` path) or not (nil when it is gone or another folder);
    /// with its folders' signatures unless trusted.
    private typealias PreviousLook = (tampered: Set<String>, folders: [String: FileSignature]?)
    /// The folders staging (and the linking folder) has, and whether a link into the linking folder failed.
    private let folders = Mutex<Set<String>>([""])
    /// Folders of staging whose entries this build changed besides those of the files it wrote or carried over: folders
    /// it made and the folders holding them, the folders of files it removed, the folders of folders it removed.
    private let touched = Mutex<Set<String>>([])
    private let linkingFailed = Mutex(false)
    private let finished = Mutex(false)

    /// Old sites kept because some of their dotfiles could not be moved into the new one, with those names.
    public private(set) var kept: [(folder: URL, dotfiles: [String])] = []

    /// A transaction for `output` (`trusted`: see the property). Nothing is made until the first file comes, so a build
    /// that writes nothing touches nothing.
    public init(output: URL, trusted: Bool = false) {
        self.output = output.standardizedFileURL
        self.trusted = trusted
        outputPath = self.output.path
        staging = Self.sibling(self.output, "building-\(getpid())")
        stagingPath = staging.path
        previous = Self.previousFolder(of: self.output)
        Self.removeLeftovers(beside: self.output, kept: &kept)
    }

    /// Takes what the last build's state says of the live and previous folders, and looks at the live folder: whether
    /// it is as the state says (`OutputFolder.tampered`).
    func start(from state: BuildState?, jobs: Int) -> Bool {
        if let state, FileSignature(path: outputPath) == nil {
            // Gone: nothing of it is as the state says.
            tampered = Set(state.outputs.keys)
        } else if let state {
            tampered = trusted ? [] : OutputFolder.tampered(output, state: state, jobs: jobs)
            live = state.outputs
            for path in tampered { live[path] = nil }
            known = live.isEmpty ? nil : state.previous
            liveFolders = state.folders
        }
        table = OutputTable(before: state?.outputs ?? [:])
        return tampered.isEmpty
    }

    /// Makes staging, once: the previous folder renamed, or an empty folder.
    @discardableResult
    private func prepare() throws(OutputFailure) -> Staging {
        let made: Result<Staging, OutputFailure> = staged.withLock { staged in
            if let staged { return .success(staged) }
            var made = Staging()
            // The previous folder as the state says, nothing added to it or taken from it since.
            let look = lookedAhead.withLock { $0.take() } ?? lookAtPrevious(jobs: 2)
            if let known, let look, look.tampered.isEmpty, rename(previous.path, stagingPath) == 0 {
                made.differs = known.differs.union(tampered)
                made.folders = look.folders
            } else {
                // Every write waits for this first one: the folder is only renamed here, and deleted at the commit with
                // the retired site, on every core.
                let aside = Self.sibling(output, "removed-\(getpid())")
                Self.removeTree(aside)
                if rename(previous.path, aside.path) == 0 { made.doomed.append(aside) } else { Self.removeTree(previous) }
                Self.removeTree(staging)
                let parent = output.deletingLastPathComponent().path
                guard mkdir(stagingPath, 0o755) == 0 || (errno == ENOENT && Self.makeParents(parent) && mkdir(stagingPath, 0o755) == 0) else {
                    return .failure(.create(folder: outputPath, reason: FileContents.reason(errno)))
                }
                if live.isEmpty {
                    let folder = Self.sibling(output, "linking-\(getpid())")
                    Self.removeTree(folder)
                    if mkdir(folder.path, 0o755) == 0 { made.linking = folder }
                }
            }
            staged = made
            return .success(made)
        }
        return try made.get()
    }

    /// Looks at the previous folder for the first write to start staging from, when nothing has been written yet: for a
    /// build that will write, beside the work that comes before its first file. It only reads.
    func lookAhead(jobs: Int) {
        staged.withLock { staged in
            guard staged == nil else { return }
            let look = lookAtPrevious(jobs: jobs)
            lookedAhead.withLock { $0 = look }
        }
    }

    private func lookAtPrevious(jobs: Int) -> PreviousLook? {
        known.flatMap { known in
            FileSignature(path: previous.path)?.identity != known.identity
                ? nil : trusted ? (tampered: [], folders: nil) : OutputFolder.look(previous, files: [:], folders: known.folders, signatures: false, jobs: jobs)
        }
    }

    /// The folder beside `output` (standardized) that the last commit left the old site in: `.NAME.previous`.
    static func previousFolder(of output: URL) -> URL { sibling(output, "previous") }

    private static func sibling(_ output: URL, _ suffix: String) -> URL {
        output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).\(suffix)", isDirectory: true)
    }

    deinit {
        if !finished.withLock({ $0 }) { abandon() }
    }

    // MARK: Writing

    public func keep(_ path: String, fingerprint: Fingerprint) throws(OutputFailure) -> Bool {
        guard let stored = live[path], stored.fingerprint == fingerprint else { return false }
        try carryOver(path, stored, try prepare())
        return true
    }

    /// Makes staging hold the live site's file at `path` (already there unless it may differ).
    private func carryOver(_ path: String, _ stored: BuildState.StoredOutput, _ staging: Staging) throws(OutputFailure) {
        if let differs = staging.differs, !differs.contains(path) { return }
        try makeFolders(for: path, staging)
        let target = stagingPath + "/" + path
        unlink(target)
        guard Glibc.link(outputPath + "/" + path, target) == 0 else { throw .write(path: target, reason: FileContents.reason(errno)) }
        linkCopy(path, staging)
    }

    public func write(_ path: String, _ data: Data, fingerprint: Fingerprint?, slots: MustacheSlots?) throws(OutputFailure) {
        let signature = try place(path) { target throws(OutputFailure) in try FileContents.write(data, to: target) }
        table.record(path, .init(fingerprint: fingerprint, bytesHash: .of(bytes: data), signature: signature, slots: slots))
    }

    /// Written to the staging file a block at a time as `body` makes it, and fingerprinted as it goes.
    public func write(_ path: String, fingerprint: Fingerprint?, streaming body: (inout StreamedFile) -> MustacheSlots?) throws(OutputFailure) {
        var bytesHash = Fingerprint.of(bytes: [UInt8]())
        var slots: MustacheSlots?
        let signature = try place(path) { target throws(OutputFailure) in
            try FileContents.write(to: target) { descriptor in
                var file = StreamedFile(descriptor: descriptor)
                slots = body(&file)
                let (hash, failure) = file.finish()
                bytesHash = hash
                return failure
            }
        }
        table.record(path, .init(fingerprint: fingerprint, bytesHash: bytesHash, signature: signature, slots: slots))
    }

    /// `patch` of `file` (the live site's: `file(_:as:)`), written a block at a time: neither is ever whole in memory.
    func write(_ path: String, patching file: ReadOnlyFile, with patch: MustacheSlots.Patch) throws(OutputFailure) {
        try write(path, fingerprint: nil) { stream in
            for piece in patch.pieces {
                switch piece {
                case .kept(let range): stream.append(range, of: file)
                case .new(let bytes): bytes.withUnsafeBufferPointer { stream.append($0) }
                }
            }
            return patch.slots
        }
    }

    /// A real copy: an editor changing the source in place must not change the published site.
    public func copy(_ path: String, from source: URL, fingerprint: Fingerprint) throws(OutputFailure) {
        let signature = try place(path) { target throws(OutputFailure) in
            do {
                try FileManager.default.copyItem(atPath: source.resolvingSymlinksInPath().path, toPath: target)
            } catch {
                throw .write(path: target, reason: error.localizedDescription)
            }
            return FileSignature(path: target)
        }
        table.record(path, .init(fingerprint: fingerprint, bytesHash: fingerprint, signature: signature))
    }

    /// Makes the file at `path` in staging (`make` writes it there and gives its signature), in place of what is there.
    private func place(_ path: String, _ make: (String) throws(OutputFailure) -> FileSignature?) throws(OutputFailure) -> FileSignature? {
        let staging = try prepare()
        try makeFolders(for: path, staging)
        let target = stagingPath + "/" + path
        if staging.differs != nil { unlink(target) }
        let signature = try make(target)
        linkCopy(path, staging)
        return signature
    }

    /// The live site's bytes at `path`.
    func bytes(_ path: String) -> Data? {
        guard case .success(let data) = FileContents.read(outputPath + "/" + path) else { return nil }
        return data
    }

    /// The live site's file at `path`, open, when its bytes are those `stored` says: taken to be in a trusted folder,
    /// and for a file `start(from:)` found as the state's signature of it says (as `keep` takes such a file to be); else
    /// checked by their hash.
    func file(_ path: String, as stored: BuildState.StoredOutput) -> ReadOnlyFile? {
        guard let file = ReadOnlyFile(path: outputPath + "/" + path) else { return nil }
        let verified = live[path].map { $0.bytesHash == stored.bytesHash && $0.signature?.size == Int64(file.count) } ?? false
        guard trusted || verified || file.fingerprint() == stored.bytesHash else { return nil }
        return file
    }

    /// The bytes of `file(_:as:)`.
    func bytes(_ path: String, as stored: BuildState.StoredOutput) -> Data? {
        guard let file = file(path, as: stored) else { return nil }
        let bytes = file.bytes(0..<file.count)
        return bytes.count == file.count ? Data(bytes) : nil
    }

    /// Every live file not written so far is kept as it is (a text edit, which writes the few files it changes).
    func keepTheRest() throws(OutputFailure) {
        let staging = try prepare()
        let written = table.written
        for path in staging.differs ?? Set(live.keys) where !written.contains(path) {
            if let stored = live[path] { try carryOver(path, stored, staging) }
        }
    }

    /// Removes from staging whatever the previous folder held that this build doesn't, with the folders it leaves empty:
    /// `paths` is every file of the build. The files this build changed.
    public func finish(paths: Set<String>) throws(OutputFailure) -> Set<String> {
        try finish(removing: table.paths(notIn: paths))
    }

    /// `finish(paths:)` for a build that drops the files `removed` (of the live site, or written) and makes every other
    /// file of the live site and the files it wrote, told without looking at every file.
    func finish(removing removed: Set<String>) throws(OutputFailure) -> Set<String> {
        let changed = table.remove(removed)
        if let differs = try prepare().differs {
            // What staging holds that this build doesn't: what it drops, and what the previous folder held that the live
            // site didn't (unless this build wrote it). A folder this build wrote or carried a file into is the new
            // site's (one removed from the live site by hand is in `differs` too).
            let written = table.written
            let made = folders.withLock { $0 }
            let gone = removed.union(differs.filter { table.before[$0] == nil && !written.contains($0) && !made.contains($0) })
            var emptied = Set<String>()
            for path in gone {
                if unlink(stagingPath + "/" + path) != 0 && errno == EISDIR { Self.removeTree(URL(fileURLWithPath: stagingPath + "/" + path)) }
                emptied.insert(Self.parent(path))
            }
            touched.withLock { $0.formUnion(emptied) }
            // Deepest first: a folder that still holds something stays.
            while let folder = emptied.max(by: { $0.utf8.count < $1.utf8.count }) {
                emptied.remove(folder)
                if !folder.isEmpty, rmdir(stagingPath + "/" + folder) == 0 {
                    emptied.insert(Self.parent(folder))
                    touched.withLock { _ = $0.insert(Self.parent(folder)) }
                }
            }
        }
        return changed
    }

    /// What staging holds so far.
    var outputs: [String: BuildState.StoredOutput] { table.outputs }

    // MARK: Committing

    /// Puts the new site in place in one step; afterwards the output is the new site, with the old one's top-level
    /// dotfiles, and the old site waits as the previous folder for the next build. Returns `state` with what the output
    /// folders now hold: the live folder's files and folders, and the previous folder.
    func commit(_ state: BuildState, jobs: Int) throws(OutputFailure) -> BuildState {
        let staging = try prepare()
        finished.withLock { $0 = true }
        let (outputs, written, removed) = table.contents
        // The new site's folders (not kept for a trusted folder): the old site's when it has the same files, else found
        // from the files.
        let samePaths = !liveFolders.isEmpty && removed.isEmpty && written.allSatisfy { table.before[$0] != nil }
        // nil: the old site's folders (`liveFolders`' keys).
        let names: Set<String>? = trusted ? [] : samePaths ? nil : Self.folders(holding: outputs.keys)
        var previousFolder: BuildState.PreviousFolder?
        var doomed = staging.doomed
        defer { Self.removeTrees(doomed, jobs: jobs) }
        if FileSignature(path: outputPath) != nil {
            guard glossary_rename_exchange(stagingPath, outputPath) == 0 else {
                let code = errno
                abandon()
                throw .swap(reason: FileContents.reason(code))
            }
            // The staging name now holds the old site: the previous folder, when the state knew what it held.
            if staging.linking != nil {
                retire(self.staging, keepAsPrevious: false, doomed: &doomed)
            } else if retire(self.staging, keepAsPrevious: true, doomed: &doomed), let folder = FileSignature(path: previous.path) {
                // Where the old site is not the new one: what this build found changed, and what it wrote or removed
                // (every other file of the new site is linked from the old one).
                // Its folders are as the state had them, but its top (whose dotfiles moved into the new site).
                var folders = liveFolders
                if !trusted { folders[""] = FileSignature(path: previous.path) }
                previousFolder = .init(identity: folder.identity, differs: tampered.union(written).union(removed), folders: folders)
            }
        } else {
            guard glossary_rename_noreplace(stagingPath, outputPath) == 0 else {
                let code = errno
                abandon()
                throw .swap(reason: FileContents.reason(code))
            }
        }
        // No old site the next build could start from: the folder of links to this one's files, made as they were written.
        if let linking = staging.linking {
            if !linkingFailed.withLock({ $0 }), glossary_rename_noreplace(linking.path, previous.path) == 0, let folder = FileSignature(path: previous.path) {
                previousFolder = .init(
                    identity: folder.identity, differs: [], folders: Self.folderSignatures(of: previous, folders: names ?? Set(liveFolders.keys), jobs: jobs))
            } else {
                Self.removeTree(linking)
            }
        }
        var committed = state
        committed.outputs = outputs
        committed.folders = newFolderSignatures(names, staging: staging, written: written, jobs: jobs)
        committed.previous = previousFolder
        return committed
    }

    /// The signatures of the new site's folders `names` (below the output, after the swap; nil: the old site's): those
    /// staging started with and this build changed nothing in as `prepare` found them, the others stat'ed.
    private func newFolderSignatures(_ names: Set<String>?, staging: Staging, written: Set<String>, jobs: Int) -> [String: FileSignature] {
        guard let found = staging.folders, let differs = staging.differs else {
            return Self.folderSignatures(of: output, folders: names ?? Set(liveFolders.keys), jobs: jobs)
        }
        // The top changed with the swap; the folders of what was written or carried over (`carryOver`) changed too.
        var changed = touched.withLock { $0 }
        changed.insert("")
        for path in written.union(differs) { changed.insert(Self.parent(path)) }
        let isFolder = { [liveFolders] (name: String) in names.map { $0.contains(name) } ?? (liveFolders[name] != nil) }
        // Staging started with the new site's folders (an edit of pages' text): its table, with the changed ones
        // stat'ed again.
        if found.count == names?.count ?? liveFolders.count, found.keys.allSatisfy(isFolder) {
            var signatures = found
            for name in changed { signatures[name] = nil }
            signatures.merge(Self.folderSignatures(of: output, folders: changed.filter(isFolder), jobs: jobs)) { _, new in new }
            return signatures
        }
        let names = names ?? Set(liveFolders.keys)
        var signatures: [String: FileSignature] = [:]
        signatures.reserveCapacity(names.count)
        var look = Set<String>()
        for name in names {
            if !changed.contains(name), let signature = found[name] { signatures[name] = signature } else { look.insert(name) }
        }
        signatures.merge(Self.folderSignatures(of: output, folders: look, jobs: jobs)) { _, new in new }
        return signatures
    }

    /// Deletes what was written; the output is untouched (and the previous folder is given up).
    public func abandon() {
        finished.withLock { $0 = true }
        guard let staging = staged.withLock({ $0 }) else { return }
        Self.removeTrees([self.staging] + (staging.linking.map { [$0] } ?? []) + staging.doomed, jobs: 1)
    }

    // MARK: Folders

    /// Creates the folders above `path` that don't exist yet, parents first (in the linking folder too).
    private func makeFolders(for path: String, _ staging: Staging) throws(OutputFailure) {
        var folder = ""
        for component in path.split(separator: "/").dropLast() {
            folder += folder.isEmpty ? String(component) : "/" + component
            if folders.withLock({ $0.contains(folder) }) { continue }
            if mkdir(stagingPath + "/" + folder, 0o755) == 0 {
                touched.withLock { $0.formUnion([folder, Self.parent(folder)]) }
            } else if errno != EEXIST {
                throw .write(path: stagingPath + "/" + folder, reason: FileContents.reason(errno))
            }
            if let linking = staging.linkingPath, mkdir(linking + "/" + folder, 0o755) != 0 && errno != EEXIST { linkingFailed.withLock { $0 = true } }
            folders.withLock { _ = $0.insert(folder) }
        }
    }

    /// Links the file staging now holds at `path` into the linking folder, if one is being made.
    private func linkCopy(_ path: String, _ staging: Staging) {
        guard let linking = staging.linkingPath else { return }
        if Glibc.link(stagingPath + "/" + path, linking + "/" + path) != 0 { linkingFailed.withLock { $0 = true } }
    }

    private static func parent(_ path: String) -> String {
        path.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(path.utf8[..<$0])! } ?? ""
    }

    /// `root` (as "") and every folder below it that holds one of `paths`.
    static func folders(holding paths: some Collection<String>) -> Set<String> {
        var folders: Set<String> = [""]
        for path in paths {
            var end = path.utf8.lastIndex(of: UInt8(ascii: "/"))
            while let cut = end {
                let folder = String(path.utf8[..<cut])!
                guard folders.insert(folder).inserted else { break }
                end = folder.utf8.lastIndex(of: UInt8(ascii: "/"))
            }
        }
        return folders
    }

    /// The signatures of `folders` below `root`, stat'ed on every core (a folder that is gone is left out).
    static func folderSignatures(of root: URL, folders: Set<String>, jobs: Int) -> [String: FileSignature] {
        let list = Array(folders)
        let signatures = OutputFolder.signatures(of: root, list, jobs: jobs)
        var result: [String: FileSignature] = [:]
        result.reserveCapacity(list.count)
        for (folder, signature) in zip(list, signatures) where signature != nil { result[folder] = signature }
        return result
    }

    // MARK: Old sites and leftovers

    /// Moves a retired site's top-level dotfiles into the output, then keeps it as the previous folder (or adds it to
    /// `doomed`, to be deleted) — unless a dotfile could not be moved, in which case the folder stays as it is, for a
    /// later build to try again.
    @discardableResult
    private func retire(_ folder: URL, keepAsPrevious: Bool, doomed: inout [URL]) -> Bool {
        let stuck = Self.moveDotfiles(of: folder, into: output)
        guard stuck.isEmpty else {
            let parked = Self.sibling(output, "old-\(getpid())")
            let place = rename(folder.path, parked.path) == 0 ? parked : folder
            kept.append((place, stuck))
            return false
        }
        if keepAsPrevious, glossary_rename_noreplace(folder.path, previous.path) == 0 { return true }
        doomed.append(folder)
        return false
    }

    /// Folders beside `output` that builds whose process is gone left (staging, old sites, a previous folder being
    /// linked): their dotfiles are carried into the output, the rest is deleted. Those holding dotfiles that can't be
    /// carried over are added to `kept`.
    static func removeLeftovers(beside output: URL, kept: inout [(folder: URL, dotfiles: [String])]) {
        let parent = output.deletingLastPathComponent()
        let prefix = ".\(output.lastPathComponent)."
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let dash = rest.lastIndex(of: "-"), ["building", "old", "linking", "removed"].contains(rest[..<dash]),
                let pid = Int32(rest[rest.index(after: dash)...])
            else { continue }
            // Our own pid is a leftover of an earlier process that had it; another live process is a build still
            // running (of another site writing here, since builds of one site hold the build lock).
            if pid != getpid() && (kill(pid, 0) == 0 || errno == EPERM) { continue }
            let folder = parent.appendingPathComponent(name, isDirectory: true)
            var info = stat()
            guard lstat(folder.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { continue }
            let stuck = moveDotfiles(of: folder, into: lstat(output.path, &info) == 0 ? output : nil)
            if stuck.isEmpty { removeTree(folder) } else { kept.append((folder, stuck)) }
        }
    }

    /// Moves the top-level dotfiles of `folder` into `output` (none when nil); those that could not be moved, sorted.
    private static func moveDotfiles(of folder: URL, into output: URL?) -> [String] {
        let dotfiles = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasPrefix(".") }
        return dotfiles.filter { name in
            guard let output else { return true }
            return glossary_rename_noreplace(folder.appendingPathComponent(name).path, output.appendingPathComponent(name).path) != 0
        }.sorted()
    }

    static func removeTree(_ folder: URL) {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Deletes `folders` and all they hold, their entries on `jobs` cores. Deleting an old site is the kernel's work,
    /// one unlink per file (24,600 for a site of 10,000 pages), and a folder's entries go one at a time.
    static func removeTrees(_ folders: [URL], jobs: Int) {
        let entries = folders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).map { folder.appendingPathComponent($0) }
        }
        _ = entries.parallelMap(jobs: jobs) { removeTree($0) }
        for folder in folders { removeTree(folder) }
    }

    private static func makeParents(_ path: String) -> Bool {
        (try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)) != nil
    }
}

/// What staging holds, as the build goes: it starts as what the live folder held before the build (so a file kept costs
/// nothing), takes each file written, and by the end (`finish`) loses those the build didn't plan. Filled from several
/// threads.
final class OutputTable: Sendable {
    private struct Contents {
        var outputs: [String: BuildState.StoredOutput]
        var changed: Set<String> = []
        var written: Set<String> = []
        var removed: Set<String> = []
    }
    private let table: Mutex<Contents>
    /// What the sink held before the build (a file whose bytes are the same is not a change).
    let before: [String: BuildState.StoredOutput]

    init(before: [String: BuildState.StoredOutput]) {
        self.before = before
        table = Mutex(Contents(outputs: before))
    }

    func record(_ path: String, _ output: BuildState.StoredOutput) {
        table.withLock {
            $0.outputs[path] = output
            $0.written.insert(path)
            if before[path]?.bytesHash != output.bytesHash { $0.changed.insert(path) }
        }
    }

    /// The files the table holds that are not among `paths`.
    func paths(notIn paths: Set<String>) -> Set<String> {
        table.withLock { Set($0.outputs.keys.filter { !paths.contains($0) }) }
    }

    /// Leaves out the files `paths`, noting those it held as changed and removed; every file changed so far.
    func remove(_ paths: Set<String>) -> Set<String> {
        table.withLock { table in
            for path in paths where table.outputs.removeValue(forKey: path) != nil {
                table.changed.insert(path)
                table.removed.insert(path)
            }
            return table.changed
        }
    }

    var outputs: [String: BuildState.StoredOutput] { table.withLock { $0.outputs } }
    /// The files written so far.
    var written: Set<String> { table.withLock { $0.written } }
    /// What the table holds, the files written and those removed.
    var contents: (outputs: [String: BuildState.StoredOutput], written: Set<String>, removed: Set<String>) {
        table.withLock { ($0.outputs, $0.written, $0.removed) }
    }
}
