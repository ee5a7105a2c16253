import Foundation

/// The one file `glossary build` keeps its `BuildState` in, per output folder: `.glossary/build/state-<id>`, the id a
/// hash of the output folder's path. A file that is missing, damaged, of another format or made under another context
/// reads as nothing, and the build is a full one.
///
/// Layout (numbers are variable-length, strings length-prefixed UTF-8; see `BinaryWriter`):
///
/// 1. head: `magic`, `format`, the context, the output folder's path;
/// 2. the records of the markdown files and the glossary entries' bodies, one after another (`encode(_:)`,
///    `encode(body:destinations:)`);
/// 3. the index, in four parts (`IndexPart`): when the files were verified, the inputs' digest; the files (path,
///    signature, bytes' fingerprint); the pages (path below `content/`, signature, bytes' fingerprint, where its record
///    is with the record's own fingerprint, a content page's kit: `BuildState.PageKit`, and where an entry's body is,
///    with its fingerprint). Then the outputs (path, fingerprint, bytes' fingerprint, signature, slots). Then the
///    output folder's folders. Then the previous folder (its identity, where it differs, its folders) and the report;
/// 4. the trailer (`trailer` bytes): each part's checksum (`Fingerprint.of` its bytes), where the index begins, and the
///    length of each part but the last, so that the parts are checked and read side by side.
///
/// A build reads the index, and only the records and bodies it needs (a text edit, one record), each checked against
/// its fingerprint first. The next build writes its new records and bodies, then its own index and trailer, over the
/// last index and trailer (`write`): what it keeps stays where it is, and the trailer at the end says where the index
/// is.
enum StateFile {
    /// Bumped whenever the layout changes.
    static let format: UInt64 = 9
    static let magic = Array("glossary build state\n".utf8)
    /// Four checksums and four numbers, each number at most 10 bytes long.
    private static let trailer = 4 * 20 + 4 * 10

    /// The state file of builds of the site in `folder` (`.glossary/build`) into `output`.
    static func url(folder: URL, output: URL) -> URL {
        var hasher = FingerprintHasher()
        hasher.combine(output.standardizedFileURL.path)
        return folder.appendingPathComponent("state-" + String(hasher.finish().description.prefix(16)))
    }

    /// A record's bytes in a state file, checked against `hash` before they are decoded.
    struct RecordBytes: Sendable {
        let file: ReadOnlyFile
        let range: Range<Int>
        let hash: Fingerprint

        func record(file name: String) -> PageRecord? {
            let bytes = self.file.bytes(range)
            guard Fingerprint.of(bytes: bytes) == hash else { return nil }
            var reader = BinaryReader(bytes)
            return try? StateFile.record(&reader)
        }

        /// The bytes as an entry's body and its links' destinations.
        func body() -> (html: BodyHTML, destinations: [String?])? {
            let bytes = self.file.bytes(range)
            guard Fingerprint.of(bytes: bytes) == hash else { return nil }
            var reader = BinaryReader(bytes)
            return try? StateFile.body(&reader)
        }
    }

    /// The index's parts, in the order the file holds them; their sizes differ from site to site, so they are made and
    /// read on as many cores as there are, each taking the next part left.
    enum IndexPart: CaseIterable {
        /// When the files were verified, the inputs' digest, the files, the pages.
        case pages
        /// The outputs.
        case outputs
        /// The output folder's folders.
        case folders
        /// The previous folder, the report.
        case previous
    }

    /// The trailer: where the index starts in the file, and each part's range in it with its checksum.
    struct Trailer {
        var start: Int
        var parts: [(range: Range<Int>, checksum: Fingerprint)]

        /// The trailer of an index at `start` made of `parts` (with their checksums).
        func bytes() -> [UInt8] {
            var tail = BinaryWriter(capacity: trailer)
            for part in parts { tail.write(part.checksum) }
            tail.write(start)
            for part in parts.dropLast() { tail.write(part.range.count) }
            tail.write(raw: [UInt8](repeating: 0, count: trailer - tail.bytes.count))
            return tail.take()
        }

        /// The trailer at the end of `file`, when its numbers fit the file.
        init?(of file: ReadOnlyFile) {
            guard file.count > trailer else { return nil }
            var tail = BinaryReader(file.bytes(file.count - trailer..<file.count))
            guard let checksums = try? IndexPart.allCases.map({ _ throws(BinaryReader.Damaged) in try tail.fingerprint() }),
                let start = try? tail.int(), start > 0, start < file.count - trailer,
                let lengths = try? IndexPart.allCases.dropLast().map({ _ throws(BinaryReader.Damaged) in try tail.int() })
            else { return nil }
            // Each length checked against what is left before it is added: a damaged one may be any number.
            let size = file.count - trailer - start
            var parts: [(range: Range<Int>, checksum: Fingerprint)] = []
            var end = 0
            for (index, checksum) in checksums.enumerated() {
                let length = index < lengths.count ? lengths[index] : size - end
                guard length >= 0, length <= size - end else { return nil }
                parts.append((end..<end + length, checksum))
                end += length
            }
            self.init(start: start, parts: parts)
        }

