import Foundation

/// What `glossary build` left in the output folder and beside it, kept in `.glossary/build/outputs-<output>` (one per
/// output folder, beside the manifest): every file of the live folder and of the previous one (`.NAME.previous`, which
/// the next build brings up to date and swaps in) with the fingerprint of its inputs, of its bytes, its signature and,
/// for a content page, where it shows its body (`BodySlots`); the signatures of both folders and of every folder below
/// them.
///
/// Kept apart from the manifest (the records of the inputs, most of the bytes): a build that changed a few files
/// writes this, not the records. Each file it writes gets a new `generation`, which the build's snapshot names, so a
/// snapshot is only ever trusted with the outputs file written beside it. Like the manifest, a file that is missing,
/// damaged, of another format or made under another context is ignored: then the output folders are unknown and the
/// build renders what it needs rather than trusting them.
struct BuildOutputs {
    let url: URL

    /// Bumped whenever the layout changes.
    static let format: UInt64 = 1
    static let magic = Array("glossary build outputs\n".utf8)

    init(folder: URL, output: URL) {
        let id = Fingerprint.of(bytes: Array(output.standardizedFileURL.path.utf8)).description.prefix(16)
        url = folder.appendingPathComponent("outputs-\(id)")
    }

    /// What the file says, when it is sound and was made under `context`.
    struct Contents {
        var generation: Fingerprint
        var outputFolder: FileSignature?
        var previousFolder: FileSignature?
        var outputs: [String: BuildState.StoredOutput]
        var previousOutputs: [String: BuildState.StoredOutput]
        var outputFolders: [String: FileSignature]
        var previousFolders: [String: FileSignature]
    }

    func read(context: Fingerprint) -> Contents? { reading(context: context)?.contents() }

    /// The file, checked whole, with its head read and the rest read when asked for: a build with nothing to do only
    /// looks at the live folder's files and folders (`liveIsIntact`), without making a string of any path.
    final class Reading: @unchecked Sendable {
        let generation: Fingerprint
        let outputFolder: FileSignature?
        let previousFolder: FileSignature?
        private let body: [UInt8]
        /// Where the live folder's files begin.
        private let tables: Int

        fileprivate init(body: [UInt8], generation: Fingerprint, outputFolder: FileSignature?, previousFolder: FileSignature?, tables: Int) {
            self.body = body
            self.generation = generation
            self.outputFolder = outputFolder
            self.previousFolder = previousFolder
            self.tables = tables
        }

        /// Everything the file says; nil when it doesn't read as this version wrote it.
        func contents() -> Contents? {
            var reader = BinaryReader(body)
            do throws(BinaryReader.Damaged) {
                _ = try reader.raw(tables)
                var outputs: [String: BuildState.StoredOutput] = [:]
                let count = try reader.count()
                outputs.reserveCapacity(count)
                for _ in 0..<count {
                    let path = try reader.string()
                    outputs[path] = try BuildOutputs.output(&reader)
                }
                let outputFolders = try BuildOutputs.folders(&reader)
                var previousOutputs: [String: BuildState.StoredOutput] = [:]
                let previousCount = try reader.count()
                previousOutputs.reserveCapacity(previousCount)
                for _ in 0..<previousCount {
                    let path = try reader.string()
                    // Most of the previous folder is the live one's files, linked: said in a byte.
                    if try reader.bool() {
                        guard let live = outputs[path] else { throw .init() }
                        previousOutputs[path] = live
                    } else {
                        previousOutputs[path] = try BuildOutputs.output(&reader)
                    }
                }
                let previousFolders = try BuildOutputs.folders(&reader)
                guard reader.isAtEnd else { return nil }
                return Contents(
                    generation: generation, outputFolder: outputFolder, previousFolder: previousFolder, outputs: outputs,
                    previousOutputs: previousOutputs, outputFolders: outputFolders, previousFolders: previousFolders)
            } catch {
                return nil
            }
        }

        /// The live folder's files (empty when they can't be read).
        func livePaths() -> Set<String> {
            var reader = BinaryReader(body)
            var paths = Set<String>()
            do throws(BinaryReader.Damaged) {
                _ = try reader.raw(tables)
                let count = try reader.count()
                paths.reserveCapacity(count)
                for _ in 0..<count {
                    paths.insert(try reader.string())
                    _ = try BuildOutputs.output(&reader)
                }
            } catch {
                return []
            }
            return paths
        }

