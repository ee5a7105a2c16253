import Foundation

/// The files a site is built from, read from disk in one place so every later stage works on values.
public struct SiteSource: Sendable {
    public struct File: Sendable {
        /// Path relative to the source folder (`content/guide/intro.md`), used in diagnostics.
        public var displayPath: String
        /// Path below `content/`.
        public var contentPath: String
        public var url: URL

        public init(displayPath: String, contentPath: String, url: URL) {
            self.displayPath = displayPath
            self.contentPath = contentPath
            self.url = url
        }
    }

    public var root: URL
    public var configText: String?
    public var markdownFiles: [File] = []
    /// Files copied as they are (images, downloads).
    public var staticFiles: [File] = []

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
        let files = Self.listFiles(in: content) { path in
            diagnostics.append(Diagnostic(.symlinkSkipped, at: .start(of: "content/" + path)))
        }
        for relative in files {
            let file = File(displayPath: "content/" + relative, contentPath: relative, url: content.appendingPathComponent(relative))
            if relative.hasSuffix(".md") {
                source.markdownFiles.append(file)
            } else {
                source.staticFiles.append(file)
            }
        }
        return (source, diagnostics)
    }

    /// Relative paths of the regular files below `folder`, sorted, skipping anything whose name starts with `.`.
    ///
    /// Symbolic links are followed only to files inside `folder`: a link to a folder could loop, and a link
    /// out of the folder would publish a file the site doesn't own. `skipped` hears of each one left out.
    static func listFiles(in folder: URL, skipped: (String) -> Void = { _ in }) -> [String] {
        let root = folder.resolvingSymlinksInPath().standardizedFileURL.path + "/"
        var result: [String] = []
        func walk(_ url: URL, prefix: String) {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) else { return }
            for name in names.sorted() where !name.hasPrefix(".") && !name.hasSuffix("~") {
                let child = url.appendingPathComponent(name)
                // lstat, then stat through a link: plain system calls (Foundation's attribute calls cost more
                // than the rest of the scan together).
                var info = stat()
                guard lstat(child.path, &info) == 0 else { continue }
                let isLink = info.st_mode & S_IFMT == S_IFLNK
                if isLink && stat(child.path, &info) != 0 { continue }
                let isDirectory = info.st_mode & S_IFMT == S_IFDIR
                if isLink && (isDirectory || !child.resolvingSymlinksInPath().standardizedFileURL.path.hasPrefix(root)) {
                    skipped(prefix + name)
                } else if isDirectory {
                    walk(child, prefix: prefix + name + "/")
                } else if info.st_mode & S_IFMT == S_IFREG {
                    result.append(prefix + name)
                }
            }
        }
        walk(folder, prefix: "")
        return result
    }

    /// The text of a markdown file, or an error naming it.
    public func read(_ file: File) -> Result<String, Diagnostic> {
        switch FileContents.read(file.url.path) {
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