        init(start: Int, parts: [(range: Range<Int>, checksum: Fingerprint)]) {
            self.start = start
            self.parts = parts
        }
    }

    /// The state in `url` when it is sound, of this format and made under `context`; the index's parts are checked and
    /// read on `jobs` cores.
    static func read(_ url: URL, context: Fingerprint, jobs: Int = 2) -> BuildState? {
        guard let file = ReadOnlyFile(path: url.path), let trailer = Trailer(of: file) else { return nil }
        var head = BinaryReader(file.bytes(0..<min(file.count, 4096)))
        guard (try? head.raw(magic.count).elementsEqual(magic)) == true, (try? head.uint()) == format, (try? head.fingerprint()) == context else {
            return nil
        }
        let start = trailer.start
        let index = file.bytes(start..<file.count - Self.trailer)
        let parts = Array(zip(IndexPart.allCases, trailer.parts)).parallelMap(jobs: jobs) { part, place -> BuildState? in
            guard index.withUnsafeBytes({ Fingerprint.of(bytes: UnsafeRawBufferPointer(rebasing: $0[place.range])) }) == place.checksum else { return nil }
            var reader = BinaryReader(index, range: place.range)
            var state = BuildState(context: context)
            do throws(BinaryReader.Damaged) {
                switch part {
                case .pages: try readPages(&reader, into: &state, before: start, of: file)
                case .outputs:
                    let outputs = try reader.count()
                    state.outputs.reserveCapacity(outputs)
                    for _ in 0..<outputs { state.outputs[try reader.string()] = try output(&reader) }
                case .folders: state.folders = try folders(&reader)
                case .previous:
                    if try reader.bool() {
                        let identity = FileSignature.Identity(device: try reader.uint(), inode: try reader.uint())
                        state.previous = .init(identity: identity, differs: Set(try reader.strings()), folders: try folders(&reader))
                    }
                    state.report = try report(&reader)
                }
            } catch {
                return nil
            }
            return reader.isAtEnd ? state : nil
        }
        guard var state = parts[0], let outputs = parts[1], let folders = parts[2], let previous = parts[3] else { return nil }
        state.outputs = outputs.outputs
        state.folders = folders.folders
        state.previous = previous.previous
        state.report = previous.report
        return state
    }

    /// The index's first part (`IndexPart.pages`).
    private static func readPages(
        _ reader: inout BinaryReader, into state: inout BuildState, before start: Int, of file: ReadOnlyFile
    ) throws(BinaryReader.Damaged) {
        state.verifiedAt = Double(bitPattern: try reader.uint())
        state.digest = try reader.fingerprint()
        let files = try reader.count()
        state.files.reserveCapacity(files)
        for _ in 0..<files {
            state.files[try reader.string()] = .init(signature: try optionalSignature(&reader), hash: try optionalFingerprint(&reader))
        }
        let pages = try reader.count()
        state.pages.reserveCapacity(pages)
        for _ in 0..<pages {
            let path = try reader.string()
            let signature = try signature(&reader)
            let hash = try reader.fingerprint()
            let record = try reader.bool() ? BuildState.StoredRecord.encoded(try bytes(&reader, before: start, of: file)) : nil
            // Copied out: a slice would keep the whole index alive for as long as the state.
            let kit = try reader.bool() ? BuildState.StoredKit.encoded(Array(try reader.raw(try reader.count()))) : nil
            let body = try reader.bool() ? BuildState.StoredBody.encoded(try bytes(&reader, before: start, of: file)) : nil
            state.pages[path] = BuildState.StoredPage(signature: signature, hash: hash, record: record, kit: kit, body: body)
        }
    }

    /// Where a record or body is (its offset, length and fingerprint), which must be before the index at `start`.
    private static func bytes(_ reader: inout BinaryReader, before start: Int, of file: ReadOnlyFile) throws(BinaryReader.Damaged) -> RecordBytes {
        let offset = try reader.int()
        let length = try reader.int()
        guard offset >= 0, length >= 0, offset + length <= start else { throw .init() }
        return RecordBytes(file: file, range: offset..<offset + length, hash: try reader.fingerprint())
    }

    private static func write(_ place: (range: Range<Int>, hash: Fingerprint)?, _ writer: inout BinaryWriter) {
        writer.write(place != nil)
        guard let place else { return }
        writer.write(place.range.lowerBound)
        writer.write(place.range.count)
        writer.write(place.hash)
    }

