import Foundation

/// The files a site is built from, read from disk in one place so every later stage works on values.
public struct SiteSource: Sendable {
    public struct File: Sendable {
        /// Path relative to the source folder (`content/guide/intro.md`), used in diagnostics.
        public var displayPath: String
        /// Path below `content/`.
        public var contentPath: String
        /// The file's absolute path.
        public var path: String
        /// What `stat` said when the scan listed it (through a symbolic link, the file linked to).
        public var signature: FileSignature?

        public init(displayPath: String, contentPath: String, url: URL, signature: FileSignature? = nil) {
            self.init(displayPath: displayPath, contentPath: contentPath, path: url.path, signature: signature)
        }

        init(displayPath: String, contentPath: String, path: String, signature: FileSignature?) {
            self.displayPath = displayPath
            self.contentPath = contentPath
            self.path = path
            self.signature = signature
        }

        /// Made when asked for: a URL per file cost more than the rest of the scan.
        public var url: URL { URL(fileURLWithPath: path, isDirectory: false) }
    }

    public var root: URL
    /// `root`'s `content/` folder's path with a trailing slash.
    private var contentFolderPath: String {
        let path = root.path
        return path + (path.hasSuffix("/") ? "" : "/") + "content/"
    }
    public var configText: String?
    public var markdownFiles: [File] = []
    /// Files copied as they are (images, downloads).
    public var staticFiles: [File] = []
    /// What the scan found and left out, by path below `content/` (reported again by every build).
    var skipped: [String: Diagnostic] = [:]
    /// Whether a file was listed through a symbolic link: a change to it is seen under its target's name.
    var hasLinks = false

