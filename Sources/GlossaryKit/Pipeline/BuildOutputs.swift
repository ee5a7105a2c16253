import Foundation

/// What `glossary build` left in the output folder and beside it, kept in `.glossary/build/outputs-<output>` (one per
/// output folder, beside the manifest): every file of the live folder and of the previous one (`.NAME.previous`, which
/// the next build brings up to date and swaps in) with the fingerprint of its inputs, of its bytes, its signature and,
/// for a content page, where it shows its body (`BodySlots`); the signatures of both folders and of every folder below
/// them; and the paths where the previous folder doesn't hold the live folder's file, linked (what bringing it up to
/// date takes).
///
/// Kept apart from the manifest (the records of the inputs, most of the bytes): a build that changed a few files
/// writes this, not the records — and, after a text patch, writes it from the old file's bytes without reading its
/// tables (`Reading.afterPatch`). Each file written gets a new `generation`, which the build's snapshot names, so a
/// snapshot is only ever trusted with the outputs file written beside it. Like the manifest, a file that is missing,
/// damaged, of another format or made under another context is ignored: then the output folders are unknown and the
/// build renders what it needs rather than trusting them.
///
/// Layout: the head (context, generation, the two folders' signatures), the paths to bring up to date, the live and
/// previous folders' folders, then the live and previous folders' files (a previous file that is the live one's,
/// linked, said in a byte).
struct BuildOutputs {
    let url: URL

    /// Bumped whenever the layout changes.
    static let format: UInt64 = 2
    static let magic = Array("glossary build outputs\n".utf8)

    init(folder: URL, output: URL) {
        url = BuildManifest.stateFile("outputs", folder: folder, output: output)
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

    /// How the previous folder differs from the live one at a path.
    enum Difference: Int, Sendable {
        /// The live folder has a file the previous folder doesn't hold linked: link it.
        case relink = 0
        /// Only the previous folder has the path: remove it.
        case remove = 1
    }

    func read(context: Fingerprint) -> Contents? { reading(context: context)?.contents() }

    /// The file's head read, when it is sound and was made under `context`.
    func reading(context: Fingerprint) -> Reading? {
        guard let body = ChecksummedFile.read(url, minimum: Self.magic.count) else { return nil }
        return Reading(body, context: context)
    }

    /// Fills `state` from the file when it is sound and was made under `context`.
    func load(into state: BuildState, context: Fingerprint) {
        guard let contents = read(context: context) else { return }
        state.withLock { state in
            state.context = context
            state.adopt(contents)
        }
    }

    /// Writes what `state` knows of the output folders under `generation` (a new one unless the caller made it, to
    /// make the snapshot of it meanwhile), which the state then holds; whether the file was written. A file that can't
    /// be written costs the next build its shortcuts, and leaves none that could mislead it.
    @discardableResult
    func save(_ state: BuildState, generation: Fingerprint = newGeneration()) -> Bool {
        guard let file = ChecksummedFile.Writer(url) else {
            unlink(url.path)
            return false
        }
        state.withLock { state in
            Self.writeHead(context: state.context, generation: generation, state.outputFolder, state.previousFolder, &file.buffer)
            var differences: [(String, Difference)] = []
            for (path, live) in state.outputs where !(state.previousOutputs[path].map { Self.isLinked($0, live) } ?? false) {
                differences.append((path, .relink))
            }
            for path in state.previousOutputs.keys where state.outputs[path] == nil { differences.append((path, .remove)) }
            file.buffer.write(UInt64(differences.count))
            for (path, difference) in differences {
                file.buffer.write(path)
                file.buffer.write(difference.rawValue)
            }
            Self.write(state.outputFolders, file)
            Self.write(state.previousFolders, file)
            // In the tables' own order: sorting 25,000 paths cost more than the rest of writing them.
            file.buffer.write(UInt64(state.outputs.count))
            for (path, output) in state.outputs {
                file.buffer.write(path)
                Self.write(output, &file.buffer)
                file.flushIfFull()
            }
            file.buffer.write(UInt64(state.previousOutputs.count))
            for (path, output) in state.previousOutputs {
                file.buffer.write(path)
                let linked = state.outputs[path].map { Self.isLinked(output, $0) } ?? false
                file.buffer.write(linked)
                if !linked { Self.write(output, &file.buffer) }
                file.flushIfFull()
            }
        }
        if file.commit() {
            state.withLock { $0.outputsGeneration = generation }
            return true
        } else {
            unlink(url.path)
            return false
        }
    }

    /// Writes `bytes` (an outputs file's body, as `Reading.afterPatch` makes it); whether it is there. A file that
    /// can't be written is removed, so no stale one is left.
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        if ChecksummedFile.write(bytes, to: url) { return true }
        unlink(url.path)
        return false
    }

    static func remove(_ url: URL) { unlink(url.path) }

