import CSystem
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A new version of an output folder, prepared beside it and swapped in whole: readers see the old site or
/// the new one, complete, at every instant.
///
/// The new version is prepared in `.NAME.building-PID` next to the output. When the folder of the build
/// before last is still there (`.NAME.previous`, as the last commit left it) and the build state knows what it
/// holds, it becomes the staging folder and is brought up to date in place: files whose inputs are the same as
/// when it was written stay, files unchanged since the last build are hard-linked from the live site, and only
/// the rest are written. So a build costs in proportion to what changed, not to the site. Otherwise staging
/// starts empty and unchanged files are hard-linked from the live site.
///
/// `commit()` exchanges staging and the output in one `renameat2(RENAME_EXCHANGE)`, moves the old site's
/// top-level dotfiles (a gh-pages `.git`, `.nojekyll`) into the new one, and keeps the old site as
/// `.NAME.previous` for the next build. When there was no old site (the first build, or the output was removed),
/// the previous folder is made of hard links to the new one's files, so that the next build, too, costs what
/// changed. Nothing holding a dotfile is ever deleted: a dotfile that can't be moved
/// keeps its folder (reported as `kept`). Folders left by builds that died (`.NAME.building-PID`,
/// `.NAME.old-PID` of a process that no longer runs) are cleaned up the same way when a transaction begins.
///
/// Files in staging are never changed in place (a file may be a hard link shared with the live site): a
/// write replaces the name with a new file.
public final class SiteTransaction: OutputSink, @unchecked Sendable {
    public let output: URL
    /// The folder being written.
    public let staging: URL
    /// The folder the build before last left, which the next commit leaves the old site in.
    public let previous: URL
    private let lock = NSLock()
    private var folders: Set<String> = [""]
    private var finished = false
    /// Whether staging started as the previous site (so holds `previousOutputs`), rather than empty.
    public private(set) var reusedPrevious = false
    /// Whether the live site turned out to be this build already (`isCurrent`): nothing is written or swapped.
    public private(set) var isUnchanged = false
    private let liveOutputs: [String: BuildState.StoredOutput]
    /// Whether the state knows what the live folder holds (`liveOutputs`).
    private let outputIsKnown: Bool
    private var stagingOutputs: [String: BuildState.StoredOutput] = [:]
    /// The previous site's outputs when the state knows that folder (it can become the staging folder).
    private let previousOutputs: [String: BuildState.StoredOutput]?
    private var prepared = false
    private let prepareLock = NSLock()
    /// What staging holds by the end of the build: the state's outputs after commit.
    private var written: [String: BuildState.StoredOutput] = [:]
    private var changed: Set<String> = []
    /// An unknown previous site moved out of the way, deleted on another core while the build renders.
    private var removal: Thread?
    private let removed = DispatchSemaphore(value: 0)
    /// When the commit will have no old site to keep as the previous folder (the live one is unknown or missing), that
    /// folder is made while the files are written, of a hard link to each (`.NAME.linking-PID`, renamed into place by
    /// the commit): the links are made on every core beside the render instead of after it.
    private var linkedCopy: URL? {
        didSet { linkedCopyPath = linkedCopy?.path }
    }
    /// `linkedCopy`'s path, and staging's and the output's: made once, not for every file (a URL's `path` is decoded
    /// each time it is asked for).
    private var linkedCopyPath: String?
    private let stagingPath: String
    private let outputPath: String
    /// Whether a link or folder of `linkedCopy` could not be made (the commit then links the tree after all).
    private var linkedCopyFailed = false

    /// Old sites kept because some of their dotfiles could not be moved into the new one (it had files of
    /// the same names), with those names: the caller reports them.
    public private(set) var kept: [(folder: URL, dotfiles: [String])] = []

