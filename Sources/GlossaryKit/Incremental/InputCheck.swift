import Foundation

/// What differs between the files a build reads now and those its state says the last build read. A file is
/// trusted by its signature where that can be trusted, and read and compared by its bytes where it can't (written
/// just before the last build looked, or touched since): a file written moments before a build costs the next build
/// one read, not its shortcuts.
struct InputCheck: Sendable {
    /// The markdown files whose bytes are what the state says, by path below `content/` (their signatures brought up
    /// to date).
    var unchanged: [String: BuildState.StoredPage] = [:]
    /// The markdown files that are new or whose bytes changed, with the bytes when they were read here.
    var changed: [String: Data?] = [:]
    /// The fingerprint of every file a plan may copy (content files, theme assets on disk), by path; missing where it
    /// can't be read.
    var hashes: [String: Fingerprint] = [:]
    /// The next state's table of those files, and of the state's other files found as they were.
    var files: [String: BuildState.StoredFile] = [:]
    /// The fingerprint of the rest of what a build reads (see `digest(source:config:theme:)`).
    var digest: Fingerprint
    /// Whether anything but markdown files' bytes differs from the state's (everything does without a state).
    var othersChanged: Bool
    /// When the files were looked at (the scan's start).
    var verifiedAt: Double

    /// Compares what the scan found (`source`, and `theme` as loaded from the site) with `state`. With `known` (a
    /// preview's watcher's word that of the files it watches only some markdown files changed since the state's build),
    /// the other markdown files and the other files it watches are taken as the state has them, unlooked at.
    init(source: SiteSource, theme: Theme?, state: BuildState?, known: SiteInputs.Known? = nil, verifiedAt: Double, jobs: Int) {
        self.verifiedAt = verifiedAt
        digest = Self.digest(source: source, theme: theme)
        othersChanged = state == nil || state?.digest != digest
        let lastLook = state?.verifiedAt ?? 0
        /// What a markdown file is against the state: as it says; its bytes as it says under another signature; or
        /// changed (new, unreadable, or other bytes, with them when read).
        enum Look: Sendable {
            case same
            case touched(FileSignature)
            case changed(Data?)
        }
        @Sendable func look(_ file: SiteSource.File) -> Look {
            guard let stored = state?.pages[file.contentPath], let signature = file.signature else { return .changed(nil) }
            if signature == stored.signature && signature.isSettled(at: lastLook) { return .same }
            guard case .success(let data) = FileContents.read(file.path) else { return .changed(nil) }
            guard Fingerprint.of(bytes: data) == stored.hash else { return .changed(data) }
            return signature == stored.signature ? .same : .touched(signature)
        }
        // With the same paths (the digest holds them), the changed pages alone are looked at.
        let looked =
            if let known, state != nil, !othersChanged {
                source.markdownFiles.filter { known.changedPages.contains($0.contentPath) }
            } else {
                source.markdownFiles
            }
        // The state's pages, less those the scan no longer lists and those changed.
        unchanged = state?.pages ?? [:]
        if othersChanged && !unchanged.isEmpty {
            let listed = Set(source.markdownFiles.lazy.map(\.contentPath))
            unchanged = unchanged.filter { listed.contains($0.key) }
        }
        for (file, look) in zip(looked, looked.parallelMap(jobs: jobs, look)) {
            switch look {
            case .same: break
            case .touched(let signature): unchanged[file.contentPath]?.signature = signature
            case .changed(let data):
                unchanged[file.contentPath] = nil
                changed[file.contentPath] = .some(data)
            }
        }
        // The files a plan copies: each one's fingerprint, from the state's where its file is as stored.
        var copied = source.staticFiles.map { ($0.path, $0.signature) }
        for case .file(let url) in (theme?.assets ?? [:]).values { copied.append((url.path, FileSignature(path: url.path))) }
        let checked = copied.parallelMap(jobs: jobs) { path, signature -> BuildState.StoredFile? in
            if let known, known.sees(path), let stored = state?.files[path] { return stored }
            var read: Fingerprint?? = nil
            let readOnce = { () -> Fingerprint? in
                if let read { return read }
                let hash: Fingerprint? = if case .success(let data) = FileContents.read(path) { Fingerprint.of(bytes: data) } else { nil }
                read = .some(hash)
                return hash
            }
            if let stored = state?.files[path], stored.matches(signature, verifiedAt: lastLook, read: readOnce) { return stored.with(signature) }
            return readOnce().map { BuildState.StoredFile(signature: signature, hash: $0) }
        }
        for ((path, _), stored) in zip(copied, checked) {
            guard let stored, let hash = stored.hash else {
                othersChanged = true
                continue
            }
            hashes[path] = hash
            files[path] = stored
            if state?.files[path]?.hash != hash { othersChanged = true }
        }
        // The state's other files (cache entries, WordNet's data): each as it was, or something changed.
        let others = (state?.files ?? [:]).filter { hashes[$0.key] == nil }.map { ($0.key, $0.value) }
        let same = others.parallelMap(jobs: jobs) { path, stored -> BuildState.StoredFile? in
            if let known, known.sees(path) { return stored }
            let signature = FileSignature(path: path)
            let matches = stored.matches(signature, verifiedAt: lastLook) {
                if case .success(let data) = FileContents.read(path) { Fingerprint.of(bytes: data) } else { nil }
            }
            return matches ? stored.with(signature) : nil
        }
        for ((path, _), stored) in zip(others, same) {
            if let stored { files[path] = stored } else { othersChanged = true }
        }
    }

    /// Whether nothing the state's build read has changed.
    var nothingChanged: Bool { !othersChanged && changed.isEmpty }

    /// Everything else a build reads: the configuration's text, the theme's layers, templates and assets, the paths of
    /// the content's files, and what the scan left out.
    static func digest(source: SiteSource, theme: Theme?) -> Fingerprint {
        var hasher = FingerprintHasher()
        hasher.combine(source.configText)
        if let theme {
            hasher.combine(theme.name)
            hasher.combineCount(theme.layers.count)
            for layer in theme.layers { hasher.combine(layer.name) }
            for (name, text) in theme.templateSources.sorted(by: { $0.key < $1.key }) {
                hasher.combine(name)
                hasher.combine(text)
            }
            for (language, strings) in theme.strings.byLanguage.sorted(by: { $0.key < $1.key }) {
                hasher.combine(language)
                for (name, text) in strings.sorted(by: { $0.key < $1.key }) {
                    hasher.combine(name)
                    hasher.combine(text)
                }
            }
            for (name, asset) in theme.assets.sorted(by: { $0.key < $1.key }) {
                hasher.combine(name)
                switch asset {
                case .data(let data): hasher.combine(bytes: data)
                case .file(let url): hasher.combine(url.path)
                }
            }
        } else {
            hasher.combine(false)
        }
        for files in [source.markdownFiles, source.staticFiles] {
            hasher.combineCount(files.count)
            for file in files { hasher.combine(file.contentPath) }
        }
        for diagnostic in source.skippedDiagnostics { hasher.combine(diagnostic.description) }
        return hasher.finish()
    }
}

extension BuildState.StoredFile {
    /// The same file under a new signature (touched, or verified again).
    func with(_ signature: FileSignature?) -> BuildState.StoredFile {
        BuildState.StoredFile(signature: signature, hash: hash)
    }
}
