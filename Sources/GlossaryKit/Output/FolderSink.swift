import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A folder of the build's own, updated in place file by file: what the preview server serves from. Each file
/// is replaced in one rename (a request reads the old file or the new one, whole); files that are unchanged
/// stay, untouched, so a rebuild after an edit writes only what the edit changed.
///
/// The sink remembers what it holds between builds; a build that fails before `finish` leaves it as it was.
public final class FolderSink: OutputSink, @unchecked Sendable {
    public let folder: URL
    private let lock = NSLock()
    private var held: [String: BuildState.StoredOutput] = [:]
    private var next: [String: BuildState.StoredOutput] = [:]
    private var changed: Set<String> = []
    private var folders: Set<String> = [""]

    /// Creates (or empties) `folder`.
    public init(folder: URL) throws(OutputFailure) {
        self.folder = folder.standardizedFileURL
        try? FileManager.default.removeItem(at: self.folder)
        do {
            try FileManager.default.createDirectory(at: self.folder, withIntermediateDirectories: true)
        } catch {
            throw .create(folder: self.folder.path, reason: error.localizedDescription)
        }
    }

    /// Starts a build: nothing is written or forgotten until the build offers its outputs. What the build will hold
    /// starts as what the sink holds (a build offers every file it has, and `finish` drops the others): a file kept
    /// costs a look-up, not an insertion (a preview rebuild keeps 20,000).
    public func begin() {
        lock.withLock {
            next = held
            changed = []
        }
    }

    public func keep(_ path: String, fingerprint: Fingerprint) throws(OutputFailure) -> Bool {
        lock.withLock { held[path]?.fingerprint == fingerprint }
    }

    public func write(_ path: String, _ data: Data, fingerprint: Fingerprint, bytesHash: Fingerprint) throws(OutputFailure) {
        if sameBytes(path, bytesHash, fingerprint) { return }
        try place(path) { temporary throws(OutputFailure) in try SiteTransaction.writeFile(data, to: temporary) }
        record(path, fingerprint, bytesHash)
    }

    public func copy(_ path: String, from source: URL, fingerprint: Fingerprint, bytesHash: Fingerprint) throws(OutputFailure) {
        if sameBytes(path, bytesHash, fingerprint) { return }
        try place(path) { temporary throws(OutputFailure) in
            do {
                try FileManager.default.copyItem(atPath: source.resolvingSymlinksInPath().path, toPath: temporary)
            } catch {
                throw .write(path: temporary, reason: error.localizedDescription)
            }
        }
        record(path, fingerprint, bytesHash)
    }

    /// Removes what this build no longer has; the build's files become what the sink holds.
    public func finish(paths: Set<String>) throws(OutputFailure) -> Set<String> {
        let gone: [String] = lock.withLock { held.keys.filter { !paths.contains($0) } }
        for path in gone { unlink(folder.path + "/" + path) }
        return lock.withLock {
            changed.formUnion(gone)
            for path in gone { next[path] = nil }
            held = next
            return changed
        }
    }

    /// What the sink holds, by path.
    public var outputs: [String: BuildState.StoredOutput] { lock.withLock { held } }

    private func sameBytes(_ path: String, _ bytesHash: Fingerprint, _ fingerprint: Fingerprint) -> Bool {
        lock.withLock {
            guard var stored = held[path], stored.bytesHash == bytesHash else { return false }
            stored.fingerprint = fingerprint
            next[path] = stored
            return true
        }
    }

    private func record(_ path: String, _ fingerprint: Fingerprint, _ bytesHash: Fingerprint) {
        lock.withLock {
            next[path] = BuildState.StoredOutput(fingerprint: fingerprint, bytesHash: bytesHash, signature: nil)
            changed.insert(path)
        }
    }

    /// Writes through a temporary name in the same folder, then renames it over `path`.
    private func place(_ path: String, _ make: (String) throws(OutputFailure) -> Void) throws(OutputFailure) {
        let components = path.split(separator: "/").dropLast()
        var relative = ""
        for component in components {
            relative += relative.isEmpty ? String(component) : "/" + component
            let code: Int32 = lock.withLock {
                guard !folders.contains(relative) else { return 0 }
                if mkdir(folder.path + "/" + relative, 0o755) != 0 && errno != EEXIST { return errno }
                folders.insert(relative)
                return 0
            }
            if code != 0 { throw .write(path: folder.path + "/" + relative, reason: SiteTransaction.reason(code)) }
        }
        let target = folder.path + "/" + path
        // A dotfile beside the target: the server never serves names starting with '.'.
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let temporary = folder.path + "/" + (relative.isEmpty ? "" : relative + "/") + ".\(name).\(UInt32.random(in: 0...UInt32.max)).tmp"
        do throws(OutputFailure) {
            try make(temporary)
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, target) == 0 else {
            let reason = SiteTransaction.reason(errno)
            unlink(temporary)
            throw .write(path: target, reason: reason)
        }
    }
}
