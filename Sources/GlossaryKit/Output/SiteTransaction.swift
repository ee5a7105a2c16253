import CSystem
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A new version of an output folder, written beside it and swapped in whole: readers see the old site or
/// the new one, complete, at every instant.
///
/// Files go into a fresh folder `.NAME.building-PID` next to the output. `commit()` exchanges it with the
/// output in one `renameat2(RENAME_EXCHANGE)`, then moves the old site's top-level dotfiles (a gh-pages
/// `.git`, `.nojekyll`) into the new one and deletes the rest of the old site. Nothing that holds a dotfile is
/// ever deleted: a failed move keeps the old folder, and the next transaction carries its dotfiles over.
/// Folders left by builds that died (`.NAME.building-PID`, `.NAME.old-PID` of a process that no longer
/// runs) are cleaned up the same way when a transaction begins.
///
/// `write`, `copy` and `keep` may be called from several threads at once.
public final class SiteTransaction: @unchecked Sendable {
    public let output: URL
    /// The folder being written.
    public let staging: URL
    private let lock = NSLock()
    private var folders: Set<String> = [""]
    private var finished = false

    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The new site's folder could not be made.
        case create(folder: String, reason: String)
        case write(path: String, reason: String)
        /// The new site could not be put in place; the old one is untouched.
        case swap(reason: String)

        public var description: String {
            switch self {
            case .create(let folder, let reason): "can't create the new site beside \(folder): \(reason)"
            case .write(let path, let reason): "can't write \(path): \(reason)"
            case .swap(let reason): "can't put the new site in place: \(reason)"
            }
        }
    }

    /// Old sites kept because some of their dotfiles could not be moved into the new one (it had files of
    /// the same names), with those names: the caller reports them.
    public private(set) var kept: [(folder: URL, dotfiles: [String])] = []

    /// Cleans up what dead builds left beside `output`, then creates the folder the new site is written to.
    public init(output: URL) throws(Failure) {
        self.output = output.standardizedFileURL
        let parent = self.output.deletingLastPathComponent()
        staging = parent.appendingPathComponent(".\(self.output.lastPathComponent).building-\(getpid())", isDirectory: true)
        removeLeftovers()
        if mkdir(staging.path, 0o755) != 0 {
            let code = errno
            if code == ENOENT, mkdirParents(parent.path) == 0, mkdir(staging.path, 0o755) == 0 { return }
            throw .create(folder: self.output.path, reason: Self.reason(code))
        }
    }

    deinit {
        if !finished { abandon() }
    }

    // MARK: Writing

    /// Writes a file of the new site (`guide/intro/index.html`).
    public func write(_ path: String, _ data: Data) throws(Failure) {
        try makeFolders(for: path)
        try Self.writeFile(data, to: staging.path + "/" + path)
    }

    /// Copies a file into the new site (a real copy: an editor changing the source in place must not change
    /// the published site).
    public func copy(_ path: String, from source: URL) throws(Failure) {
        try makeFolders(for: path)
        let destination = staging.path + "/" + path
        do {
            try FileManager.default.copyItem(atPath: source.path, toPath: destination)
        } catch {
            throw .write(path: destination, reason: error.localizedDescription)
        }
    }

    /// Carries a file of the current output into the new site unchanged: a hard link (builds replace output
    /// files, never change them in place), or a copy where links fail.
    public func keep(_ path: String) throws(Failure) {
        try makeFolders(for: path)
        let source = output.appendingPathComponent(path)
        if link(source.path, staging.path + "/" + path) == 0 { return }
        try copy(path, from: source)
    }

    /// Creates the folders above `path` that don't exist yet, parents first, with plain `mkdir`; under the
    /// lock, so a writer never finds a folder listed as made before it exists.
    private func makeFolders(for path: String) throws(Failure) {
        let components = path.split(separator: "/").dropLast()
        var folder = ""
        for component in components {
            folder += folder.isEmpty ? String(component) : "/" + component
            let code: Int32 = lock.withLock {
                guard !folders.contains(folder) else { return 0 }
                if mkdir(staging.path + "/" + folder, 0o755) != 0 && errno != EEXIST { return errno }
                folders.insert(folder)
                return 0
            }
            if code != 0 { throw .write(path: staging.path + "/" + folder, reason: Self.reason(code)) }
        }
    }

    /// Plain open/write/close: the staging folder as a whole is what becomes visible atomically, so each file
    /// needs no temporary copy or sync of its own.
    static func writeFile(_ data: Data, to path: String, sync: Bool = false) throws(Failure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .write(path: path, reason: reason(errno)) }
        defer { close(descriptor) }
        var failure: Int32 = 0
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure == 0 && sync && fsync(descriptor) != 0 { failure = errno }
        if failure != 0 { throw .write(path: path, reason: reason(failure)) }
    }

    // MARK: Finishing

    /// Puts the new site in place in one step; afterwards the output is the new site, with the old one's
    /// top-level dotfiles.
    public func commit() throws(Failure) {
        finished = true
        var exists = stat()
        guard lstat(output.path, &exists) == 0 else {
            guard glossary_rename_noreplace(staging.path, output.path) == 0 else {
                let code = errno
                removeTree(staging)
                throw .swap(reason: Self.reason(code))
            }
            return
        }
        guard glossary_rename_exchange(staging.path, output.path) == 0 else {
            let code = errno
            removeTree(staging)
            throw .swap(reason: Self.reason(code))
        }
        // The staging name now holds the old site.
        retire(staging)
    }

    /// Deletes what was written; the output is untouched.
    public func abandon() {
        finished = true
        removeTree(staging)
    }

    // MARK: Old sites and leftovers

    /// Moves a retired site's top-level dotfiles into the output, then deletes it — unless a dotfile could not
    /// be moved, in which case the folder stays (renamed `.NAME.old-PID`) for a later build to try again.
    private func retire(_ folder: URL) {
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
            return
        }
        removeTree(folder)
    }

    /// Folders beside the output left by builds whose process is gone: their dotfiles are carried over, the
    /// rest is deleted.
    private func removeLeftovers() {
        let parent = output.deletingLastPathComponent()
        let prefix = ".\(output.lastPathComponent)."
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let dash = rest.lastIndex(of: "-"), ["building", "old"].contains(rest[..<dash]),
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
                retire(folder)
            } else {
                // No site to carry dotfiles into: a folder holding some stays, whatever else it holds.
                let dotfiles = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasPrefix(".") }
                if dotfiles.isEmpty { removeTree(folder) } else { kept.append((folder, dotfiles.sorted())) }
            }
        }
    }

    private func removeTree(_ folder: URL) {
        try? FileManager.default.removeItem(at: folder)
    }

    private func mkdirParents(_ path: String) -> Int32 {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            return 0
        } catch {
            return -1
        }
    }

    static func reason(_ code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }
}
