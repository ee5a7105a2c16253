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
    /// The digest of everything a build reads but the markdown files' signatures (`BuildSnapshot.markdown` has them):
    /// the options that shape the output, the configuration, WordNet's data, the theme, every content file's path and
    /// every other content file's signature, what the scan left out, and the cache files by signature.
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
        hasher.combineCount(source.markdownFiles.count)
        for file in source.markdownFiles { hasher.combine(file.contentPath) }
        hasher.combineCount(source.staticFiles.count)
        for file in source.staticFiles {
            hasher.combine(file.contentPath)
            combine(file.signature)
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

    /// What a later build compares with the snapshot: the scan, the configuration and theme it names, and the digest of
    /// everything but the markdown files' signatures; nil when the snapshot is past its time or the site can't be read.
    struct Comparison {
        var source: SiteSource
        var config: SiteConfig
        var theme: Theme
        /// Whether the digest is the snapshot's: then only markdown files' signatures can differ.
        var sameDigest: Bool
        /// The markdown files (by index in the scan) whose signatures differ from the snapshot's.
        var changedMarkdown: [Int]
    }

    func compare(_ snapshot: BuildSnapshot, scan: (SiteSource, [Diagnostic])) -> Comparison? {
        let (source, _) = scan
        guard options.now().timeIntervalSince1970 < snapshot.validUntil, let configText = source.configText else { return nil }
        let (config, _) = SiteConfig.load(yaml: configText, file: "glossary.yml")
        guard let theme = Theme.load(name: config.theme, siteRoot: options.source, location: nil, displayPath: displayPath).0 else { return nil }
        let cacheFiles = snapshot.cacheFiles.map { ($0.path, FileSignature(path: $0.path)) }
        let digest = Self.snapshotDigest(
            options: options, source: source, theme: theme, assetSignature: { FileSignature(path: $0.path) }, cacheFiles: cacheFiles)
        let changed =
            source.markdownFiles.count == snapshot.markdown.count
            ? source.markdownFiles.indices.filter { source.markdownFiles[$0].signature != snapshot.markdown[$0] } : Array(source.markdownFiles.indices)
        return Comparison(source: source, config: config, theme: theme, sameDigest: digest == snapshot.digest, changedMarkdown: changed)
    }

    /// The result of the build the snapshot describes, when nothing it was made from changed and the output folder is
    /// as it left it (`intact`); nil otherwise (the build then goes on).
    ///
    /// `paths` makes the output's files, when asked for.
    func replay(
        _ snapshot: BuildSnapshot, _ comparison: Comparison, intact: Bool, paths: @escaping @Sendable () -> Set<String>, started: Date
    ) -> BuildResult? {
        guard comparison.sameDigest, comparison.changedMarkdown.isEmpty, intact else { return nil }
        var result = BuildResult(diagnostics: snapshot.diagnostics, stats: snapshot.stats)
        result.config = comparison.config
        result.outputs = OutputChanges(changed: [], paths: paths)
        result.stats.totalSeconds = Date().timeIntervalSince(started)
        result.stats.stageTimes = [("check", result.stats.totalSeconds)]
        return result
    }

    /// The snapshot of a build that just wrote its outputs (the state's, of generation `generation`), or nil when the
    /// next build could not trust one: it may fetch, or an input changed so recently that its signature can't be trusted.
    ///
    /// `kits` are the site's pages' (`pageKits`), made beside the commit; `known` is the state's files (`BuildState.files`),
    /// taken by the caller, so this can run while another core writes with the state locked.
    func snapshot(
        of result: BuildResult, inputs: SnapshotInputs, generation: Fingerprint, kits: [String: BuildSnapshot.PageKit],
        known: [String: BuildState.StoredFile], started: Date
    ) -> BuildSnapshot? {
        guard wantsSnapshot(inputs), let site = result.site else { return nil }
        let startedAt = started.timeIntervalSince1970
        let settle = state.settleSeconds
        let inputFiles = inputs.source.markdownFiles + inputs.source.staticFiles
        guard inputFiles.allSatisfy({ $0.signature?.isSettled(at: startedAt, after: settle) == true }),
            inputs.cacheFiles.allSatisfy({ $0.signature?.isSettled(at: startedAt, after: settle) ?? true })
        else { return nil }
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
            digest: digest, markdown: inputs.source.markdownFiles.map(\.signature), validUntil: options.offline ? .infinity : inputs.validUntil,
            generation: generation, cacheFiles: inputs.cacheFiles, diagnostics: result.diagnostics, stats: stats, rootPath: site.rootPath,
            kits: kits)
    }

    /// Whether a build of these inputs leaves a snapshot (one that may ask the dictionary again doesn't).
    func wantsSnapshot(_ inputs: SnapshotInputs) -> Bool {
        (!inputs.wantsNetwork || options.offline) && !options.refresh
    }

    /// The kits of the site's content pages that a text edit may remake (see `BuildSnapshot.PageKit`): those without
    /// problems that don't auto-link (a page that does depends on every term's forms). Made on `jobs` cores, each
    /// referenced term's slug looked up once.
    static func pageKits(_ site: BuiltSite, jobs: Int = 2) -> [String: BuildSnapshot.PageKit] {
        var slugs: [TermKey: String?] = [:]
        slugs.reserveCapacity(site.usage.count)
        for key in site.usage.keys { slugs[key] = .some(site.definition(for: key)?.slug) }
        let known = slugs
        let pages = site.pages.filter { $0.page.kind == .page }
        let kits = Array(pages.enumerated()).parallelMap(jobs: jobs) { document, record -> BuildSnapshot.PageKit? in
            guard record.autolink == nil, let shape = record.shape else { return nil }
            let keys = record.references.map(\.key).uniqued()
            return BuildSnapshot.PageKit(
                shape: shape, outputPath: record.page.outputPath, document: document, destinations: site.links.destinations(record),
                slugs: keys.map { known[$0] ?? site.definition(for: $0)?.slug })
        }
        var result: [String: BuildSnapshot.PageKit] = [:]
        result.reserveCapacity(pages.count)
        for (record, kit) in zip(pages, kits) { result[record.page.contentPath] = kit }
        return result
    }
}