    /// Cleans up what dead builds left beside `output`. The staging folder is made (the previous site when
    /// `state` knows it, else an empty folder) when the first file comes, so a build that finds the live site
    /// current touches nothing.
    public init(output: URL, state: BuildState? = nil) throws(OutputFailure) {
        self.output = output.standardizedFileURL
        let parent = self.output.deletingLastPathComponent()
        let name = self.output.lastPathComponent
        staging = parent.appendingPathComponent(".\(name).building-\(getpid())", isDirectory: true)
        stagingPath = staging.path
        outputPath = self.output.path
        previous = Self.previousFolder(of: self.output)
        let known = state?.withLock { ($0.outputs, $0.previousOutputs, $0.outputFolder, $0.previousFolder) } ?? ([:], [:], nil, nil)
        outputIsKnown = known.2 != nil && FileSignature(path: self.output.path).map(\.identity) == known.2?.identity
        liveOutputs = outputIsKnown ? known.0 : [:]
        if let previousFolder = known.3, outputIsKnown, FileSignature(path: previous.path).map(\.identity) == previousFolder.identity {
            previousOutputs = known.1
        } else {
            previousOutputs = nil
        }
        removeLeftovers()
    }

    /// A transaction that brings the previous folder up to date from a few paths (`patch(_:differences:)`), which the
    /// caller has checked are all it differs in from the live folder, beside it as an outputs file says.
    init(patching output: URL) {
        self.output = output.standardizedFileURL
        let parent = self.output.deletingLastPathComponent()
        let name = self.output.lastPathComponent
        staging = parent.appendingPathComponent(".\(name).building-\(getpid())", isDirectory: true)
        stagingPath = staging.path
        outputPath = self.output.path
        previous = Self.previousFolder(of: self.output)
        outputIsKnown = true
        liveOutputs = [:]
        previousOutputs = [:]
        removeLeftovers()
    }

    /// Makes the staging folder, once: the previous site renamed, or a new empty folder.
    private func prepare() throws(OutputFailure) {
        let failure: OutputFailure? = prepareLock.withLock {
            guard !prepared else { return nil }
            prepared = true
            if let previousOutputs, rename(previous.path, staging.path) == 0 {
                reusedPrevious = true
                stagingOutputs = previousOutputs
                return nil
            }
            // An unknown previous site is of no use: make room for the one this commit will leave, deleting it meanwhile.
            removeInBackground(previous)
            if mkdir(staging.path, 0o755) != 0 {
                let code = errno
                let parent = output.deletingLastPathComponent()
                if !(code == ENOENT && Self.makeParents(parent.path) && mkdir(staging.path, 0o755) == 0) {
                    return .create(folder: output.path, reason: Self.reason(code))
                }
            }
            if !outputIsKnown {
                let linking = linkingFolder
                Self.removeTree(linking)
                if mkdir(linking.path, 0o755) == 0 { linkedCopy = linking }
            }
            return nil
        }
        if let failure { throw failure }
    }