        /// Whether the live output folder is as the file says the last build left it: the same folder, every file and
        /// every folder below it untouched — a file added or taken away changes its folder's signature. Each is looked
        /// at relative to the folder (a path's lookup starts there), on `jobs` cores: a site of 10,000 pages has twice
        /// as many files and folders.
        func liveIsIntact(_ output: URL, jobs: Int = 2) -> Bool {
            guard let outputFolder, FileSignature(path: output.path)?.isUnmodified(since: outputFolder) == true else { return false }
            // Every path with what its stat must say, as offsets into the file's bytes.
            var entries: [(path: Range<Int>, signature: FileSignature)] = []
            var reader = BinaryReader(body)
            do throws(BinaryReader.Damaged) {
                _ = try reader.raw(tables)
                let count = try reader.count()
                entries.reserveCapacity(count * 2)
                for _ in 0..<count {
                    let length = try reader.count()
                    let path = reader.offset..<(reader.offset + length)
                    _ = try reader.raw(length)
                    _ = try reader.fingerprint()
                    _ = try reader.fingerprint()
                    guard let signature = try BuildManifest.optionalSignature(&reader) else { return false }
                    entries.append((path, signature))
                    if try reader.bool() {
                        for _ in 0..<(try reader.count()) { for _ in 0..<4 { _ = try reader.uint() } }
                        for _ in BodySlots.Value.allCases { _ = try reader.bool() }
                    }
                }
                for _ in 0..<(try reader.count()) {
                    let length = try reader.count()
                    let path = reader.offset..<(reader.offset + length)
                    _ = try reader.raw(length)
                    entries.append((path, try BuildManifest.signature(&reader)))
                }
            } catch {
                return false
            }
            guard !entries.isEmpty else { return false }
            let root = open(output.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard root >= 0 else { return false }
            defer { close(root) }
            let runs = (0..<jobs).map { entries.count * $0 / jobs..<entries.count * ($0 + 1) / jobs }
            let (body, looked) = (self.body, entries)
            return runs.parallelMap(jobs: jobs) { run in
                var path = [CChar](repeating: 0, count: 4096)
                var info = stat()
                for index in run {
                    let (range, signature) = looked[index]
                    guard range.count < path.count else { return false }
                    body.withUnsafeBufferPointer { bytes in
                        path.withUnsafeMutableBufferPointer { buffer in
                            for (offset, byte) in bytes[range].enumerated() { buffer[offset] = CChar(bitPattern: byte) }
                            buffer[range.count] = 0
                        }
                    }
                    guard fstatat(root, path, &info, AT_SYMLINK_NOFOLLOW) == 0, FileSignature(info).isUnmodified(since: signature) else { return false }
                }
                return true
            }.allSatisfy { $0 }
        }
    }

    /// The file's head read, when it is sound and was made under `context`.
    func reading(context: Fingerprint) -> Reading? {
        guard let body = ChecksummedFile.read(url, minimum: Self.magic.count) else { return nil }
        var reader = BinaryReader(body)
        do throws(BinaryReader.Damaged) {
            guard try reader.raw(Self.magic.count).elementsEqual(Self.magic), try reader.uint() == Self.format, try reader.fingerprint() == context
            else { return nil }
            let generation = try reader.fingerprint()
            let outputFolder = try BuildManifest.optionalSignature(&reader)
            let previousFolder = try BuildManifest.optionalSignature(&reader)
            return Reading(body: body, generation: generation, outputFolder: outputFolder, previousFolder: previousFolder, tables: reader.offset)
        } catch {
            return nil
        }
    }

    /// Fills `state` from the file when it is sound and was made under `context`.
    func load(into state: BuildState, context: Fingerprint) {
        guard let contents = read(context: context) else { return }
        state.withLock { state in
            state.context = context
            state.adopt(contents)
        }
    }