    static func newGeneration() -> Fingerprint {
        Fingerprint(high: UInt64.random(in: .min ... .max), low: UInt64.random(in: .min ... .max))
    }

    /// Whether a previous folder's file is the live one's, linked: the same inputs, bytes and file.
    static func isLinked(_ previous: BuildState.StoredOutput, _ live: BuildState.StoredOutput) -> Bool {
        guard let mine = previous.signature, let theirs = live.signature else { return false }
        return previous.fingerprint == live.fingerprint && previous.bytesHash == live.bytesHash && previous.slots == live.slots
            && mine.identity == theirs.identity && mine.isUnmodified(since: theirs)
    }

    // MARK: Pieces

    private static func writeHead(
        context: Fingerprint, generation: Fingerprint, _ outputFolder: FileSignature?, _ previousFolder: FileSignature?, _ writer: inout BinaryWriter
    ) {
        writer.write(raw: magic)
        writer.write(format)
        writer.write(context)
        writer.write(generation)
        BuildManifest.write(outputFolder, &writer)
        BuildManifest.write(previousFolder, &writer)
    }

    fileprivate static func write(_ output: BuildState.StoredOutput, _ writer: inout BinaryWriter) {
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
        var shown: [Bool] = []
        for _ in BodySlots.Value.allCases { shown.append(try reader.bool()) }
        output.slots = BodySlots(slots: slots, shown: shown)
        return output
    }

