import Foundation

/// What a successful `glossary build` was made from and came to, kept beside the manifest in
/// `.glossary/build/snapshot-<output>`: a digest of every input (the scan, the configuration, the theme, the cache
/// files read, the options) but the markdown files' signatures, which it keeps one by one; until when that holds (the
/// first cached definition to go stale, for a build that may fetch); the generation of the outputs file written with it
/// (`BuildOutputs`, which says what the output folders hold); what it reported; and, for each page it published, what a
/// later build needs to remake the page after an edit of its text alone (`PageKit`).
///
/// A later build whose inputs are all the same, before that time, with the output folder as the outputs file says,
/// has nothing to do: it says again what the last one said and touches nothing, without reading the manifest, a
/// markdown file or a cache entry. One whose only changes are pages' text remakes those pages and the search index
/// (`SiteBuilder.patchText`). A missing or damaged snapshot only costs those shortcuts.
struct BuildSnapshot {
    /// Every input but the markdown files' signatures (their paths are in it).
    var digest: Fingerprint
    /// Each markdown file's signature, in the scan's order (nil: it had none).
    var markdown: [FileSignature?]
    /// Seconds since 1970 after which the same inputs may build otherwise (`.infinity`: never).
    var validUntil: Double
    /// The outputs file this snapshot goes with.
    var generation: Fingerprint
    /// The cache files the build looked at, with their signatures (nil: there was none).
    var cacheFiles: [(path: String, signature: FileSignature?)]
    /// The build's problems (not those of writing the output, which a build that writes nothing doesn't meet).
    var diagnostics: [Diagnostic]
    var stats: BuildStats
    /// The site's root path, which term links start with.
    var rootPath: String
    /// The pages' kits, as written (read when a page is to be remade: see `kits(for:)`).
    private var kitBytes: ArraySlice<UInt8> = []

    /// What remaking a published content page after an edit of its text alone takes, besides its new bytes: its
    /// record's shape (the edit must keep it), where it goes, its place among the search index's documents, its links'
    /// destinations and the slug each term it references links to (as the build's site decided them).
    struct PageKit: Equatable {
        var shape: Fingerprint
        var outputPath: String
        var document: Int
        var destinations: [String?]
        /// By the record's referenced keys in order of first reference (nil: the key has no definition).
        var slugs: [String?]
    }

    /// Bumped whenever the layout changes.
    static let format: UInt64 = 2
    static let magic = Array("glossary build snapshot\n".utf8)

    init(
        digest: Fingerprint, markdown: [FileSignature?], validUntil: Double, generation: Fingerprint, cacheFiles: [(path: String, signature: FileSignature?)],
        diagnostics: [Diagnostic], stats: BuildStats, rootPath: String, kits: [String: PageKit]
    ) {
        self.digest = digest
        self.markdown = markdown
        self.validUntil = validUntil
        self.generation = generation
        self.cacheFiles = cacheFiles
        self.diagnostics = diagnostics
        self.stats = stats
        self.rootPath = rootPath
        var writer = BinaryWriter(capacity: kits.count * 96)
        Self.write(kits, &writer)
        kitBytes = writer.take()[...]
    }

    /// The snapshot of builds of `source` into `output`: one per output folder, like the manifest.
    static func url(folder: URL, output: URL) -> URL {
        BuildManifest.stateFile("snapshot", folder: folder, output: output)
    }

    /// The snapshot at `url` when it is sound and this glossary wrote it (the pages' kits are read when asked for).
    static func read(_ url: URL) -> BuildSnapshot? {
        guard let body = ChecksummedFile.read(url, minimum: magic.count) else { return nil }
        var reader = BinaryReader(body)
        do throws(BinaryReader.Damaged) {
            guard try reader.raw(magic.count).elementsEqual(magic), try reader.uint() == format, try reader.fingerprint() == EngineIdentity.current
            else { return nil }
            let digest = try reader.fingerprint()
            let validUntil = Double(bitPattern: try reader.uint())
            let generation = try reader.fingerprint()
            var markdown: [FileSignature?] = []
            let markdownCount = try reader.count()
            markdown.reserveCapacity(markdownCount)
            for _ in 0..<markdownCount { markdown.append(try BuildManifest.optionalSignature(&reader)) }
            var cacheFiles: [(path: String, signature: FileSignature?)] = []
            for _ in 0..<(try reader.count()) { cacheFiles.append((try reader.string(), try BuildManifest.optionalSignature(&reader))) }
            var diagnostics: [Diagnostic] = []
            for _ in 0..<(try reader.count()) { diagnostics.append(try Self.diagnostic(&reader)) }
            var stats = BuildStats()
            stats.pages = try reader.int()
            stats.terms = try reader.int()
            stats.unresolved = try reader.int()
            stats.local = try reader.int()
            stats.cached = try reader.int()
            stats.fetched = try reader.int()
            stats.fromWordNet = try reader.int()
            stats.files = try reader.int()
            let rootPath = try reader.string()
            var snapshot = BuildSnapshot(
                digest: digest, markdown: markdown, validUntil: validUntil, generation: generation, cacheFiles: cacheFiles, diagnostics: diagnostics,
                stats: stats, rootPath: rootPath, kits: [:])
            snapshot.kitBytes = try reader.raw(body.count - reader.offset)
            return snapshot
        } catch {
            return nil
        }
    }