    /// Writes what `state` knows of the output folders under a new generation, which the state then holds; a file
    /// that can't be written costs the next build its shortcuts, and leaves none that could mislead it.
    func save(_ state: BuildState) {
        let generation = Fingerprint(high: UInt64.random(in: .min ... .max), low: UInt64.random(in: .min ... .max))
        guard let file = ChecksummedFile.Writer(url) else {
            unlink(url.path)
            return
        }
        state.withLock { state in
            file.buffer.write(raw: Self.magic)
            file.buffer.write(Self.format)
            file.buffer.write(state.context)
            file.buffer.write(generation)
            BuildManifest.write(state.outputFolder, &file.buffer)
            BuildManifest.write(state.previousFolder, &file.buffer)
            file.buffer.write(UInt64(state.outputs.count))
            // In the tables' own order: sorting 25,000 paths cost more than the rest of writing them.
            for (path, output) in state.outputs {
                file.buffer.write(path)
                Self.write(output, &file.buffer)
                file.flushIfFull()
            }
            Self.write(state.outputFolders, file)
            file.buffer.write(UInt64(state.previousOutputs.count))
            for (path, output) in state.previousOutputs {
                file.buffer.write(path)
                let linked = state.outputs[path].map { Self.isLinked(output, $0) } ?? false
                file.buffer.write(linked)
                if !linked { Self.write(output, &file.buffer) }
                file.flushIfFull()
            }
            Self.write(state.previousFolders, file)
        }
        if file.commit() {
            state.withLock { $0.outputsGeneration = generation }
        } else {
            unlink(url.path)
        }
    }

    static func remove(_ url: URL) { unlink(url.path) }

    /// Whether a previous folder's file is the live one's, linked: the same inputs, bytes and file.
    static func isLinked(_ previous: BuildState.StoredOutput, _ live: BuildState.StoredOutput) -> Bool {
        guard let mine = previous.signature, let theirs = live.signature else { return false }
        return previous.fingerprint == live.fingerprint && previous.bytesHash == live.bytesHash && previous.slots == live.slots
            && mine.identity == theirs.identity && mine.isUnmodified(since: theirs)
    }

    // MARK: Pieces

    private static func write(_ output: BuildState.StoredOutput, _ writer: inout BinaryWriter) {
        writer.write(output.fingerprint)
        writer.write(output.bytesHash)
        BuildManifest.write(output.signature, &writer)
        writer.write(output.slots != nil)
        guard let slots = output.slots else { return }
        writer.write(UInt64(slots.slots.count))
        for slot in slots.slots {
            writer.write(slot.value.rawValue)
            writer.write(slot.escaped)
            writer.write(slot.start)
            writer.write(slot.length)
        }
        for shown in slots.shown { writer.write(shown) }
    }

    fileprivate static func output(_ reader: inout BinaryReader) throws(BinaryReader.Damaged) -> BuildState.StoredOutput {
        var output = BuildState.StoredOutput(
            fingerprint: try reader.fingerprint(), bytesHash: try reader.fingerprint(), signature: try BuildManifest.optionalSignature(&reader))
        guard try reader.bool() else { return output }
        var slots: [BodySlots.Slot] = []
        for _ in 0..<(try reader.count()) {
            guard let value = BodySlots.Value(rawValue: try reader.int()) else { throw .init() }
            let slot = BodySlots.Slot(value: value, escaped: try reader.bool(), start: try reader.int(), length: try reader.int())
            // In order and apart, as a render notes them: anything else is damage.
            guard slot.start >= (slots.last.map { $0.start + $0.length } ?? 0), slot.length >= 0 else { throw .init() }
            slots.append(slot)
        }
        let shown = try BodySlots.Value.allCases.map { _ throws(BinaryReader.Damaged) in try reader.bool() }
        output.slots = BodySlots(slots: slots, shown: shown)
        return output
    }

    private static func write(_ folders: [String: FileSignature], _ file: ChecksummedFile.Writer) {
        file.buffer.write(UInt64(folders.count))
        for (path, signature) in folders {
            file.buffer.write(path)
            BuildManifest.write(signature, &file.buffer)
            file.flushIfFull()
        }
    }

    fileprivate static func folders(_ reader: inout BinaryReader) throws(BinaryReader.Damaged) -> [String: FileSignature] {
        var folders: [String: FileSignature] = [:]
        let count = try reader.count()
        folders.reserveCapacity(count)
        for _ in 0..<count {
            let path = try reader.string()
            folders[path] = try BuildManifest.signature(&reader)
        }
        return folders
    }
}