    /// Where each page's record and each entry's body is in the file.
    private struct Places: Sendable {
        var records: [String: (range: Range<Int>, hash: Fingerprint)] = [:]
        var bodies: [String: (range: Range<Int>, hash: Fingerprint)] = [:]
        /// Whether the records and bodies read from the file stay where they are (an append), and so are not in the
        /// tables.
        var keepsRead = false

        func record(_ path: String, of page: BuildState.StoredPage) -> (range: Range<Int>, hash: Fingerprint)? {
            if keepsRead, case .encoded(let bytes) = page.record { return (bytes.range, bytes.hash) }
            return records[path]
        }

        func body(_ path: String, of page: BuildState.StoredPage) -> (range: Range<Int>, hash: Fingerprint)? {
            if keepsRead, case .encoded(let bytes) = page.body { return (bytes.range, bytes.hash) }
            return bodies[path]
        }
    }

    /// The index (see the layout), given where each page's record and each entry's body is: its parts, each with its
    /// checksum, made on `jobs` cores. The file holds one after the other.
    private static func index(_ state: BuildState, places: Places, jobs: Int) -> [(bytes: [UInt8], checksum: Fingerprint)] {
        IndexPart.allCases.parallelMap(jobs: jobs) { part in
            let bytes: [UInt8]
            switch part {
            case .pages: bytes = indexPages(state, places: places)
            case .outputs:
                var writer = BinaryWriter(capacity: 1 << 22)
                writer.write(UInt64(state.outputs.count))
                for (path, output) in state.outputs {
                    writer.write(path)
                    write(output, &writer)
                }
                bytes = writer.take()
            case .folders:
                var writer = BinaryWriter(capacity: 1 << 20)
                write(state.folders, &writer)
                bytes = writer.take()
            case .previous:
                var writer = BinaryWriter(capacity: 1 << 20)
                writer.write(state.previous != nil)
                if let previous = state.previous {
                    writer.write(previous.identity.device)
                    writer.write(previous.identity.inode)
                    writer.write(previous.differs.sorted())
                    write(previous.folders, &writer)
                }
                write(state.report, &writer)
                bytes = writer.take()
            }
            return (bytes, Fingerprint.of(bytes: bytes))
        }
    }

    /// The trailer after `index` (its parts, one after the other), which starts at `start`.
    private static func trailer(of index: [(bytes: [UInt8], checksum: Fingerprint)], start: Int) -> [UInt8] {
        var end = 0
        return Trailer(
            start: start,
            parts: index.map { part in
                defer { end += part.bytes.count }
                return (end..<end + part.bytes.count, part.checksum)
            }
        ).bytes()
    }

    /// The index's first part (`IndexPart.pages`).
    private static func indexPages(_ state: BuildState, places: Places) -> [UInt8] {
        var writer = BinaryWriter(capacity: 1 << 22)
        writer.write(state.verifiedAt.bitPattern)
        writer.write(state.digest)
        writer.write(UInt64(state.files.count))
        for (path, stored) in state.files {
            writer.write(path)
            write(stored.signature, &writer)
            write(stored.hash, &writer)
        }
        writer.write(UInt64(state.pages.count))
        for (path, page) in state.pages {
            writer.write(path)
            write(page.signature, &writer)
            writer.write(page.hash)
            write(places.record(path, of: page), &writer)
            writer.write(page.kit != nil)
            switch page.kit {
            case .encoded(let bytes):
                writer.write(UInt64(bytes.count))
                writer.write(raw: bytes)
            case .made(let kit):
                var bytes = BinaryWriter(capacity: 256)
                bytes.write(kit.document)
                bytes.write(kit.search)
                write(kit.destinations, &bytes)
                write(kit.targets.map { $0?.slug }, &bytes)
                write(kit.targets.map { $0?.key }, &bytes)
                bytes.write(kit.llms != nil)
                if let llms = kit.llms {
                    write(llms.links, &bytes)
                    write(llms.terms, &bytes)
                }
                bytes.write(kit.term != nil)
                if let term = kit.term { bytes.write(term) }
                writer.write(UInt64(bytes.bytes.count))
                writer.write(raw: bytes.take())
            case nil:
                break
            }
            write(places.body(path, of: page), &writer)
        }
        return writer.take()
    }

    private static func folders(_ reader: inout BinaryReader) throws(BinaryReader.Damaged) -> [String: FileSignature] {
        var folders: [String: FileSignature] = [:]
        let count = try reader.count()
        folders.reserveCapacity(count)
        for _ in 0..<count { folders[try reader.string()] = try signature(&reader) }
        return folders
    }

    private static func write(_ folders: [String: FileSignature], _ writer: inout BinaryWriter) {
        writer.write(UInt64(folders.count))
        for (path, signature) in folders {
            writer.write(path)
            write(signature, &writer)
        }
    }

