import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes a built site to its output folder atomically: everything goes into a fresh folder beside the
/// output, which then replaces the old one in a single rename. A failed write leaves the old site untouched,
/// and files whose source is gone disappear because nothing carries them over.
public struct SiteWriter: Sendable {
    public var output: URL

    public init(output: URL) {
        self.output = output.standardizedFileURL
    }

    public enum Failure: LocalizedError, CustomStringConvertible {
        case write(path: String, reason: String)

        public var description: String {
            switch self {
            case .write(let path, let reason): "can't write \(path): \(reason)"
            }
        }

        public var errorDescription: String? { description }
    }

    /// Files written at once: on this project's ext4 virtual disks two writers beat one, more only added kernel time.
    static let writers = 2

    public func write(_ site: SiteOutput) throws(Failure) {
        let fileManager = FileManager.default
        let parent = output.deletingLastPathComponent()
        let name = output.lastPathComponent
        let pid = ProcessInfo.processInfo.processIdentifier
        let staging = parent.appendingPathComponent(".\(name).building-\(pid)", isDirectory: true)
        let retired = parent.appendingPathComponent(".\(name).old-\(pid)", isDirectory: true)
        if fileManager.fileExists(atPath: staging.path) { try? fileManager.removeItem(at: staging) }
        do {
            try fileManager.createDirectory(at: staging, withIntermediateDirectories: true)
            var folders: Set<String> = [""]
            let paths = site.paths.sorted()
            for path in paths { try Self.makeFolders(for: path, in: staging.path, known: &folders) }
            // Writing is latency-bound on virtual disks: several writers in flight finish sooner than one.
            let root = staging.path
            let failures = paths.parallelMap(jobs: Self.writers) { path -> Failure? in
                let destination = root + "/" + path
                do {
                    if let data = site.files[path] {
                        try Self.writeFile(data, to: destination)
                    } else if let source = site.copies[path] {
                        try FileManager.default.copyItem(atPath: source.path, toPath: destination)
                    }
                    return nil
                } catch let failure as Failure {
                    return failure
                } catch {
                    return .write(path: destination, reason: error.localizedDescription)
                }
            }
            if let failure = failures.lazy.compactMap({ $0 }).first { throw failure }
        } catch {
            try? fileManager.removeItem(at: staging)
            if let failure = error as? Failure { throw failure }
            throw .write(path: output.path, reason: error.localizedDescription)
        }

        // Swap: the old site moves aside, the new one takes its name, the old one is deleted.
        let hadOutput = fileManager.fileExists(atPath: output.path)
        if hadOutput {
            try? fileManager.removeItem(at: retired)
            guard rename(output.path, retired.path) == 0 else {
                let reason = String(cString: strerror(errno))
                try? fileManager.removeItem(at: staging)
                throw .write(path: output.path, reason: reason)
            }
        }
        guard rename(staging.path, output.path) == 0 else {
            let reason = String(cString: strerror(errno))
            if hadOutput { _ = rename(retired.path, output.path) }
            try? fileManager.removeItem(at: staging)
            throw .write(path: output.path, reason: reason)
        }
        if hadOutput {
            carryOverDotfiles(from: retired)
            try? fileManager.removeItem(at: retired)
        }
    }

    /// Creates the folders above `path` that don't exist yet, parents first, with plain `mkdir` (Foundation's
    /// intermediate-directory creation checks every component again for every file).
    static func makeFolders(for path: String, in root: String, known: inout Set<String>) throws(Failure) {
        let components = path.split(separator: "/").dropLast()
        var folder = ""
        for component in components {
            folder += folder.isEmpty ? String(component) : "/" + component
            guard known.insert(folder).inserted else { continue }
            if mkdir(root + "/" + folder, 0o755) != 0 && errno != EEXIST {
                throw .write(path: root + "/" + folder, reason: String(cString: strerror(errno)))
            }
        }
    }

    /// Plain open/write/close: the staging folder as a whole is what becomes visible atomically, so each file
    /// needs no temporary copy or sync of its own (Foundation's atomic writes cost ~1 ms a file here).
    static func writeFile(_ data: Data, to path: String, sync: Bool = false) throws(Failure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .write(path: path, reason: String(cString: strerror(errno))) }
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
        if failure != 0 { throw .write(path: path, reason: String(cString: strerror(failure))) }
    }

    /// Top-level dotfiles of the old output (`.git` of a gh-pages checkout, `.gitkeep`) are the user's, not
    /// the build's: once the new site is in place they move into it (a rename each, however large), instead
    /// of being deleted with the old site.
    private func carryOverDotfiles(from retired: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: retired.path) else { return }
        for name in names where name.hasPrefix(".") {
            _ = rename(retired.appendingPathComponent(name).path, output.appendingPathComponent(name).path)
        }
    }
}
