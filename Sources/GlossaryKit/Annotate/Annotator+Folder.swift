import Foundation

extension Annotator {
    /// What annotating a folder came to: the pages looked at, the files changed (or that would change, when not
    /// writing), by their shown paths, and the problems, in path order.
    public struct FolderResult: Sendable {
        public var pages: Int
        public var changed: [String]
        public var diagnostics: [Diagnostic]
    }

    /// Annotates every `.html` and `.htm` file below `folder` on `jobs` threads, writing only the files that change
    /// (each replaced whole by a rename, keeping its permissions) unless `write` is false. Paths are shown as
    /// `shown` + `/` + the path below the folder.
    public func annotate(folder: URL, shown: String, write: Bool, jobs: Int) -> FolderResult {
        let files = Self.pages(in: folder)
        let results = files.parallelMap(jobs: jobs) { relative -> (changed: Bool, diagnostics: [Diagnostic]) in
            let url = folder.appendingPathComponent(relative)
            let display = shown.isEmpty || shown == "." ? relative : (shown.hasSuffix("/") ? shown : shown + "/") + relative
            guard let data = FileManager.default.contents(atPath: url.path) else {
                return (false, [Diagnostic(.readFailed(reason: "can't be read"), at: .start(of: display))])
            }
            let (annotated, diagnostics) = annotate(data, file: display, written: write)
            guard let annotated else { return (false, diagnostics) }
            guard write else { return (true, diagnostics) }
            do {
                try Self.replace(url, with: annotated)
            } catch {
                return (true, diagnostics + [Diagnostic(.writeFailed(reason: "\(error)"), at: .start(of: display))])
            }
            return (true, diagnostics)
        }
        var changed: [String] = []
        var diagnostics: [Diagnostic] = []
        for (relative, result) in zip(files, results) {
            if result.changed { changed.append(relative) }
            diagnostics += result.diagnostics
        }
        return FolderResult(pages: files.count, changed: changed, diagnostics: diagnostics)
    }

    /// The HTML files below `folder`, sorted, as paths relative to it; hidden folders are left out.
    static func pages(in folder: URL) -> [String] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { return [] }
        let base = folder.standardizedFileURL.path
        var found: [String] = []
        for case let url as URL in walker {
            let name = url.lastPathComponent.lowercased()
            guard name.hasSuffix(".html") || name.hasSuffix(".htm"), (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
            else { continue }
            let path = url.standardizedFileURL.path
            found.append(path.hasPrefix(base + "/") ? String(path.dropFirst(base.count + 1)) : url.lastPathComponent)
        }
        return found.sorted()
    }

    /// Writes beside the file and renames over it, with the file's permissions.
    static func replace(_ url: URL, with data: Data) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).glossary-\(getpid())")
        try data.write(to: temporary)
        if let mode = try? FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] {
            try? FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: temporary.path)
        }
        guard rename(temporary.path, url.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
    }
}