    static func decodeKit(_ bytes: [UInt8]) -> BuildState.PageKit? {
        var reader = BinaryReader(bytes)
        guard let document = try? reader.int(), let search = try? reader.int(), let destinations = try? optionalStrings(&reader),
            let slugs = try? optionalStrings(&reader), let keys = try? optionalStrings(&reader), keys.count == slugs.count,
            let hasLLMs = try? reader.bool()
        else { return nil }
        var llms: LLMsText.Targets?
        if hasLLMs {
            guard let links = try? optionalStrings(&reader), let terms = try? optionalStrings(&reader) else { return nil }
            llms = LLMsText.Targets(links: links, terms: terms)
        }
        guard let hasTerm = try? reader.bool() else { return nil }
        var term: String?
        if hasTerm {
            guard let path = try? reader.string() else { return nil }
            term = path
        }
        guard reader.isAtEnd else { return nil }
        let targets = zip(slugs, keys).map { slug, key in slug.flatMap { slug in key.map { TermMarkup.Target(slug: slug, key: $0) } } }
        return .init(document: document, search: search, destinations: destinations, targets: targets, llms: llms, term: term)
    }

    /// Writes `state` for builds into `output`; whether it is there. A state that can't be written costs the next build
    /// its shortcuts, and no stale file is left to mislead it.
    ///
    /// What the state adds is appended to the file it was read from, when it can be (`append`); else the file is
    /// written whole, atomically. The index is made on `jobs` cores.
    @discardableResult
    static func write(_ state: BuildState, output: URL, to url: URL, jobs: Int = 2) -> Bool {
        switch append(state, to: url, jobs: jobs) {
        case true?: return true
        case false?:
            unlink(url.path)
            return false
        case nil: break
        }
        guard let file = AtomicFile(url) else {
            unlink(url.path)
            return false
        }
        file.buffer.write(raw: magic)
        file.buffer.write(format)
        file.buffer.write(state.context)
        file.buffer.write(output.standardizedFileURL.path)
        // The records and bodies first, each where the index will say: those of the last state in its order, runs of
        // them copied whole, then the new ones.
        var places = Places()
        places.records.reserveCapacity(state.pages.count)
        var stored: [(path: String, isBody: Bool, bytes: RecordBytes)] = []
        func add(_ bytes: [UInt8], path: String, isBody: Bool) {
            let start = file.written + file.buffer.bytes.count
            file.buffer.write(raw: bytes)
            let place = (start..<start + bytes.count, Fingerprint.of(bytes: bytes))
            if isBody { places.bodies[path] = place } else { places.records[path] = place }
            file.flushIfFull()
        }
        for (path, page) in state.pages {
            switch page.record {
            case .encoded(let bytes): stored.append((path, false, bytes))
            case .parsed(let record): add(encode(record), path: path, isBody: false)
            case nil: break
            }
            switch page.body {
            case .encoded(let bytes): stored.append((path, true, bytes))
            case .made(let body, let destinations): add(encode(body: body, destinations: destinations), path: path, isBody: true)
            case nil: break
            }
        }
        stored.sort { $0.bytes.range.lowerBound < $1.bytes.range.lowerBound }
        var run: (file: ReadOnlyFile, range: Range<Int>)?
        for (path, isBody, bytes) in stored {
            if let current = run, current.file === bytes.file, current.range.upperBound == bytes.range.lowerBound {
                run?.range = current.range.lowerBound..<bytes.range.upperBound
            } else {
                if let current = run { file.copy(current.range, of: current.file) }
                run = (bytes.file, bytes.range)
            }
            // Where it will be: after what is written so far, and what the run holds before it.
            let start = file.written + file.buffer.bytes.count + (bytes.range.lowerBound - run!.range.lowerBound)
            let place = (start..<start + bytes.range.count, bytes.hash)
            if isBody { places.bodies[path] = place } else { places.records[path] = place }
        }
        if let current = run { file.copy(current.range, of: current.file) }
        let start = file.written + file.buffer.bytes.count
        file.flush()
        let index = index(state, places: places, jobs: jobs)
        for part in index { file.write(part.bytes) }
        file.buffer.write(raw: trailer(of: index, start: start))
        if file.commit() { return true }
        unlink(url.path)
        return false
    }

