import Foundation

/// What a build was made from, for its snapshot: the values it used, as it used them.
struct SnapshotInputs: Sendable {
    var source: SiteSource
    var theme: Theme
    var cacheFiles: [(path: String, signature: FileSignature?)]
    /// When the first cached definition it used goes stale (only a build that may fetch cares).
    var validUntil: Double
    /// The build would ask the dictionary again next time: it fetched, or left terms unresolved or stale.
    var wantsNetwork: Bool
}

extension SiteBuilder {
    /// The digest of everything a build reads: the options that shape the output, the configuration, WordNet's
    /// data, the theme, every content file by signature, what the scan left out, and the cache files by signature.
    static func snapshotDigest(
        options: BuildOptions, source: SiteSource, theme: Theme, assetSignature: (URL) -> FileSignature?,
        cacheFiles: [(path: String, signature: FileSignature?)]
    ) -> Fingerprint {
        var hasher = FingerprintHasher()
        func combine(_ signature: FileSignature?) {
            guard let signature else { return hasher.combine(false) }
            hasher.combine(true)
            for value in [
                Int(bitPattern: UInt(signature.device)), Int(bitPattern: UInt(signature.inode)), Int(signature.size), signature.modifiedSeconds,
                signature.modifiedNanoseconds, signature.changedSeconds, signature.changedNanoseconds,
            ] {
                hasher.combine(value)
            }
        }
        hasher.combine("snapshot")
        hasher.combine(EngineIdentity.current)
        hasher.combine(options.outputDirectory.standardizedFileURL.path)
        hasher.combine(options.offline)
        hasher.combine(options.drafts)
        hasher.combine(options.baseURL)
        hasher.combine(options.apiURL)
        hasher.combine(source.configText)
        // WordNet's data (definitions, and Morphy's word forms even where WordNet defines nothing): its folder and
        // the files libwordnet reads.
        let wordNetFolder = wordNetFolder(options)
        hasher.combine(wordNetFolder)
        for name in WordNet.requiredFiles { combine(FileSignature(path: wordNetFolder + "/" + name)) }
        let templates = theme.templateSources.sorted { $0.key < $1.key }
        hasher.combineCount(templates.count)
        for (name, text) in templates {
            hasher.combine(name)
            hasher.combine(text)
        }
        let assets = theme.assets.sorted { $0.key < $1.key }
        hasher.combineCount(assets.count)
        for (name, asset) in assets {
            hasher.combine(name)
            switch asset {
            case .data(let data):
                // Built into this binary, which the engine's identity already stands for.
                hasher.combine(data.count)
            case .file(let url):
                hasher.combine(url.path)
                combine(assetSignature(url))
            }
        }
        for files in [source.markdownFiles, source.staticFiles] {
            hasher.combineCount(files.count)
            for file in files {
                hasher.combine(file.contentPath)
                combine(file.signature)
            }
        }
        let skipped = source.skippedDiagnostics
        hasher.combineCount(skipped.count)
        for diagnostic in skipped { hasher.combine(diagnostic.description) }
        hasher.combineCount(cacheFiles.count)
        for (path, signature) in cacheFiles {
            hasher.combine(path)
            combine(signature)
        }
        return hasher.finish()
    }

    /// The result of the build the snapshot describes, when nothing it was made from changed and the output
    /// folder is as it left it; nil otherwise (the build then runs).
    ///
    /// `listing` is what the output folder holds now (`listing(of:)`).
    func replay(_ snapshot: BuildSnapshot, scan: (SiteSource, [Diagnostic]), listing present: [String: FileSignature], started: Date) -> BuildResult? {
        let (source, _) = scan
        let now = Date().timeIntervalSince1970
        guard now < snapshot.validUntil, let configText = source.configText else { return nil }
        let (config, _) = SiteConfig.load(yaml: configText, file: "glossary.yml")
        guard let theme = Theme.load(name: config.theme, siteRoot: options.source, location: nil, displayPath: displayPath).0 else { return nil }
        let cacheFiles = snapshot.cacheFiles.map { ($0.path, FileSignature(path: $0.path)) }
        let digest = Self.snapshotDigest(
            options: options, source: source, theme: theme, assetSignature: { FileSignature(path: $0.path) }, cacheFiles: cacheFiles)
        guard digest == snapshot.digest else { return nil }
        // The output folder: the same folder, every file as written, nothing added.
        let output = options.outputDirectory.standardizedFileURL
        guard FileSignature(path: output.path)?.identity == snapshot.outputFolder.identity else { return nil }
        guard present.count == snapshot.outputs.count,
            snapshot.outputs.allSatisfy({ present[$0.path]?.isUnmodified(since: $0.signature) == true })
        else { return nil }
        let paths = Set(snapshot.outputs.map(\.path))

        var result = BuildResult(diagnostics: snapshot.diagnostics, stats: snapshot.stats)
        result.config = config
        result.outputs = OutputChanges(paths: paths, changed: [])
        result.stats.totalSeconds = Date().timeIntervalSince(started)
        result.stats.stageTimes = [("check", result.stats.totalSeconds)]
        return result
    }