    /// Reads `glossary.yml` and lists `content/`; dotfiles and dot-folders are skipped.
    public static func scan(root: URL) -> (SiteSource, [Diagnostic]) {
        var source = SiteSource(root: root)
        var diagnostics: [Diagnostic] = []
        let configURL = root.appendingPathComponent("glossary.yml")
        if let data = FileManager.default.contents(atPath: configURL.path) {
            source.configText = String(decoding: data, as: UTF8.self)
        } else {
            diagnostics.append(Diagnostic(.configMissing(folder: root.path)))
        }
        let content = root.appendingPathComponent("content", isDirectory: true)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: content.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            diagnostics.append(Diagnostic(.contentMissing(folder: root.path)))
            return (source, diagnostics)
        }
        let files = Self.listEntries(in: content) { path, reason in
            source.skipped[path] = Diagnostic(reason.problem(in: "content"), at: .start(of: "content/" + path))
        }
        let base = source.contentFolderPath
        for (relative, signature, linked) in files {
            source.add(relative, signature: signature, base: base)
            source.hasLinks = source.hasLinks || linked
        }
        return (source, diagnostics + source.skippedDiagnostics)
    }

    /// The scan brought up to date for the markdown files at `paths` (relative to the root, as a watcher reports
    /// them), when they alone changed since it: each is looked at again. Nil when anything else is among them (a
    /// folder, another kind of file, a file not listed, gone or no longer a regular file), or when the source has a
    /// file listed through a link or left anything out (a link's target, a folder's permissions, change unseen
    /// under the names listed): then only a new scan tells what changed.
    func refreshed(_ paths: Set<String>) -> SiteSource? {
        guard !hasLinks, skipped.isEmpty else { return nil }
        var source = self
        for path in paths {
            guard path.hasPrefix("content/"), path.hasSuffix(".md") else { return nil }
            let contentPath = String(path.dropFirst("content/".count))
            var info = stat()
            guard let index = markdownFiles.firstIndex(where: { $0.contentPath == contentPath }),
                lstat(markdownFiles[index].path, &info) == 0, info.st_mode & S_IFMT == S_IFREG
            else { return nil }
            source.markdownFiles[index].signature = FileSignature(info)
        }
        return source
    }

    /// The scan's problems, in path order.
    var skippedDiagnostics: [Diagnostic] {
        skipped.sorted { Self.precedes($0.key, $1.key) }.map(\.value)
    }

    private mutating func add(_ relative: String, signature: FileSignature, base: String) {
        let file = File(displayPath: "content/" + relative, contentPath: relative, path: base + relative, signature: signature)
        if relative.hasSuffix(".md") && !IgnoredNames.isHidden(relative) { markdownFiles.append(file) } else { staticFiles.append(file) }
    }

    /// The order a scan lists paths in: folder by folder, names sorted (so `a/b.md` comes before `a.md`).
    ///
    /// On ASCII paths, compared byte by byte with `/` below every other byte (a folder's name ends there): what
    /// comparing the components gives, without splitting (a preview rebuild sorts every path of the site).
    static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        var left = lhs.utf8.makeIterator()
        var right = rhs.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return false
            case (nil, _): return true
            case (_, nil): return false
            case (let a?, let b?):
                guard a < 0x80 && b < 0x80 else { return lhs.split(separator: "/").lexicographicallyPrecedes(rhs.split(separator: "/")) }
                if a == b { continue }
                if a == UInt8(ascii: "/") { return true }
                if b == UInt8(ascii: "/") { return false }
                return a < b
            }
        }
    }

    /// Why an entry of a folder was left out of the site.
    public enum SkipReason: Sendable, Equatable {
        /// A link to a folder (which could loop) or out of the folder being listed.
        case symlinkOut
        case danglingSymlink
        case symlinkLoop
        /// A FIFO, socket or device.
        case notRegular(kind: String)
        case unreadableFolder(reason: String)
        case nameNotUTF8(shown: String)

        /// The problem it is, for a file in `folder` (as diagnostics show it: `content`, `themes/x/assets`).
        func problem(in folder: String) -> Problem {
            switch self {
            case .symlinkOut: .symlinkSkipped(folder: folder)
            case .danglingSymlink: .fileSkipped(reason: "it is a symbolic link to nothing")
            case .symlinkLoop: .fileSkipped(reason: "it is a symbolic link that loops")
            case .notRegular(let kind): .fileSkipped(reason: "it is \(kind), not a regular file")
            case .unreadableFolder(let reason): .fileSkipped(reason: "the folder can't be read: \(reason)")
            case .nameNotUTF8: .fileSkipped(reason: "its name is not valid UTF-8")
            }
        }
    }

    /// Relative paths of the regular files below `folder`, sorted, skipping anything whose name starts with `.`
    /// or ends with `~` (editor backups).
    ///
    /// Symbolic links are followed only to files inside `folder`: a link to a folder could loop, and a link
    /// out of the folder would publish a file the site doesn't own. `skipped` hears of each entry left out and
    /// why. Names are read with `readdir`, so a name that is not UTF-8 is noticed instead of mangled.
    static func listFiles(in folder: URL, skipped: (String, SkipReason) -> Void = { _, _ in }) -> [String] {
        listEntries(in: folder, skipped: skipped).map(\.path)
    }

    /// A file `listEntries` found: its signature from the scan's own `stat`, and whether it was found through a link.
    typealias Entry = (path: String, signature: FileSignature, linked: Bool)

    /// `listFiles`, with each file's signature and whether it is a link.
    static func listEntries(in folder: URL, skipped: (String, SkipReason) -> Void = { _, _ in }) -> [Entry] {
        let root = folder.resolvingSymlinksInPath().standardizedFileURL.path + "/"
        /// What a folder's walk found: files in walk order, and what it skipped.
        struct Found: Sendable {
            var files: [Entry] = []
            var skipped: [(path: String, reason: SkipReason)] = []
            /// The top folder's subfolders, when their walks are left for later (`fanOut`), each at the place in
            /// `files` where its files go.
            var deferred: [(path: String, prefix: String, at: Int, skippedAt: Int)] = []
        }
        /// Walks `path`; with `fanOut`, the subfolders are only noted, to be walked on every core.
        @Sendable func walk(_ path: String, prefix: String, fanOut: Bool, into found: inout Found) {
            guard let directory = opendir(path) else {
                found.skipped.append((String(prefix.dropLast()), .unreadableFolder(reason: FileContents.reason(errno))))
                return
            }
            defer { closedir(directory) }
            let folder = dirfd(directory)
            var names: [(String, [UInt8])] = []
            while let entry = readdir(directory) {
                let bytes = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
                guard let name = String(validating: bytes, as: UTF8.self) else {
                    let shown = String(decoding: bytes, as: UTF8.self)
                    if !bytes.withUnsafeBufferPointer(IgnoredNames.contains(utf8:)) { found.skipped.append((prefix + shown, .nameNotUTF8(shown: shown))) }
                    continue
                }
                names.append((name, bytes))
            }
            for (name, bytes) in names.sorted(by: { $0.0 < $1.0 }) where !bytes.withUnsafeBufferPointer(IgnoredNames.contains(utf8:)) {
                let child = path + "/" + name
                // lstat, then stat through a link, relative to the open folder: plain system calls (Foundation's
                // attribute calls cost more than the rest of the scan together, and a full path is looked up again
                // component by component).
                var info = stat()
                guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
                let isLink = info.st_mode & S_IFMT == S_IFLNK
                if isLink && fstatat(folder, name, &info, 0) != 0 {
                    found.skipped.append((prefix + name, errno == ELOOP ? .symlinkLoop : .danglingSymlink))
                    continue
                }
                let kind = info.st_mode & S_IFMT
                let isDirectory = kind == S_IFDIR
                if isLink && (isDirectory || !URL(fileURLWithPath: child).resolvingSymlinksInPath().standardizedFileURL.path.hasPrefix(root)) {
                    found.skipped.append((prefix + name, .symlinkOut))
                } else if isDirectory {
                    if fanOut {
                        found.deferred.append((child, prefix + name + "/", found.files.count, found.skipped.count))
                    } else {
                        walk(child, prefix: prefix + name + "/", fanOut: false, into: &found)
                    }
                } else if kind == S_IFREG {
                    found.files.append((prefix + name, FileSignature(info), isLink))
                } else {
                    let described = kind == S_IFIFO ? "a FIFO" : kind == S_IFSOCK ? "a socket" : "a device"
                    found.skipped.append((prefix + name, .notRegular(kind: described)))
                }
            }
        }
        // The top folder's subfolders are walked on every core (a site's pages are mostly in a few of them), and their
        // findings put back where a walk of one core would have found them.
        var top = Found()
        walk(folder.path, prefix: "", fanOut: true, into: &top)
        let below = top.deferred.parallelMap(jobs: 2) { folder in
            var found = Found()
            walk(folder.path, prefix: folder.prefix, fanOut: false, into: &found)
            return found
        }
        var result: [Entry] = []
        var reasons: [(path: String, reason: SkipReason)] = []
        var (filesTaken, skippedTaken) = (0, 0)
        for (folder, found) in zip(top.deferred, below) {
            result += top.files[filesTaken..<folder.at]
            reasons += top.skipped[skippedTaken..<folder.skippedAt]
            (filesTaken, skippedTaken) = (folder.at, folder.skippedAt)
            result += found.files
            reasons += found.skipped
        }
        result += top.files[filesTaken...]
        reasons += top.skipped[skippedTaken...]
        for (path, reason) in reasons { skipped(path, reason) }
        return result
    }

    /// The text of a markdown file, or an error naming it.
    public func read(_ file: File) -> Result<String, Diagnostic> {
        switch FileContents.read(file.path) {
        case .failure(let failure):
            return .failure(Diagnostic(.readFailed(reason: failure.reason), at: .start(of: file.displayPath)))
        case .success(let data):
            return Self.decodeUTF8(data, file: file.displayPath)
        }
    }

    /// `data` as text, or an `encoding` error at the line and column of the first byte that is not UTF-8.
    static func decodeUTF8(_ data: Data, file: String) -> Result<String, Diagnostic> {
        if let text = String(validating: data, as: UTF8.self) { return .success(text) }
        var line = 1
        var column = 1
        var decoder = UTF8()
        var iterator = data.makeIterator()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if scalar == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            case .emptyInput, .error:
                return .failure(Diagnostic(.encoding, at: SourceLocation(file: file, line: line, column: column)))
            }
        }
    }
}