    /// Writes the snapshot atomically; one that can't be written only costs the next build its shortcuts.
    func write(to url: URL) {
        var writer = BinaryWriter(capacity: 1 << 20)
        writer.write(raw: Self.magic)
        writer.write(Self.format)
        writer.write(EngineIdentity.current)
        writer.write(digest)
        writer.write(validUntil.bitPattern)
        writer.write(generation)
        writer.write(UInt64(markdown.count))
        for signature in markdown { BuildManifest.write(signature, &writer) }
        writer.write(UInt64(cacheFiles.count))
        for (path, signature) in cacheFiles {
            writer.write(path)
            BuildManifest.write(signature, &writer)
        }
        writer.write(UInt64(diagnostics.count))
        for diagnostic in diagnostics { Self.write(diagnostic, &writer) }
        for count in [stats.pages, stats.terms, stats.unresolved, stats.local, stats.cached, stats.fetched, stats.fromWordNet, stats.files] {
            writer.write(count)
        }
        writer.write(rootPath)
        writer.write(raw: Array(kitBytes))
        ChecksummedFile.write(writer.take(), to: url)
    }

    static func remove(_ url: URL) { unlink(url.path) }

    // MARK: Page kits

    /// The kits of the pages at `paths` below `content/` (a page without one is left out); nil when they can't be read.
    func kits(for paths: Set<String>) -> [String: PageKit]? {
        var reader = BinaryReader(Array(kitBytes))
        var found: [String: PageKit] = [:]
        do throws(BinaryReader.Damaged) {
            for _ in 0..<(try reader.count()) {
                let path = try reader.string()
                let length = try reader.count()
                guard paths.contains(path) else {
                    _ = try reader.raw(length)
                    continue
                }
                let end = reader.offset + length
                var kit = PageKit(shape: try reader.fingerprint(), outputPath: try reader.string(), document: try reader.int(), destinations: [], slugs: [])
                for _ in 0..<(try reader.count()) { kit.destinations.append(try reader.optionalString()) }
                for _ in 0..<(try reader.count()) { kit.slugs.append(try reader.optionalString()) }
                guard reader.offset == end else { return nil }
                found[path] = kit
            }
            return reader.isAtEnd ? found : nil
        } catch {
            return nil
        }
    }

    /// Every kit (what a new snapshot made after a patch carries over).
    var allKits: [String: PageKit]? {
        var reader = BinaryReader(Array(kitBytes))
        var paths = Set<String>()
        do throws(BinaryReader.Damaged) {
            for _ in 0..<(try reader.count()) {
                paths.insert(try reader.string())
                _ = try reader.raw(try reader.count())
            }
        } catch {
            return nil
        }
        return kits(for: paths)
    }

    /// The kits, each after its path and its length (so a reader looking for a few skips the rest).
    private static func write(_ kits: [String: PageKit], _ writer: inout BinaryWriter) {
        writer.write(UInt64(kits.count))
        for (path, kit) in kits {
            writer.write(path)
            var entry = BinaryWriter(capacity: 128)
            entry.write(kit.shape)
            entry.write(kit.outputPath)
            entry.write(kit.document)
            entry.write(UInt64(kit.destinations.count))
            for destination in kit.destinations { entry.write(destination) }
            entry.write(UInt64(kit.slugs.count))
            for slug in kit.slugs { entry.write(slug) }
            let bytes = entry.take()
            writer.write(UInt64(bytes.count))
            writer.write(raw: bytes)
        }
    }

    // MARK: Diagnostics

    private static func write(_ location: SourceLocation?, _ writer: inout BinaryWriter) {
        writer.write(location != nil)
        guard let location else { return }
        writer.write(location.file)
        writer.write(location.line)
        writer.write(location.column)
    }

    private static func location(_ reader: inout BinaryReader) throws(BinaryReader.Damaged) -> SourceLocation? {
        guard try reader.bool() else { return nil }
        return SourceLocation(file: try reader.string(), line: try reader.int(), column: try reader.int())
    }

    private static func write(_ diagnostic: Diagnostic, _ writer: inout BinaryWriter) {
        writer.write(diagnostic.code.rawValue)
        writer.write(diagnostic.severity.rawValue)
        writer.write(diagnostic.message)
        write(diagnostic.location, &writer)
        writer.write(diagnostic.subject)
        writer.write(UInt64(diagnostic.notes.count))
        for note in diagnostic.notes {
            writer.write(note.message)
            write(note.location, &writer)
            writer.write(note.showsSourceLine)
        }
    }

    private static func diagnostic(_ reader: inout BinaryReader) throws(BinaryReader.Damaged) -> Diagnostic {
        guard let code = DiagnosticCode(rawValue: try reader.string()), let severity = Severity(rawValue: try reader.string()) else {
            throw BinaryReader.Damaged()
        }
        let message = try reader.string()
        var diagnostic = Diagnostic(.replayed(code: code, message: message), at: try location(&reader), subject: try reader.optionalString())
        diagnostic.severity = severity
        for _ in 0..<(try reader.count()) {
            let text = try reader.string()
            let at = try location(&reader)
            diagnostic.notes.append(Diagnostic.Note(text, at: at, showsSourceLine: try reader.bool()))
        }
        return diagnostic
    }
}