    /// Passes over an entry `output(_:)` reads, and its signature (nil: none).
    fileprivate static func skipOutput(_ reader: inout BinaryReader) throws(BinaryReader.Damaged) -> FileSignature? {
        _ = try reader.fingerprint()
        _ = try reader.fingerprint()
        let signature = try BuildManifest.optionalSignature(&reader)
        if try reader.bool() {
            for _ in 0..<(try reader.count()) { for _ in 0..<4 { _ = try reader.uint() } }
            for _ in BodySlots.Value.allCases { _ = try reader.bool() }
        }
        return signature
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

extension BuildOutputs {
    /// The file, checked whole, with its head read and its tables read when asked for, as little of them as each use
    /// needs: a build with nothing to do only looks at the live folder's files and folders (`liveIsIntact`), a text patch
    /// at a few entries (`stored(_:)`) and writes the next file from this one's bytes (`afterPatch`); only a full build
    /// decodes it all (`contents()`).
    final class Reading: @unchecked Sendable {
        let generation: Fingerprint
        let outputFolder: FileSignature?
        let previousFolder: FileSignature?
        /// The paths where the previous folder doesn't hold the live folder's file, linked.
        let differences: [(path: String, difference: Difference)]
        private let context: Fingerprint
        private let body: [UInt8]
        /// Where each table begins, and where the file ends.
        private let liveFolders: Int
        private let previousFolders: Int
        private let live: Int
        private let previous: Int

        init?(_ body: [UInt8], context: Fingerprint) {
            var reader = BinaryReader(body)
            do throws(BinaryReader.Damaged) {
                guard try reader.raw(BuildOutputs.magic.count).elementsEqual(BuildOutputs.magic), try reader.uint() == BuildOutputs.format,
                    try reader.fingerprint() == context
                else { return nil }
                generation = try reader.fingerprint()
                outputFolder = try BuildManifest.optionalSignature(&reader)
                previousFolder = try BuildManifest.optionalSignature(&reader)
                var differences: [(path: String, difference: Difference)] = []
                for _ in 0..<(try reader.count()) {
                    let path = try reader.string()
                    guard let difference = Difference(rawValue: try reader.int()) else { return nil }
                    differences.append((path, difference))
                }
                self.differences = differences
                liveFolders = reader.offset
                previousFolders = try Self.offset(afterFolders: liveFolders, in: body)
                live = try Self.offset(afterFolders: previousFolders, in: body)
                reader = BinaryReader(body)
                _ = try reader.raw(live)
                for _ in 0..<(try reader.count()) {
                    _ = try reader.raw(try reader.count())
                    _ = try BuildOutputs.skipOutput(&reader)
                }
                previous = reader.offset
                self.context = context
                self.body = body
            } catch {
                return nil
            }
        }

        private static func offset(afterFolders start: Int, in body: [UInt8]) throws(BinaryReader.Damaged) -> Int {
            var reader = BinaryReader(body)
            _ = try reader.raw(start)
            for _ in 0..<(try reader.count()) {
                _ = try reader.raw(try reader.count())
                _ = try BuildManifest.signature(&reader)
            }
            return reader.offset
        }

        /// Everything the file says; nil when it doesn't read as this version wrote it.
        func contents() -> Contents? {
            var reader = BinaryReader(body)
            do throws(BinaryReader.Damaged) {
                _ = try reader.raw(liveFolders)
                let outputFolders = try BuildOutputs.folders(&reader)
                let previousFolders = try BuildOutputs.folders(&reader)
                var outputs: [String: BuildState.StoredOutput] = [:]
                let count = try reader.count()
                outputs.reserveCapacity(count)
                for _ in 0..<count {
                    let path = try reader.string()
                    outputs[path] = try BuildOutputs.output(&reader)
                }
                var previousOutputs: [String: BuildState.StoredOutput] = [:]
                let previousCount = try reader.count()
                previousOutputs.reserveCapacity(previousCount)
                for _ in 0..<previousCount {
                    let path = try reader.string()
                    if try reader.bool() {
                        guard let live = outputs[path] else { throw .init() }
                        previousOutputs[path] = live
                    } else {
                        previousOutputs[path] = try BuildOutputs.output(&reader)
                    }
                }
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
                _ = try reader.raw(live)
                let count = try reader.count()
                paths.reserveCapacity(count)
                for _ in 0..<count {
                    paths.insert(try reader.string())
                    _ = try BuildOutputs.skipOutput(&reader)
                }
            } catch {
                return []
            }
            return paths
        }

        /// The live folder's entries for `paths` (those it has), found by comparing bytes (no string is made of any
        /// other path).
        func stored(_ paths: Set<String>) -> [String: BuildState.StoredOutput] {
            let wanted = PathsByBytes(paths)
            var reader = BinaryReader(body)
            var found: [String: BuildState.StoredOutput] = [:]
            do throws(BinaryReader.Damaged) {
                _ = try reader.raw(live)
                for _ in 0..<(try reader.count()) {
                    let bytes = try reader.raw(try reader.count())
                    guard let path = wanted.path(bytes) else {
                        _ = try BuildOutputs.skipOutput(&reader)
                        continue
                    }
                    found[path] = try BuildOutputs.output(&reader)
                    if found.count == paths.count { break }
                }
            } catch {
                return [:]
            }
            return found
        }

        // MARK: Checks

        /// Each entry of the folders table at `start` (the live or the previous folder's), as the range of its path in
        /// the file's bytes and its signature.
        private func folderEntries(at start: Int, into entries: inout [(path: Range<Int>, signature: FileSignature)]) throws(BinaryReader.Damaged) {
            var reader = BinaryReader(body)
            _ = try reader.raw(start)
            for _ in 0..<(try reader.count()) {
                let length = try reader.count()
                let path = reader.offset..<(reader.offset + length)
                _ = try reader.raw(length)
                entries.append((path, try BuildManifest.signature(&reader)))
            }
        }

        /// Whether the live output folder is as the file says the last build left it: the same folder, every file and
        /// every folder below it untouched — a file added or taken away changes its folder's signature.
        func liveIsIntact(_ output: URL, jobs: Int = 2) -> Bool {
            guard let outputFolder, FileSignature(path: output.path)?.isUnmodified(since: outputFolder) == true else { return false }
            var entries: [(path: Range<Int>, signature: FileSignature)] = []
            do throws(BinaryReader.Damaged) {
                try folderEntries(at: liveFolders, into: &entries)
                var reader = BinaryReader(body)
                _ = try reader.raw(live)
                let count = try reader.count()
                entries.reserveCapacity(entries.count + count)
                for _ in 0..<count {
                    let length = try reader.count()
                    let path = reader.offset..<(reader.offset + length)
                    _ = try reader.raw(length)
                    guard let signature = try BuildOutputs.skipOutput(&reader) else { return false }
                    entries.append((path, signature))
                }
            } catch {
                return false
            }
            return !entries.isEmpty && Self.untouched(entries, below: output.path, in: body, jobs: jobs)
        }

        /// Whether the previous folder (`previous`) is as the file says: the same folder, and every folder below it
        /// untouched (so nothing was added to it or taken from it). Its files are the live folder's where it holds them
        /// linked, which the check of the live folder covers; the others are replaced when it is brought up to date.
        func previousIsIntact(_ previous: URL, jobs: Int = 2) -> Bool {
            guard let previousFolder, FileSignature(path: previous.path)?.isUnmodified(since: previousFolder) == true else { return false }
            var entries: [(path: Range<Int>, signature: FileSignature)] = []
            do throws(BinaryReader.Damaged) {
                try folderEntries(at: previousFolders, into: &entries)
            } catch {
                return false
            }
            return Self.untouched(entries, below: previous.path, in: body, jobs: jobs)
        }

        /// Whether every entry's stat, relative to the folder `root` (a path's lookup starts there), is as its signature
        /// says; on `jobs` cores, a run of entries each.
        private static func untouched(_ entries: [(path: Range<Int>, signature: FileSignature)], below root: String, in body: [UInt8], jobs: Int) -> Bool {
            let folder = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard folder >= 0 else { return false }
            defer { close(folder) }
            let runs = (0..<max(1, jobs)).map { entries.count * $0 / max(1, jobs)..<entries.count * ($0 + 1) / max(1, jobs) }
            return runs.parallelMap(jobs: jobs) { run in
                var path = [CChar](repeating: 0, count: 4096)
                var info = stat()
                for index in run {
                    let (range, signature) = entries[index]
                    guard range.count < path.count else { return false }
                    body.withUnsafeBufferPointer { bytes in
                        path.withUnsafeMutableBufferPointer { buffer in
                            for (offset, byte) in bytes[range].enumerated() { buffer[offset] = CChar(bitPattern: byte) }
                            buffer[range.count] = 0
                        }
                    }
                    guard fstatat(folder, path, &info, AT_SYMLINK_NOFOLLOW) == 0, FileSignature(info).isUnmodified(since: signature) else { return false }
                }
                return true
            }.allSatisfy { $0 }
        }

        // MARK: After a patch

        /// The next outputs file after a text patch swapped in the previous folder brought up to date, made from this
        /// one's bytes: the live files are this file's with `changed` replaced; the previous folder is this file's live
        /// folder (its files the new live ones, linked, but the changed ones); the live folder's folders are this file's
        /// previous folder's with `folders` replaced (nil: gone); the previous folder's folders are this file's live
        /// ones; and only the changed files differ between the two.
        func afterPatch(
            generation: Fingerprint, outputFolder: FileSignature?, previousFolder: FileSignature?, changed: [String: BuildState.StoredOutput],
            folders: [String: FileSignature?]
        ) -> [UInt8]? {
            var writer = BinaryWriter(capacity: body.count + 4096)
            BuildOutputs.writeHead(context: context, generation: generation, outputFolder, previousFolder, &writer)
            writer.write(UInt64(changed.count))
            for path in changed.keys {
                writer.write(path)
                writer.write(Difference.relink.rawValue)
            }
            do throws(BinaryReader.Damaged) {
                // The live folder's folders: the previous folder's, with the patch's.
                var reader = BinaryReader(body)
                _ = try reader.raw(previousFolders)
                var kept: [Range<Int>] = []
                let patchedFolders = PathsByBytes(folders.keys)
                for _ in 0..<(try reader.count()) {
                    let start = reader.offset
                    let path = try reader.raw(try reader.count())
                    _ = try BuildManifest.signature(&reader)
                    if patchedFolders.path(path) == nil { kept.append(start..<reader.offset) }
                }
                let replaced = folders.compactMap { path, signature in signature.map { (path, $0) } }
                writer.write(UInt64(kept.count + replaced.count))
                for range in kept { writer.write(raw: body[range]) }
                for (path, signature) in replaced {
                    writer.write(path)
                    BuildManifest.write(signature, &writer)
                }
                // The previous folder's folders: the live folder's.
                writer.write(raw: body[liveFolders..<previousFolders])
                // The live files, the changed ones replaced; then the previous files, the old live ones: linked but where
                // they changed.
                reader = BinaryReader(body)
                _ = try reader.raw(live)
                let count = try reader.count()
                var previousTable = BinaryWriter(capacity: body.count / 3)
                previousTable.write(UInt64(count))
                writer.write(UInt64(count))
                var found = 0
                let changedPaths = PathsByBytes(changed.keys)
                for _ in 0..<count {
                    let pathStart = reader.offset
                    let path = try reader.raw(try reader.count())
                    let entryStart = reader.offset
                    _ = try BuildOutputs.skipOutput(&reader)
                    let name = body[pathStart..<entryStart]
                    if let changedPath = changedPaths.path(path), let new = changed[changedPath] {
                        found += 1
                        writer.write(raw: name)
                        BuildOutputs.write(new, &writer)
                        previousTable.write(raw: name)
                        previousTable.write(false)
                        previousTable.write(raw: body[entryStart..<reader.offset])
                    } else {
                        writer.write(raw: body[pathStart..<reader.offset])
                        previousTable.write(raw: name)
                        previousTable.write(true)
                    }
                }
                guard found == changed.count else { return nil }
                writer.write(raw: previousTable.take()[...])
            } catch {
                return nil
            }
            return writer.take()
        }
    }
}

/// A few paths, found among many paths' bytes without making a string of each: by length first, then bytes.
struct PathsByBytes {
    private var byLength: [Int: [(bytes: [UInt8], path: String)]] = [:]

    init(_ paths: some Sequence<String>) {
        for path in paths { byLength[path.utf8.count, default: []].append((Array(path.utf8), path)) }
    }

    /// The path whose UTF-8 bytes are `bytes`, if it is one of them.
    func path(_ bytes: ArraySlice<UInt8>) -> String? {
        byLength[bytes.count]?.first { $0.bytes.elementsEqual(bytes) }?.path
    }
}
