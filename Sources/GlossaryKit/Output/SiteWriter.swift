import Foundation

/// Writes a built site to its output folder atomically: everything goes into a fresh folder beside the
/// output, which then replaces the old one in a single rename. A failed write leaves the old site untouched,
/// and files whose source is gone disappear because nothing carries them over.
public struct SiteWriter: Sendable {
    public var output: URL

    public init(output: URL) {
        self.output = output.standardizedFileURL
    }

    public enum Failure: Error, CustomStringConvertible {
        case write(path: String, reason: String)

        public var description: String {
            switch self {
            case .write(let path, let reason): "can't write \(path): \(reason)"
            }
        }
    }

    public func write(_ site: SiteOutput) throws(Failure) {
        let fileManager = FileManager.default
        let parent = output.deletingLastPathComponent()
        let name = output.lastPathComponent
        let pid = ProcessInfo.processInfo.processIdentifier
        let staging = parent.appendingPathComponent(".\(name).building-\(pid)", isDirectory: true)
        let retired = parent.appendingPathComponent(".\(name).old-\(pid)", isDirectory: true)
        try? fileManager.removeItem(at: staging)
        do {
            try fileManager.createDirectory(at: staging, withIntermediateDirectories: true)
            var folders = Set<String>()
            for path in site.paths.sorted() {
                let destination = staging.appendingPathComponent(path)
                let folder = (path as NSString).deletingLastPathComponent
                if !folder.isEmpty, folders.insert(folder).inserted {
                    try fileManager.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
                }
                if let data = site.files[path] {
                    guard fileManager.createFile(atPath: destination.path, contents: data) else {
                        throw Failure.write(path: destination.path, reason: "the file could not be created")
                    }
                } else if let source = site.copies[path] {
                    try fileManager.copyItem(at: source, to: destination)
                }
            }
            try carryOverDotfiles(into: staging)
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
        if hadOutput { try? fileManager.removeItem(at: retired) }
    }

    /// Top-level dotfiles of the old output (`.git` of a gh-pages checkout, `.gitkeep`) are the user's, not
    /// the build's: they move into the new site rather than being deleted.
    private func carryOverDotfiles(into staging: URL) throws {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: output.path) else { return }
        for name in names where name.hasPrefix(".") {
            try FileManager.default.copyItem(at: output.appendingPathComponent(name), to: staging.appendingPathComponent(name))
        }
    }
}