    /// The folder beside `output` (standardized) that the last commit left the old site in: `.NAME.previous`.
    static func previousFolder(of output: URL) -> URL {
        output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).previous", isDirectory: true)
    }

    /// Where a previous folder of links to the new site is made before it is renamed into place.
    private var linkingFolder: URL {
        output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).linking-\(getpid())")
    }

    /// Links the file staging now holds at `path` into `linkedCopy`, if one is being made.
    private func linkCopy(_ path: String) {
        guard let linkedCopyPath else { return }
        if Glibc.link(stagingPath + "/" + path, linkedCopyPath + "/" + path) != 0 {
            lock.withLock { linkedCopyFailed = true }
        }
    }

    /// Whether the live site already is exactly `items` (same inputs, files untouched, nothing added): then the
    /// build has nothing to do, and commit leaves everything as it is.
    public func isCurrent(_ items: [(path: String, fingerprint: Fingerprint)]) -> Bool {
        guard !liveOutputs.isEmpty, items.count == liveOutputs.count else { return false }
        let current = items.parallelMap(jobs: 2) { item in
            guard let stored = liveOutputs[item.path], stored.fingerprint == item.fingerprint, let signature = stored.signature else { return false }
            return FileSignature(path: outputPath + "/" + item.path)?.isUnmodified(since: signature) == true
        }
        guard current.allSatisfy({ $0 }) else { return false }
        // Nothing added by hand either (top-level dotfiles are the owner's, and kept by every build anyway).
        let present = Self.files(in: output).filter { !$0.hasPrefix(".") }
        isUnchanged = present.count == liveOutputs.count && present.allSatisfy { liveOutputs[$0] != nil }
        return isUnchanged
    }

    deinit {
        if !finished { abandon() }
    }

    // MARK: Writing

    public func keep(_ path: String, fingerprint: Fingerprint) throws(OutputFailure) -> Bool {
        try prepare()
        let target = stagingPath + "/" + path
        // Already right in staging (the previous site had it made from the same inputs, and nobody touched it).
        if let stored = stagingOutputs[path], stored.fingerprint == fingerprint, let signature = stored.signature,
            FileSignature(path: target)?.isUnmodified(since: signature) == true
        {
            record(path, stored)
            return true
        }
        // Unchanged since the last build: the live site's file, linked in.
        if let stored = liveOutputs[path], stored.fingerprint == fingerprint, let signature = stored.signature,
            FileSignature(path: outputPath + "/" + path)?.isUnmodified(since: signature) == true
        {
            try makeFolders(for: path)
            unlink(target)
            if link(outputPath + "/" + path, target) == 0 {
                linkCopy(path)
                record(path, stored)
                return true
            }
        }
        return false
    }

    public func write(_ path: String, _ data: Data, fingerprint: Fingerprint, bytesHash: Fingerprint) throws(OutputFailure) {
        try write(path, data, fingerprint: fingerprint, bytesHash: bytesHash, slots: nil)
    }

    public func write(_ path: String, _ data: Data, fingerprint: Fingerprint, bytesHash: Fingerprint, slots: BodySlots?) throws(OutputFailure) {
        try prepare()
        let target = stagingPath + "/" + path
        // Equal bytes are already there: only the inputs' fingerprint is new.
        if let stored = stagingOutputs[path], stored.bytesHash == bytesHash, let signature = stored.signature,
            FileSignature(path: target)?.isUnmodified(since: signature) == true
        {
            record(path, BuildState.StoredOutput(fingerprint: fingerprint, bytesHash: bytesHash, signature: signature, slots: slots))
            return
        }
        try makeFolders(for: path)
        // A staging folder made empty holds nothing yet; the previous site's file may be a link the live site shares, so
        // it is replaced, never written in place.
        if reusedPrevious { unlink(target) }
        let signature = try Self.writeFile(data, to: target)
        linkCopy(path)
        record(path, BuildState.StoredOutput(fingerprint: fingerprint, bytesHash: bytesHash, signature: signature, slots: slots))
    }

    /// A real copy: an editor changing the source in place must not change the published site.
    public func copy(_ path: String, from source: URL, fingerprint: Fingerprint, bytesHash: Fingerprint) throws(OutputFailure) {
        try prepare()
        let target = stagingPath + "/" + path
        try makeFolders(for: path)
        unlink(target)
        do {
            try FileManager.default.copyItem(atPath: source.resolvingSymlinksInPath().path, toPath: target)
        } catch {
            throw .write(path: target, reason: error.localizedDescription)
        }
        linkCopy(path)
        record(path, BuildState.StoredOutput(fingerprint: fingerprint, bytesHash: bytesHash, signature: FileSignature(path: target)))
    }

    /// Notes what staging now holds at `path`; it counts as changed when the live site's bytes differ.
    private func record(_ path: String, _ stored: BuildState.StoredOutput) {
        lock.withLock {
            written[path] = stored
            if liveOutputs[path]?.bytesHash != stored.bytesHash { changed.insert(path) }
        }
    }

    /// Removes from staging whatever the previous site held that this build doesn't (with folders left empty).
    public func finish(paths: Set<String>) throws(OutputFailure) -> Set<String> {
        try prepare()
        if reusedPrevious {
            for path in Self.files(in: staging) where !paths.contains(path) {
                unlink(staging.path + "/" + path)
            }
            Self.removeEmptyFolders(staging)
        }
        return lock.withLock {
            for path in liveOutputs.keys where !paths.contains(path) { changed.insert(path) }
            return changed
        }
    }

    /// The outputs staging holds, with their signatures: the live site's once committed.
    public var outputs: [String: BuildState.StoredOutput] { lock.withLock { written } }

    /// Creates the folders above `path` that don't exist yet, parents first, with plain `mkdir` (in `linkedCopy`
    /// too). A folder is listed as made once it exists; two writers may both make it, and one then finds it there.
    private func makeFolders(for path: String) throws(OutputFailure) {
        let components = path.split(separator: "/").dropLast()
        var folder = ""
        for component in components {
            folder += folder.isEmpty ? String(component) : "/" + component
            if lock.withLock({ folders.contains(folder) }) { continue }
            if mkdir(stagingPath + "/" + folder, 0o755) != 0 && errno != EEXIST {
                throw .write(path: stagingPath + "/" + folder, reason: Self.reason(errno))
            }
            if let linkedCopyPath, mkdir(linkedCopyPath + "/" + folder, 0o755) != 0 && errno != EEXIST {
                lock.withLock { linkedCopyFailed = true }
            }
            lock.withLock { _ = folders.insert(folder) }
        }
    }

    /// Plain open/write/close: the staging folder as a whole is what becomes visible atomically, so each file
    /// needs no temporary copy or sync of its own.
    /// Returns the file's signature once written (from its descriptor: no second lookup of the path).
    @discardableResult
    static func writeFile(_ data: Data, to path: String, sync: Bool = false) throws(OutputFailure) -> FileSignature? {
        let result = data.withUnsafeBytes { buffer in Result { () throws(OutputFailure) in try writeFile(buffer, to: path, sync: sync) } }
        return try result.get()
    }

    @discardableResult
    static func writeFile(_ buffer: UnsafeRawBufferPointer, to path: String, sync: Bool = false) throws(OutputFailure) -> FileSignature? {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .write(path: path, reason: reason(errno)) }
        defer { close(descriptor) }
        var failure = writeAll(buffer, to: descriptor)
        if failure == 0 && sync && fsync(descriptor) != 0 { failure = errno }
        if failure != 0 { throw .write(path: path, reason: reason(failure)) }
        var info = stat()
        return fstat(descriptor, &info) == 0 ? FileSignature(info) : nil
    }

    /// Writes every byte to `descriptor`, retrying interrupted writes; 0, or the errno of the write that failed.
    static func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32 {
        var offset = 0
        while offset < buffer.count {
            let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return 0
    }

    // MARK: Patching

    /// What a patch changed below the staging folder's root: the folders whose entries it changed (or made), and the
    /// folders it removed; and the written files' signatures.
    struct Patched {
        var touched: Set<String> = []
        var removed: Set<String> = []
        var signatures: [String: FileSignature] = [:]
    }

    /// Makes staging the live site with `files` replaced: the previous folder renamed into staging, where it differs
    /// from the live folder (`differences`, as the outputs file says) linked from the live folder or removed, and
    /// `files` written. Nothing else is looked at, which is what makes a build that changed a few files cost as much;
    /// the caller has checked that both folders are as the outputs file says (`SiteBuilder.patchText`).
    ///
    /// Throws when the previous folder is not there to start from or a file can't be written; `abandon` then removes
    /// what was made.
    func patch(_ files: [(path: String, data: Data)], differences: [(path: String, difference: BuildOutputs.Difference)]) throws(OutputFailure) -> Patched {
        try prepare()
        guard reusedPrevious else { throw .create(folder: previous.path, reason: "the previous site could not be reused") }
        let root = staging.path + "/"
        var patched = Patched()
        func parent(_ path: String) -> String {
            path.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(path.utf8[..<$0])! } ?? ""
        }
        /// Makes the folders above `path` that staging lacks, parents first.
        func makeFolders(above path: String) throws(OutputFailure) {
            let folder = parent(path)
            guard !folder.isEmpty else { return }
            if mkdir(root + folder, 0o755) == 0 {
                patched.touched.insert(folder)
                patched.touched.insert(parent(folder))
                return
            }
            switch errno {
            case EEXIST: return
            case ENOENT:
                try makeFolders(above: folder)
                try makeFolders(above: path)
            default: throw .write(path: root + folder, reason: Self.reason(errno))
            }
        }
        let replaced = Set(files.map(\.path))
        var emptied = Set<String>()
        for (path, difference) in differences where !replaced.contains(path) {
            unlink(root + path)
            patched.touched.insert(parent(path))
            switch difference {
            case .remove:
                emptied.insert(parent(path))
            case .relink:
                try makeFolders(above: path)
                guard Glibc.link(output.path + "/" + path, root + path) == 0 else { throw .write(path: root + path, reason: Self.reason(errno)) }
            }
        }
        for file in files {
            try makeFolders(above: file.path)
            unlink(root + file.path)
            patched.signatures[file.path] = try Self.writeFile(file.data, to: root + file.path)
            patched.touched.insert(parent(file.path))
        }
        // Folders a removed file leaves empty go too, deepest first (a folder that still holds something stays).
        while let folder = emptied.max(by: { $0.utf8.count < $1.utf8.count }) {
            emptied.remove(folder)
            guard !folder.isEmpty, rmdir(root + folder) == 0 else { continue }
            patched.removed.insert(folder)
            patched.touched.remove(folder)
            patched.touched.insert(parent(folder))
            emptied.insert(parent(folder))
        }
        patched.touched.remove("")
        return patched
    }

    // MARK: Finishing

    /// Puts the new site in place in one step; afterwards the output is the new site, with the old one's
    /// top-level dotfiles, and the old site waits as `.NAME.previous` for the next build.
    public func commit() throws(OutputFailure) {
        finished = true
        if isUnchanged { return }
        try prepare()
        waitForRemoval()
        var exists = stat()
        if lstat(output.path, &exists) == 0 {
            guard glossary_rename_exchange(staging.path, output.path) == 0 else {
                let code = errno
                Self.removeTree(staging)
                if let linkedCopy { Self.removeTree(linkedCopy) }
                throw .swap(reason: Self.reason(code))
            }
            // The staging name now holds the old site: the previous folder, when the state knew what it held.
            if !outputIsKnown {
                retire(staging, keepAsPrevious: false, removingMeanwhile: true)
            } else if retire(staging, keepAsPrevious: true) {
                previousKept = liveOutputs
                previousIsOldLive = true
                return
            }
        } else {
            guard glossary_rename_noreplace(staging.path, output.path) == 0 else {
                let code = errno
                Self.removeTree(staging)
                if let linkedCopy { Self.removeTree(linkedCopy) }
                throw .swap(reason: Self.reason(code))
            }
        }
        // No old site the next build could start from: a previous folder of links to this one's files, made as they
        // were written (or now, if that failed).
        let folders = Self.folders(holding: written.keys)
        writtenFolders = folders
        if let linkedCopy, !lock.withLock({ linkedCopyFailed }), glossary_rename_noreplace(linkedCopy.path, previous.path) == 0 {
            previousKept = written
        } else {
            previousKept =
                Self.linkTree(written.keys.sorted(), folders: folders, from: output, into: previous, through: linkingFolder) ? written : nil
        }
        linkedCopy = nil
        waitForRemoval()
    }

    /// What the previous folder holds after the commit (nil: there is none, or it is unknown).
    private var previousKept: [String: BuildState.StoredOutput]?
    /// Whether the previous folder is the old live one (rather than made of links to the new one).
    private var previousIsOldLive = false
    /// The folders that hold what was written, when the commit made the previous folder of links to it (which then
    /// has the same folders): made once for the links and both folders' signatures.
    private var writtenFolders: Set<String>?

    /// What both output folders hold once committed, with the signatures of them and of every folder below them.
    public struct Committed: Sendable {
        public var outputs: [String: BuildState.StoredOutput]
        public var folder: FileSignature?
        public var folders: [String: FileSignature]
        public var previous: (outputs: [String: BuildState.StoredOutput], folder: FileSignature, folders: [String: FileSignature])?
    }

    /// The output folders as the commit left them (their folders stat'ed on every core).
    public func committed(jobs: Int = 2) -> Committed {
        let outputs = self.outputs
        let outputFolders = writtenFolders ?? Self.folders(holding: outputs.keys)
        var result = Committed(
            outputs: outputs, folder: FileSignature(path: output.path), folders: Self.folderSignatures(of: output, folders: outputFolders, jobs: jobs))
        if let kept = previousKept, let folder = FileSignature(path: previous.path) {
            // Made of links to what was written (`writtenFolders`), or the old live site.
            let keptFolders = previousIsOldLive ? Self.folders(holding: kept.keys) : outputFolders
            result.previous = (kept, folder, Self.folderSignatures(of: previous, folders: keptFolders, jobs: jobs))
        }
        return result
    }

    /// The signatures of `folders` below `root`, by path below it (a folder that is gone is left out, which no later
    /// look at it matches).
    static func folderSignatures(of root: URL, folders: Set<String>, jobs: Int) -> [String: FileSignature] {
        let folders = Array(folders)
        let rootPath = root.path
        // Each looked up from the root (its own path walked once), not from `/`.
        let rootFolder = open(rootPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { if rootFolder >= 0 { close(rootFolder) } }
        let signatures = folders.parallelMap(jobs: jobs) { folder -> FileSignature? in
            guard rootFolder >= 0 else { return FileSignature(path: rootPath + "/" + folder) }
            var info = stat()
            return fstatat(rootFolder, folder, &info, AT_SYMLINK_NOFOLLOW) == 0 ? FileSignature(info) : nil
        }
        var result: [String: FileSignature] = [:]
        result.reserveCapacity(folders.count)
        for (folder, signature) in zip(folders, signatures) {
            if let signature { result[folder] = signature }
        }
        return result
    }

    /// Every folder below the root that holds one of `paths`, at any depth.
    static func folders(holding paths: some Collection<String>) -> Set<String> {
        var folders = Set<String>()
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

    /// Makes `destination` a copy of `source`'s `paths` made of hard links (their `folders`, as `folders(holding:)` gives
    /// them, made first), in `building` (a name a dead build's leftovers have), renamed into place once whole; whether
    /// it is there.
    static func linkTree(
        _ paths: [String], folders: Set<String>, from source: URL, into destination: URL, through building: URL, jobs: Int = 2
    ) -> Bool {
        removeTree(building)
        guard mkdir(building.path, 0o755) == 0 else { return false }
        // Parents before children (a folder's path sorts before the paths below it), each top-level folder's on the
        // next free core.
        var trees: [String: [String]] = [:]
        for folder in folders {
            let top = folder.utf8.firstIndex(of: UInt8(ascii: "/")).map { String(folder.utf8[..<$0])! } ?? folder
            trees[top, default: []].append(folder)
        }
        let made = Array(trees.values).parallelMap(jobs: jobs) { folders in
            folders.sorted().allSatisfy { mkdir(building.path + "/" + $0, 0o755) == 0 }
        }
        guard made.allSatisfy({ $0 }) else {
            removeTree(building)
            return false
        }
        let linked = paths.parallelMap(jobs: jobs) { path in Glibc.link(source.path + "/" + path, building.path + "/" + path) == 0 }
        guard linked.allSatisfy({ $0 }), glossary_rename_noreplace(building.path, destination.path) == 0 else {
            removeTree(building)
            return false
        }
        return true
    }

    /// Deletes what was written; the output is untouched (and the previous site is given up).
    public func abandon() {
        finished = true
        guard prepareLock.withLock({ prepared }) else { return }
        waitForRemoval()
        Self.removeTree(staging)
        if let linkedCopy { Self.removeTree(linkedCopy) }
    }

    /// Moves `folder` aside at once and deletes it on a thread of its own (a site's tree takes a core a quarter of a
    /// second to delete); `waitForRemoval` waits for it. Under a dead build's name, so that a build that dies
    /// meanwhile leaves it for the next to clean up.
    private func removeInBackground(_ folder: URL) {
        let aside = output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).removed-\(getpid())")
        var info = stat()
        guard lstat(folder.path, &info) == 0 else { return }
        Self.removeTree(aside)
        guard rename(folder.path, aside.path) == 0 else {
            Self.removeTree(folder)
            return
        }
        let thread = Thread { [removed] in
            Self.removeTree(aside)
            removed.signal()
        }
        thread.stackSize = 1 << 20
        removal = thread
        thread.start()
    }

    private func waitForRemoval() {
        guard removal != nil else { return }
        removed.wait()
        removal = nil
    }

    // MARK: Old sites and leftovers

    /// Moves a retired site's top-level dotfiles into the output, then keeps it as the previous site (or deletes
    /// it) — unless a dotfile could not be moved, in which case the folder stays as it is, for a later build to
    /// try again.
    @discardableResult
    private func retire(_ folder: URL, keepAsPrevious: Bool, removingMeanwhile: Bool = false) -> Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var kept: [String] = []
        for name in names where name.hasPrefix(".") {
            let destination = output.appendingPathComponent(name).path
            if glossary_rename_noreplace(folder.appendingPathComponent(name).path, destination) != 0 {
                kept.append(name)
            }
        }
        guard kept.isEmpty else {
            // This build's own old site is renamed so that it reads as one; a dead build's leftover stays put.
            let parked = output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).old-\(getpid())")
            let place = folder == staging && rename(folder.path, parked.path) == 0 ? parked : folder
            self.kept.append((place, kept.sorted()))
            return false
        }
        if keepAsPrevious, glossary_rename_noreplace(folder.path, previous.path) == 0 { return true }
        if removingMeanwhile { removeInBackground(folder) } else { Self.removeTree(folder) }
        return false
    }

    /// Folders beside the output left by builds whose process is gone (staging, old sites, a previous folder being
    /// linked or deleted): their dotfiles are carried over, the rest is deleted.
    private func removeLeftovers() {
        let parent = output.deletingLastPathComponent()
        let prefix = ".\(output.lastPathComponent)."
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let dash = rest.lastIndex(of: "-"), ["building", "old", "linking", "removed"].contains(rest[..<dash]),
                let pid = Int32(rest[rest.index(after: dash)...])
            else { continue }
            // Our own pid is a leftover of an earlier process that had it; another live process is a build
            // still running (of another site writing here, since builds of one site hold the build lock).
            if pid != getpid() && (kill(pid, 0) == 0 || errno == EPERM) { continue }
            let folder = parent.appendingPathComponent(name, isDirectory: true)
            var info = stat()
            guard lstat(folder.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { continue }
            var exists = stat()
            if lstat(output.path, &exists) == 0 {
                retire(folder, keepAsPrevious: false)
            } else {
                // No site to carry dotfiles into: a folder holding some stays, whatever else it holds.
                let dotfiles = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasPrefix(".") }
                if dotfiles.isEmpty { Self.removeTree(folder) } else { kept.append((folder, dotfiles.sorted())) }
            }
        }
    }

    /// Every file below `folder`, as paths relative to it.
    static func files(in folder: URL) -> [String] {
        var result: [String] = []
        func walk(_ path: String, _ prefix: String) {
            guard let directory = opendir(path) else { return }
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
                if name == "." || name == ".." { continue }
                if entry.pointee.d_type == UInt8(DT_DIR) {
                    walk(path + "/" + name, prefix + name + "/")
                } else {
                    result.append(prefix + name)
                }
            }
        }
        walk(folder.path, "")
        return result
    }

    /// Removes the folders below `folder` that hold nothing (deepest first).
    static func removeEmptyFolders(_ folder: URL) {
        func prune(_ path: String) -> Bool {
            guard let directory = opendir(path) else { return false }
            var empty = true
            var children: [String] = []
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
                if name == "." || name == ".." { continue }
                if entry.pointee.d_type == UInt8(DT_DIR) { children.append(name) } else { empty = false }
            }
            closedir(directory)
            for child in children {
                if prune(path + "/" + child) { rmdir(path + "/" + child) } else { empty = false }
            }
            return empty
        }
        _ = prune(folder.path)
    }

    static func removeTree(_ folder: URL) {
        try? FileManager.default.removeItem(at: folder)
    }

    private static func makeParents(_ path: String) -> Bool {
        (try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)) != nil
    }

    static func reason(_ code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }
}
