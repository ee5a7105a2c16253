import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The preview server's own folder, updated in place file by file: each file is replaced in one rename (a request
/// reads the old file or the new one, whole), and files made from the same value stay untouched, so a rebuild writes
/// only what changed. Nobody else writes the folder, so what it holds is what the builds' states say.
public final class FolderSink: IncrementalSink, Sendable {
    public let folder: URL
    private let folderPath: String
    /// What the folder held when the build began (the last build's outputs), and what it holds now.
    private let build = Mutex<(held: [String: BuildState.StoredOutput], table: OutputTable)>(([:], OutputTable(before: [:])))
    private let folders = Mutex<Set<String>>([""])
    /// What the folder held when the last build finished, whatever the state says of it.
    private let last = Mutex<[String: BuildState.StoredOutput]>([:])

    /// Creates (or empties) `folder`.
    public init(folder: URL) throws(OutputFailure) {
        self.folder = folder.standardizedFileURL
        folderPath = self.folder.path
        try? FileManager.default.removeItem(at: self.folder)
        do {
            try FileManager.default.createDirectory(at: self.folder, withIntermediateDirectories: true)
        } catch {
            throw .create(folder: folderPath, reason: error.localizedDescription)
        }
    }

    /// Starts a build of the folder as the last good build, of `state`, left it (nil: the folder's files are not
    /// known, and each is made again). Nobody else writes the folder: it is always as the state says.
    func start(from state: BuildState?, jobs: Int) -> Bool {
        // Without a state, the files are still the folder's: none is kept, and those the build doesn't make go.
        let outputs = state?.outputs ?? last.withLock { $0 }.mapValues { .init(fingerprint: nil, bytesHash: $0.bytesHash, signature: nil) }
        build.withLock { $0 = (outputs, OutputTable(before: outputs)) }
        return true
    }

    private var held: [String: BuildState.StoredOutput] { build.withLock { $0.held } }
    private var table: OutputTable { build.withLock { $0.table } }

    public func keep(_ path: String, fingerprint: Fingerprint) throws(OutputFailure) -> Bool {
        held[path]?.fingerprint == fingerprint
    }

    public func write(_ path: String, _ data: Data, fingerprint: Fingerprint?, slots: MustacheSlots?) throws(OutputFailure) {
        let output = BuildState.StoredOutput(fingerprint: fingerprint, bytesHash: .of(bytes: data), signature: nil, slots: slots)
        if held[path]?.bytesHash != output.bytesHash {
            try place(path) { temporary throws(OutputFailure) in try SiteTransaction.writeFile(data, to: temporary) }
        }
        table.record(path, output)
    }

    public func copy(_ path: String, from source: URL, fingerprint: Fingerprint) throws(OutputFailure) {
        if held[path]?.bytesHash != fingerprint {
            try place(path) { temporary throws(OutputFailure) in
                do {
                    try FileManager.default.copyItem(atPath: source.resolvingSymlinksInPath().path, toPath: temporary)
                } catch {
                    throw .write(path: temporary, reason: error.localizedDescription)
                }
            }
        }
        table.record(path, .init(fingerprint: fingerprint, bytesHash: fingerprint, signature: nil))
    }

    /// Every file not written so far is kept as it is (a text edit, which writes the few files it changes).
    func keepTheRest() {}

    /// The bytes the folder holds at `path`.
    func bytes(_ path: String) -> Data? {
        guard case .success(let data) = FileContents.read(folderPath + "/" + path) else { return nil }
        return data
    }

    /// Removes what this build no longer has.
    public func finish(paths: Set<String>) throws(OutputFailure) -> Set<String> {
        for path in held.keys where !paths.contains(path) { unlink(folderPath + "/" + path) }
        let changed = table.keep(only: paths)
        last.withLock { $0 = table.outputs }
        return changed
    }

    /// What the folder holds once the build is done.
    var outputs: [String: BuildState.StoredOutput] { table.outputs }

    /// Writes through a temporary name in the same folder, then renames it over `path`.
    private func place(_ path: String, _ make: (String) throws(OutputFailure) -> Void) throws(OutputFailure) {
        var relative = ""
        for component in path.split(separator: "/").dropLast() {
            relative += relative.isEmpty ? String(component) : "/" + component
            let code: Int32 = folders.withLock { folders in
                guard !folders.contains(relative) else { return 0 }
                if mkdir(folderPath + "/" + relative, 0o755) != 0 && errno != EEXIST { return errno }
                folders.insert(relative)
                return 0
            }
            if code != 0 { throw .write(path: folderPath + "/" + relative, reason: SiteTransaction.reason(code)) }
        }
        let target = folderPath + "/" + path
        // A dotfile beside the target: the server never serves names starting with '.'.
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let temporary = folderPath + "/" + (relative.isEmpty ? "" : relative + "/") + ".\(name).\(UInt32.random(in: 0...UInt32.max)).tmp"
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