    /// Every file below `folder` (top-level dotfiles left out: they are the owner's) with its signature, from walks
    /// that stat each entry relative to its open folder: the top level here, each folder below it on the next free
    /// core (a site of 10,000 pages has as many folders, and opening them is most of a build with nothing to do).
    static func listing(of folder: String, jobs: Int = 2) -> [String: FileSignature] {
        var files: [(String, FileSignature)] = []
        var folders: [String]? = []
        guard let top = opendir(folder) else { return [:] }
        walk(top, prefix: "", into: &files, folders: &folders)
        closedir(top)
        let below = (folders ?? []).parallelMap(jobs: jobs) { name -> [(String, FileSignature)] in
            var found: [(String, FileSignature)] = []
            var none: [String]? = nil
            guard let directory = opendir(folder + "/" + name) else {
                // A folder that can't be read is not what the build left.
                return FileSignature(path: folder + "/" + name).map { [(name + "/", $0)] } ?? []
            }
            walk(directory, prefix: name + "/", into: &found, folders: &none)
            closedir(directory)
            return found
        }
        var result: [String: FileSignature] = [:]
        result.reserveCapacity(files.count + below.reduce(0) { $0 + $1.count })
        for (path, signature) in files { result[path] = signature }
        for part in below { for (path, signature) in part { result[path] = signature } }
        return result
    }

    /// The entries of an open folder, its subfolders walked too — or, with `folders`, only named there (the top
    /// level, whose dotfiles are left out).
    private static func walk(_ directory: OpaquePointer, prefix: String, into result: inout [(String, FileSignature)], folders: inout [String]?) {
        let descriptor = dirfd(directory)
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
            if name == "." || name == ".." || (folders != nil && name.hasPrefix(".")) { continue }
            var info = stat()
            guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            guard info.st_mode & S_IFMT == S_IFDIR else {
                result.append((prefix + name, FileSignature(info)))
                continue
            }
            if folders != nil {
                folders?.append(name)
                continue
            }
            let child = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard child >= 0, let inner = fdopendir(child) else {
                // A folder that can't be read is not what the build left.
                if child >= 0 { close(child) }
                result.append((prefix + name + "/", FileSignature(info)))
                continue
            }
            walk(inner, prefix: prefix + name + "/", into: &result, folders: &folders)
            closedir(inner)
        }
    }

    /// The snapshot of a build that just wrote `outputs` into the output folder, or nil when the next build
    /// could not trust one: it may fetch, or an input changed so recently that its signature can't be trusted.
    func snapshot(of result: BuildResult, inputs: SnapshotInputs, outputs: [String: BuildState.StoredOutput], started: Date) -> BuildSnapshot? {
        guard !inputs.wantsNetwork || options.offline, !options.refresh else { return nil }
        let startedAt = started.timeIntervalSince1970
        let settle = state.settleSeconds
        let inputFiles = inputs.source.markdownFiles + inputs.source.staticFiles
        guard inputFiles.allSatisfy({ $0.signature?.isSettled(at: startedAt, after: settle) == true }),
            inputs.cacheFiles.allSatisfy({ $0.signature?.isSettled(at: startedAt, after: settle) ?? true })
        else { return nil }
        var written: [(path: String, signature: FileSignature)] = []
        for (path, output) in outputs.sorted(by: { $0.key < $1.key }) {
            guard let signature = output.signature else { return nil }
            written.append((path, signature))
        }
        guard let folder = FileSignature(path: options.outputDirectory.standardizedFileURL.path) else { return nil }
        let known = state.withLock { $0.files }
        var assetsSettled = true
        let digest = Self.snapshotDigest(
            options: options, source: inputs.source, theme: inputs.theme,
            assetSignature: { url in
                let signature = known[url.path]?.signature ?? FileSignature(path: url.path)
                if signature?.isSettled(at: startedAt, after: settle) != true { assetsSettled = false }
                return signature
            }, cacheFiles: inputs.cacheFiles)
        guard assetsSettled else { return nil }
        var stats = result.stats
        stats.fetched = 0
        return BuildSnapshot(
            digest: digest, validUntil: options.offline ? .infinity : inputs.validUntil, outputFolder: folder, outputs: written,
            cacheFiles: inputs.cacheFiles, diagnostics: result.diagnostics, stats: stats)
    }
}
