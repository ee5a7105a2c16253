import Foundation

/// What a successful `glossary build` was made from and came to, kept beside the manifest in
/// `.glossary/build/snapshot-<output>`: a digest of every input (the scan with each file's signature, the
/// configuration, the theme, the cache files read, the options), until when that holds (the first cached
/// definition to go stale, for a build that may fetch), the files it left in the output folder with their
/// signatures, and what it reported.
///
/// A later build whose inputs give the same digest, before that time, with those files untouched and nothing
/// added, has nothing to do: it says again what the last one said and touches nothing, without reading the
/// manifest, a markdown file or a cache entry. A missing or damaged snapshot only costs that shortcut.
struct BuildSnapshot {
    var digest: Fingerprint
    /// Seconds since 1970 after which the same inputs may build otherwise (`.infinity`: never).
    var validUntil: Double
    var outputFolder: FileSignature
    var outputs: [(path: String, signature: FileSignature)]
    /// The cache files the build looked at, with their signatures (nil: there was none).
    var cacheFiles: [(path: String, signature: FileSignature?)]
    /// The build's problems (not those of writing the output, which a build that writes nothing doesn't meet).
    var diagnostics: [Diagnostic]
    var stats: BuildStats

    /// Bumped whenever the layout changes.
    static let format: UInt64 = 1
    static let magic = Array("glossary build snapshot\n".utf8)

    /// The snapshot of builds of `source` into `output`: one per output folder, like the manifest.
    static func url(folder: URL, output: URL) -> URL {
        let id = Fingerprint.of(bytes: Array(output.standardizedFileURL.path.utf8)).description.prefix(16)
        return folder.appendingPathComponent("snapshot-\(id)")
    }

    /// The snapshot at `url` when it is sound and this glossary wrote it.
    static func read(_ url: URL) -> BuildSnapshot? {
        guard let body = ChecksummedFile.read(url, minimum: magic.count) else { return nil }
        var reader = BinaryReader(body)
        do throws(BinaryReader.Damaged) {
            guard try reader.raw(magic.count).elementsEqual(magic), try reader.uint() == format, try reader.fingerprint() == EngineIdentity.current
            else { return nil }
            let digest = try reader.fingerprint()
            let validUntil = Double(bitPattern: try reader.uint())
            let outputFolder = try BuildManifest.signature(&reader)
            var outputs: [(path: String, signature: FileSignature)] = []
            let outputCount = try reader.count()
            outputs.reserveCapacity(outputCount)
            for _ in 0..<outputCount { outputs.append((try reader.string(), try BuildManifest.signature(&reader))) }
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
            stats.files = try reader.int()
            guard reader.isAtEnd else { return nil }
            return BuildSnapshot(
                digest: digest, validUntil: validUntil, outputFolder: outputFolder, outputs: outputs, cacheFiles: cacheFiles,
                diagnostics: diagnostics, stats: stats)
        } catch {
            return nil
        }
    }

    /// Writes the snapshot atomically; one that can't be written only costs the next build its shortcut.
    func write(to url: URL) {
        var writer = BinaryWriter(capacity: 1 << 20)
        writer.write(raw: Self.magic)
        writer.write(Self.format)
        writer.write(EngineIdentity.current)
        writer.write(digest)
        writer.write(validUntil.bitPattern)
        BuildManifest.write(outputFolder, &writer)
        writer.write(UInt64(outputs.count))
        for (path, signature) in outputs {
            writer.write(path)
            BuildManifest.write(signature, &writer)
        }
        writer.write(UInt64(cacheFiles.count))
        for (path, signature) in cacheFiles {
            writer.write(path)
            BuildManifest.write(signature, &writer)
        }
        writer.write(UInt64(diagnostics.count))
        for diagnostic in diagnostics { Self.write(diagnostic, &writer) }
        for count in [stats.pages, stats.terms, stats.unresolved, stats.local, stats.cached, stats.fetched, stats.files] { writer.write(count) }
        ChecksummedFile.write(writer.take(), to: url)
    }

    static func remove(_ url: URL) { unlink(url.path) }

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