    /// Writes `state`'s new records and bodies, then its index and trailer, into the file it was read from, where the
    /// records and bodies it keeps already are, starting where that file's index starts (nothing refers to that index
    /// once there is another), and cuts the file there: a reader finds the index by the trailer at the end. Records no
    /// index refers to any more stay in the file until it is written whole: when appending would make it more than
    /// twice what its index refers to. Nil when it can't append (no record was read from the file at `url`, or that
    /// file changed since), and the file is written whole; false when a write failed.
    ///
    /// A build that stops during the append leaves a file whose end is no trailer of an index it holds (a trailer left
    /// at the end points where the new bytes are), which reads as nothing.
    private static func append(_ state: BuildState, to url: URL, jobs: Int) -> Bool? {
        // The file every record and body kept was read from, and how many bytes of it they are.
        var source: ReadOnlyFile?
        var kept = 0
        var keptEnd = 0
        func keep(_ bytes: RecordBytes) -> Bool {
            if source == nil { source = bytes.file }
            kept += bytes.range.count
            keptEnd = max(keptEnd, bytes.range.upperBound)
            return source === bytes.file
        }
        for page in state.pages.values {
            if case .encoded(let bytes) = page.record, !keep(bytes) { return nil }
            if case .encoded(let bytes) = page.body, !keep(bytes) { return nil }
        }
        guard let source else { return nil }
        let descriptor = open(url.path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, FileSignature.Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)) == source.identity,
            Int(info.st_size) == source.count, let last = Trailer(of: source)
        else { return nil }
        // Where the file's index starts: every record and body kept lies before it (`read` makes sure).
        let base = last.start
        guard keptEnd <= base else { return nil }
        var added = BinaryWriter(capacity: 1 << 16)
        var places = Places(keepsRead: true)
        func add(_ bytes: [UInt8]) -> (range: Range<Int>, hash: Fingerprint) {
            let start = base + added.bytes.count
            added.write(raw: bytes)
            return (start..<start + bytes.count, Fingerprint.of(bytes: bytes))
        }
        for (path, page) in state.pages {
            if case .parsed(let record) = page.record { places.records[path] = add(encode(record)) }
            if case .made(let body, let destinations) = page.body { places.bodies[path] = add(encode(body: body, destinations: destinations)) }
        }
        let start = base + added.bytes.count
        let index = index(state, places: places, jobs: jobs)
        let end = trailer(of: index, start: start)
        let appended = added.bytes.count + index.reduce(0) { $0 + $1.bytes.count } + end.count
        guard base + appended <= 2 * (kept + appended) else { return nil }
        guard lseek(descriptor, off_t(base), SEEK_SET) == off_t(base) else { return false }
        guard added.withBytes({ FileContents.writeAll($0, to: descriptor) }) == 0 else { return false }
        for part in index.map(\.bytes) + [end] where part.withUnsafeBytes({ FileContents.writeAll($0, to: descriptor) }) != 0 { return false }
        return ftruncate(descriptor, off_t(base + appended)) == 0
    }

    /// The output folder a state file is for, from its head alone (nil when it is not a state file of this format).
    static func output(of url: URL) -> String? {
        guard let file = ReadOnlyFile(path: url.path) else { return nil }
        var reader = BinaryReader(file.bytes(0..<min(file.count, 8192)))
        guard (try? reader.raw(magic.count).elementsEqual(magic)) == true, (try? reader.uint()) == format, (try? reader.fingerprint()) != nil else {
            return nil
        }
        return try? reader.string()
    }

    // MARK: Records

    /// A record's bytes: every field.
    static func encode(_ record: PageRecord) -> [UInt8] {
        var writer = BinaryWriter(capacity: 4096)
        write(record, &writer, linkage: false)
        return writer.take()
    }

    /// An entry's body's bytes: its HTML, its slots and its links' destinations.
    static func encode(body: BodyHTML, destinations: [String?]) -> [UInt8] {
        var writer = BinaryWriter(capacity: body.bytes.count + 16 * body.slots.count + 64)
        writer.write(UInt64(body.bytes.count))
        writer.write(raw: body.bytes)
        writer.write(UInt64(body.slots.count))
        for slot in body.slots {
            writer.write(slot.offset)
            writer.write(slot.reference)
            writer.write(slot.closes)
        }
        write(destinations, &writer)
        return writer.take()
    }

    fileprivate static func body(_ reader: inout BinaryReader) throws(BinaryReader.Damaged) -> (html: BodyHTML, destinations: [String?]) {
        let bytes = Array(try reader.raw(try reader.count()))
        var slots: [BodyHTML.Slot] = []
        let count = try reader.count()
        slots.reserveCapacity(count)
        for _ in 0..<count {
            let slot = BodyHTML.Slot(offset: try reader.int(), reference: try reader.int(), closes: try reader.bool())
            guard slot.offset >= 0, slot.offset <= bytes.count, slot.offset >= (slots.last?.offset ?? 0), slot.reference >= 0 else { throw .init() }
            slots.append(slot)
        }
        let destinations = try optionalStrings(&reader)
        guard reader.isAtEnd else { throw .init() }
        return (BodyHTML(bytes: bytes, slots: slots), destinations)
    }

    /// Everything in a record that any output but the page's own and the search index's reads: every field but its
    /// text as the search index counts it, its bytes' fingerprint, and where things are in the file (which only
    /// problems show). Two records of a page with the same linkage differ at most in those.
    static func linkage(of record: PageRecord) -> Fingerprint {
        var writer = BinaryWriter(capacity: 1024)
        write(record, &writer, linkage: true)
        return Fingerprint.of(bytes: writer.take())
    }

    /// Whether every location in the record is in its own file, as the encoding assumes.
    static func canStore(_ record: PageRecord) -> Bool {
        let file = record.page.displayPath
        return record.diagnostics.isEmpty && record.references.allSatisfy { $0.location.file == file }
            && record.declaredTerms.allSatisfy { $0.location.file == file } && record.links.allSatisfy { $0.location.file == file }
            && record.page.metadata.locations.values.allSatisfy { $0.file == file }
    }

    private static func write(_ record: PageRecord, _ writer: inout BinaryWriter, linkage: Bool) {
        if !linkage { writer.write(record.contentHash) }
        let page = record.page
        writer.write(page.kind == .glossaryEntry)
        writer.write(page.displayPath)
        writer.write(page.contentPath)
        write(page.metadata, &writer, locations: !linkage)
        write(record.references, &writer, locations: !linkage)
        write(record.declaredTerms, &writer, locations: !linkage)
        writer.write(UInt64(record.links.count))
        for link in record.links {
            writer.write(link.destination)
            writer.write(link.isImage)
            if !linkage {
                writer.write(link.location.line)
                writer.write(link.location.column)
            }
        }
        writer.write(record.firstHeading)
        writer.write(record.startsWithTitleHeading)
        writer.write(record.firstParagraph)
        writer.write(UInt64(record.headings.count))
        for heading in record.headings {
            writer.write(heading.level)
            writer.write(heading.text)
            writer.write(heading.id)
        }
        writer.write(record.summaryHTML)
        write(record.autolink, &writer)
        writer.write(record.hasBody)
        if !linkage {
            let text = record.searchText
            writer.write(UInt64(text.bytes.count))
            writer.write(raw: text.bytes)
            writer.write(UInt64(text.ends.count))
            for (end, count) in zip(text.ends, text.occurrences) {
                writer.write(UInt64(end))
                writer.write(UInt64(count))
            }
            writer.write(text.length)
        }
    }

    fileprivate static func record(_ reader: inout BinaryReader) throws(BinaryReader.Damaged) -> PageRecord {
        let contentHash = try reader.fingerprint()
        let isEntry = try reader.bool()
        let displayPath = try reader.string()
        let contentPath = try reader.string()
        let metadata = try self.metadata(&reader, file: displayPath)
        let page = Page(kind: isEntry ? .glossaryEntry : .page, displayPath: displayPath, contentPath: contentPath, metadata: metadata)
        let references = try self.references(&reader, file: displayPath)
        let declared = try self.references(&reader, file: displayPath)
        var links: [MarkdownLink] = []
        for _ in 0..<(try reader.count()) {
            let destination = try reader.string()
            let isImage = try reader.bool()
            let location = SourceLocation(file: displayPath, line: try reader.int(), column: try reader.int())
            links.append(MarkdownLink(destination: destination, isImage: isImage, location: location))
        }
        let firstHeading = try reader.optionalString()
        let startsWithTitleHeading = try reader.bool()
        let firstParagraph = try reader.optionalString()
        var headings: [PageHeading] = []
        for _ in 0..<(try reader.count()) {
            headings.append(PageHeading(level: try reader.int(), text: try reader.string(), id: try reader.string()))
        }
        let summaryHTML = try reader.optionalString()
        let autolink = try optionalFingerprint(&reader)
        let hasBody = try reader.bool()
        let joined = Array(try reader.raw(try reader.count()))
        let terms = try reader.count()
        var ends: [UInt32] = []
        var counts: [UInt32] = []
        ends.reserveCapacity(terms)
        counts.reserveCapacity(terms)
        for _ in 0..<terms {
            guard let end = UInt32(exactly: try reader.uint()), let count = UInt32(exactly: try reader.uint()), end >= (ends.last ?? 0) else {
                throw .init()
            }
            ends.append(end)
            counts.append(count)
        }
        guard (ends.last ?? 0) <= joined.count, String(validating: joined, as: UTF8.self) != nil else { throw .init() }
        let searchText = SearchTerms(joined: joined, ends: ends, counts: counts, length: try reader.int())
        return PageRecord(
            page: page, references: references, declaredTerms: declared, links: links, firstHeading: firstHeading,
            startsWithTitleHeading: startsWithTitleHeading, firstParagraph: firstParagraph, summaryHTML: summaryHTML, autolink: autolink,
            headings: headings, searchText: searchText, diagnostics: [], contentHash: contentHash, hasBody: hasBody)
    }

    private static func write(_ references: [TermReference], _ writer: inout BinaryWriter, locations: Bool) {
        writer.write(UInt64(references.count))
        for reference in references {
            writer.write(reference.shown)
            writer.write(reference.word)
            writer.write(reference.key.rawValue)
            writer.write(reference.key.slug)
            writer.write(reference.isAutomatic)
            if locations {
                writer.write(reference.location.line)
                writer.write(reference.location.column)
            }
        }
    }

    private static func references(_ reader: inout BinaryReader, file: String) throws(BinaryReader.Damaged) -> [TermReference] {
        var references: [TermReference] = []
        let count = try reader.count()
        references.reserveCapacity(count)
        for _ in 0..<count {
            let shown = try reader.string()
            let word = try reader.string()
            let key = TermKey(canonical: try reader.string(), slug: try reader.string())
            let isAutomatic = try reader.bool()
            let location = SourceLocation(file: file, line: try reader.int(), column: try reader.int())
            references.append(TermReference(shown: shown, word: word, key: key, location: location, isAutomatic: isAutomatic))
        }
        return references
    }

    private static func write(_ metadata: PageMetadata, _ writer: inout BinaryWriter, locations: Bool) {
        writer.write(metadata.title)
        writer.write(metadata.description)
        writer.write(metadata.date)
        writer.write(metadata.draft)
        writer.write(metadata.tags)
        writer.write(metadata.terms)
        writer.write(metadata.weight != nil)
        writer.write(metadata.weight ?? 0)
        writer.write(metadata.toc.map { $0 ? 2 : 1 } ?? 0)
        writer.write(metadata.term)
        writer.write(metadata.aliases)
        writer.write(metadata.partOfSpeech)
        writer.write(metadata.phonetic)
        writer.write(metadata.synonyms)
        writer.write(metadata.antonyms)
        writer.write(metadata.seeAlso)
        writer.write(metadata.sense)
        writer.write(metadata.summary)
        writer.write(metadata.caseSensitive)
        writer.write(UInt64(metadata.senses.count))
        for (word, sense) in metadata.senses.sorted(by: { $0.key < $1.key }) {
            writer.write(word)
            writer.write(sense)
        }
        writer.write(metadata.autolink?.rawValue)
        writer.write(metadata.autolinkExclude)
        writer.write(metadata.translationOf)
        writer.write(metadata.concept)
        writer.write(metadata.status?.rawValue)
        writer.write(metadata.use)
        writer.write(metadata.deprecated)
        writer.write(metadata.forbidden)
        writer.write(UInt64(metadata.locations.count))
        for (key, location) in metadata.locations.sorted(by: { $0.key < $1.key }) {
            writer.write(key)
            if locations {
                writer.write(location.line)
                writer.write(location.column)
            }
        }
    }

    private static func metadata(_ reader: inout BinaryReader, file: String) throws(BinaryReader.Damaged) -> PageMetadata {
        var metadata = PageMetadata()
        metadata.title = try reader.optionalString()
        metadata.description = try reader.optionalString()
        metadata.date = try reader.optionalString()
        metadata.draft = try reader.bool()
        metadata.tags = try reader.strings()
        metadata.terms = try reader.strings()
        let hasWeight = try reader.bool()
        let weight = try reader.int()
        metadata.weight = hasWeight ? weight : nil
        switch try reader.int() {
        case 0: metadata.toc = nil
        case 1: metadata.toc = false
        default: metadata.toc = true
        }
        metadata.term = try reader.optionalString()
        metadata.aliases = try reader.strings()
        metadata.partOfSpeech = try reader.optionalString()
        metadata.phonetic = try reader.optionalString()
        metadata.synonyms = try reader.strings()
        metadata.antonyms = try reader.strings()
        metadata.seeAlso = try reader.strings()
        metadata.sense = try reader.optionalString()
        metadata.summary = try reader.optionalString()
        metadata.caseSensitive = try reader.bool()
        for _ in 0..<(try reader.count()) {
            let word = try reader.string()
            metadata.senses[word] = try reader.string()
        }
        metadata.autolink = try reader.optionalString().flatMap(AutolinkMode.init(rawValue:))
        metadata.autolinkExclude = try reader.strings()
        metadata.translationOf = try reader.optionalString()
        metadata.concept = try reader.optionalString()
        metadata.status = try reader.optionalString().flatMap(TermStatus.init(rawValue:))
        metadata.use = try reader.optionalString()
        metadata.deprecated = try reader.strings()
        metadata.forbidden = try reader.strings()
        for _ in 0..<(try reader.count()) {
            let key = try reader.string()
            metadata.locations[key] = SourceLocation(file: file, line: try reader.int(), column: try reader.int())
        }
        return metadata
    }

    // MARK: Outputs and the report

    fileprivate static func write(_ output: BuildState.StoredOutput, _ writer: inout BinaryWriter) {
        write(output.fingerprint, &writer)
        writer.write(output.bytesHash)
        write(output.signature, &writer)
        writer.write(output.slots != nil)
        guard let slots = output.slots else { return }
        writer.write(UInt64(slots.written.count))
        for slot in slots.written {
            writer.write(slot.slot)
            writer.write(slot.escaped)
            writer.write(slot.start)
            writer.write(slot.length)
        }
        writer.write(UInt64(slots.shown.count))
        for shown in slots.shown { writer.write(shown) }
    }

    fileprivate static func output(_ reader: inout BinaryReader) throws(BinaryReader.Damaged) -> BuildState.StoredOutput {
        var output = BuildState.StoredOutput(
            fingerprint: try optionalFingerprint(&reader), bytesHash: try reader.fingerprint(), signature: try optionalSignature(&reader))
        guard try reader.bool() else { return output }
        var written: [MustacheSlots.Written] = []
        for _ in 0..<(try reader.count()) {
            let slot = MustacheSlots.Written(slot: try reader.int(), escaped: try reader.bool(), start: try reader.int(), length: try reader.int())
            // In order and apart, as a render notes them: anything else is damage.
            guard slot.slot >= 0, slot.length >= 0, slot.start >= (written.last.map { $0.start + $0.length } ?? 0) else { throw .init() }
            written.append(slot)
        }
        var shown: [Bool] = []
        for _ in 0..<(try reader.count()) { shown.append(try reader.bool()) }
        output.slots = MustacheSlots(written: written, shown: shown)
        return output
    }

    /// The counts a report keeps.
    private static var reportedCounts: [WritableKeyPath<BuildStats, Int>] {
        [\.pages, \.terms, \.unresolved, \.local, \.cached, \.fetched, \.fromWordNet, \.files]
    }

    fileprivate static func write(_ report: BuildState.Report, _ writer: inout BinaryWriter) {
        writer.write(UInt64(report.diagnostics.count))
        for diagnostic in report.diagnostics { write(diagnostic, &writer) }
        for count in reportedCounts { writer.write(report.stats[keyPath: count]) }
        writer.write(report.validUntil.bitPattern)
        writer.write(report.wantsNetwork)
        writer.write(report.rootPath)
    }

    fileprivate static func report(_ reader: inout BinaryReader) throws(BinaryReader.Damaged) -> BuildState.Report {
        var report = BuildState.Report()
        for _ in 0..<(try reader.count()) { report.diagnostics.append(try diagnostic(&reader)) }
        for count in reportedCounts { report.stats[keyPath: count] = try reader.int() }
        report.validUntil = Double(bitPattern: try reader.uint())
        report.wantsNetwork = try reader.bool()
        report.rootPath = try reader.string()
        return report
    }

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

    /// A problem as printed: its code, severity, message, place and notes (read back as `Problem.replayed`).
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
            throw .init()
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

    // MARK: Pieces

    static func write(_ signature: FileSignature, _ writer: inout BinaryWriter) {
        writer.write(signature.device)
        writer.write(signature.inode)
        writer.write(Int(signature.size))
        writer.write(signature.modifiedSeconds)
        writer.write(signature.modifiedNanoseconds)
        writer.write(signature.changedSeconds)
        writer.write(signature.changedNanoseconds)
    }

    static func signature(_ reader: inout BinaryReader) throws(BinaryReader.Damaged) -> FileSignature {
        FileSignature(
            device: try reader.uint(), inode: try reader.uint(), size: Int64(try reader.int()), modifiedSeconds: try reader.int(),
            modifiedNanoseconds: try reader.int(), changedSeconds: try reader.int(), changedNanoseconds: try reader.int())
    }

    fileprivate static func write(_ signature: FileSignature?, _ writer: inout BinaryWriter) {
        writer.write(signature != nil)
        if let signature { write(signature, &writer) }
    }

    fileprivate static func optionalSignature(_ reader: inout BinaryReader) throws(BinaryReader.Damaged) -> FileSignature? {
        try reader.bool() ? try signature(&reader) : nil
    }

    fileprivate static func write(_ fingerprint: Fingerprint?, _ writer: inout BinaryWriter) {
        writer.write(fingerprint != nil)
        if let fingerprint { writer.write(fingerprint) }
    }

    fileprivate static func optionalFingerprint(_ reader: inout BinaryReader) throws(BinaryReader.Damaged) -> Fingerprint? {
        try reader.bool() ? try reader.fingerprint() : nil
    }

    fileprivate static func write(_ strings: [String?], _ writer: inout BinaryWriter) {
        writer.write(UInt64(strings.count))
        for string in strings { writer.write(string) }
    }

    fileprivate static func optionalStrings(_ reader: inout BinaryReader) throws(BinaryReader.Damaged) -> [String?] {
        var strings: [String?] = []
        for _ in 0..<(try reader.count()) { strings.append(try reader.optionalString()) }
        return strings
    }
}
