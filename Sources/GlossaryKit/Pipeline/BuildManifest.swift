import Foundation

/// The build state of `glossary build`, kept between runs in `.glossary/build/manifest-<output>` (one per output
/// folder): records of the markdown files and fingerprints of the other inputs. What the output folders hold is kept
/// beside it (`BuildOutputs`).
///
/// The file ends with a fingerprint of everything before it. A manifest that is missing, damaged, of another
/// format, or written by another build of glossary is ignored: the build is then a full one, never a wrong
/// one. Records of files with problems are left out (those files are parsed again, so their problems are
/// reported again). Written atomically (a temporary file, then a rename).
struct BuildManifest {
    let url: URL

    /// Bumped whenever the layout changes (or what a record holds).
    static let format: UInt64 = 6
    static let magic = Array("glossary build manifest\n".utf8)

    init(folder: URL, output: URL) {
        url = Self.stateFile("manifest", folder: folder, output: output)
    }

    /// The build-state file `name-<output>` in `folder`: the manifest, outputs file and snapshot of one output
    /// folder share the id, a hash of its standardized path.
    static func stateFile(_ name: String, folder: URL, output: URL) -> URL {
        let id = Fingerprint.of(bytes: Array(output.standardizedFileURL.path.utf8)).description.prefix(16)
        return folder.appendingPathComponent("\(name)-\(id)")
    }

    /// Fills `state` from the manifest when it is sound and was made under `context`; leaves it alone otherwise. Whether
    /// it did.
    @discardableResult
    func load(into state: BuildState, context: Fingerprint) -> Bool {
        guard let body = ChecksummedFile.read(url, minimum: Self.magic.count) else { return false }
        var reader = BinaryReader(body)
        do throws(BinaryReader.Damaged) {
            guard try reader.raw(Self.magic.count).elementsEqual(Self.magic), try reader.uint() == Self.format,
                try reader.fingerprint() == context
            else { return false }
            var records: [String: BuildState.StoredRecord] = [:]
            var terms = SearchTermTable.Reading()
            for _ in 0..<(try reader.count()) {
                let signature = try Self.signature(&reader)
                let readAt = Double(bitPattern: try reader.uint())
                let record = try Self.record(&reader, terms: &terms)
                records[record.page.contentPath] = .init(signature: signature, readAt: readAt, record: record)
            }
            var files: [String: BuildState.StoredFile] = [:]
            for _ in 0..<(try reader.count()) {
                let path = try reader.string()
                files[path] = .init(signature: try Self.signature(&reader), readAt: Double(bitPattern: try reader.uint()), hash: try reader.fingerprint())
            }
            guard reader.isAtEnd else { return false }
            state.withLock { state in
                state.context = context
                state.records = records
                state.files = files
                state.isDirty = false
            }
            return true
        } catch {
            return false
        }
    }

    /// Writes `state`; a manifest that can't be written only costs the next build its shortcuts. Written a piece at
    /// a time as it is made (`ChecksummedFile.Writer`), so it is never whole in memory. With a `draft` of the same
    /// records, only what follows them is written now.
    func save(_ state: BuildState, draft: Draft? = nil) {
        // Its thread done first, so that no temporary file outlives the build.
        let drafted = draft?.finish()
        guard state.withLock({ $0.isDirty }) else {
            draft?.discard()
            return
        }
        let records = state.withLock { $0.records }
        let file: ChecksummedFile.Writer
        if let draft, let drafted, draft.holds(records) {
            file = drafted
        } else {
            // A draft of other records goes, with its temporary file.
            draft?.discard()
            guard let fresh = ChecksummedFile.Writer(url) else { return }
            Self.writeHead(Self.storable(records), context: state.withLock { $0.context }, into: fresh)
            file = fresh
        }
        state.withLock { state in
            file.buffer.write(UInt64(state.files.count))
            for (path, stored) in state.files.sorted(by: { $0.key < $1.key }) {
                file.buffer.write(path)
                Self.write(stored.signature, &file.buffer)
                file.buffer.write(stored.readAt.bitPattern)
                file.buffer.write(stored.hash)
                file.flushIfFull()
            }
        }
        if file.commit() { state.withLock { $0.isDirty = false } }
    }

    /// The manifest's first part — its header and the records, which are most of it — written on a thread of its own
    /// while the build renders (the records are the build's once its site is made; what follows them is known only
    /// once the output is committed). `save` finishes the file when the state still holds the same records, and
    /// writes it whole otherwise.
    final class Draft: @unchecked Sendable {
        private let records: [String: BuildState.StoredRecord]
        private var file: ChecksummedFile.Writer?
        private let written = DispatchSemaphore(value: 0)

        fileprivate init(records: [String: BuildState.StoredRecord], context: Fingerprint, url: URL) {
            self.records = records
            let thread = Thread { [self] in
                if let file = ChecksummedFile.Writer(url, temporaryTag: "draft") {
                    BuildManifest.writeHead(BuildManifest.storable(records), context: context, into: file)
                    self.file = file
                }
                written.signal()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }

        /// The file with the header and records written, once they are (nil when it couldn't be made).
        fileprivate func finish() -> ChecksummedFile.Writer? {
            written.wait()
            written.signal()
            return file
        }

        fileprivate func discard() {
            file = nil
        }

        /// Whether `records` are the drafted ones: the same files, each the same record read at the same time.
        fileprivate func holds(_ records: [String: BuildState.StoredRecord]) -> Bool {
            records.count == self.records.count
                && records.allSatisfy { path, stored in
                    guard let drafted = self.records[path] else { return false }
                    return drafted.record === stored.record && drafted.signature == stored.signature && drafted.readAt == stored.readAt
                }
        }
    }

    /// Starts writing the state's records (see `Draft`), when they changed since the manifest was read.
    func draft(_ state: BuildState) -> Draft? {
        let (dirty, records, context) = state.withLock { ($0.isDirty, $0.records, $0.context) }
        guard dirty else { return nil }
        return Draft(records: records, context: context, url: url)
    }

    /// The records a manifest keeps, in path order: those of files without problems, with every location in the file.
    private static func storable(_ records: [String: BuildState.StoredRecord]) -> [BuildState.StoredRecord] {
        records.values.filter { $0.record.diagnostics.isEmpty && canStore($0.record) }.sorted { $0.record.page.contentPath < $1.record.page.contentPath }
    }

    private static func writeHead(_ records: [BuildState.StoredRecord], context: Fingerprint, into file: ChecksummedFile.Writer) {
        file.buffer.write(raw: magic)
        file.buffer.write(format)
        file.buffer.write(context)
        file.buffer.write(UInt64(records.count))
        var terms = SearchTermTable.Writing()
        for stored in records {
            write(stored.signature, &file.buffer)
            file.buffer.write(stored.readAt.bitPattern)
            write(stored.record, &file.buffer, terms: &terms)
            file.flushIfFull()
        }
    }

    // MARK: Pieces

    /// The search terms of every record, each written in full the first time and as its number after: a
    /// site's pages share a few thousand terms among millions of uses, and reading a string costs far more than
    /// reading a number (the manifest is read by every build).
    enum SearchTermTable {
        struct Writing {
            private var ids = TermIDs(capacity: 1 << 13, strings: false)

            /// 0 and the term when it is new, else its number + 1.
            mutating func write(_ term: String, _ writer: inout BinaryWriter) {
                var copy = term
                copy.withUTF8 { write(bytes: $0, &writer) }
            }

            /// `write(_:_:)` for a term's UTF-8 bytes (a page's search field keeps its terms so).
            mutating func write(bytes term: UnsafeBufferPointer<UInt8>, _ writer: inout BinaryWriter) {
                let (id, isNew) = ids.id(bytes: term)
                if isNew {
                    writer.write(UInt64(0))
                    writer.write(bytes: term)
                } else {
                    writer.write(UInt64(id + 1))
                }
            }
        }

        /// The terms read so far as their bytes, one after another: a record's field is made of their bytes,
        /// without a `String` for each use.
        struct Reading {
            private var bytes: [UInt8] = []
            private var starts: [Int] = [0]

            /// The number of the next term (its UTF-8 checked the first time it is read).
            mutating func readNumber(_ reader: inout BinaryReader) throws(BinaryReader.Damaged) -> Int {
                let number = try reader.uint()
                guard number > 0 else {
                    let term = try reader.raw(try reader.count())
                    guard String(validating: term, as: UTF8.self) != nil else { throw .init() }
                    bytes.append(contentsOf: term)
                    starts.append(bytes.count)
                    return starts.count - 2
                }
                guard number < UInt64(starts.count) else { throw .init() }
                return Int(number) - 1
            }

            func byteCount(_ number: Int) -> Int { starts[number + 1] - starts[number] }

            func append(_ number: Int, to joined: inout [UInt8]) {
                joined.append(contentsOf: bytes[starts[number]..<starts[number + 1]])
            }

            mutating func read(_ reader: inout BinaryReader) throws(BinaryReader.Damaged) -> String {
                let number = try readNumber(&reader)
                return String(decoding: bytes[starts[number]..<starts[number + 1]], as: UTF8.self)
            }

            /// A field of `count` terms, then as many counts, then its length, as `write(_:_:terms:)` wrote it.
            mutating func field(_ reader: inout BinaryReader) throws(BinaryReader.Damaged) -> SearchTerms {
                let count = try reader.count()
                var numbers: [Int] = []
                numbers.reserveCapacity(count)
                var size = 0
                for _ in 0..<count {
                    let number = try readNumber(&reader)
                    numbers.append(number)
                    size += byteCount(number)
                }
                // Exactly as long as they need be: every page keeps its field until the search index is made.
                var joined: [UInt8] = []
                joined.reserveCapacity(size)
                var ends: [UInt32] = []
                ends.reserveCapacity(count)
                for number in numbers {
                    append(number, to: &joined)
                    ends.append(UInt32(joined.count))
                }
                guard try reader.count() == count else { throw .init() }
                var counts: [UInt32] = []
                counts.reserveCapacity(count)
                for _ in 0..<count {
                    guard let value = UInt32(exactly: try reader.int()) else { throw .init() }
                    counts.append(value)
                }
                return SearchTerms(joined: joined, ends: ends, counts: counts, length: try reader.int())
            }
        }
    }

    /// Whether every location in the record is in its own file (what the compact layout assumes).
    static func canStore(_ record: PageRecord) -> Bool {
        let file = record.page.displayPath
        return record.references.allSatisfy { $0.location.file == file } && record.declaredTerms.allSatisfy { $0.location.file == file }
            && record.links.allSatisfy { $0.location.file == file } && record.page.metadata.locations.values.allSatisfy { $0.file == file }
    }

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

    static func write(_ signature: FileSignature?, _ writer: inout BinaryWriter) {
        writer.write(signature != nil)
        if let signature { write(signature, &writer) }
    }

    static func optionalSignature(_ reader: inout BinaryReader) throws(BinaryReader.Damaged) -> FileSignature? {
        try reader.bool() ? try signature(&reader) : nil
    }

    static func write(_ record: PageRecord, _ writer: inout BinaryWriter, terms: inout SearchTermTable.Writing) {
        let page = record.page
        writer.write(page.kind == .glossaryEntry)
        writer.write(page.displayPath)
        writer.write(page.contentPath)
        write(page.metadata, &writer)
        write(record.references, &writer)
        write(record.declaredTerms, &writer)
        writer.write(UInt64(record.links.count))
        for link in record.links {
            writer.write(link.destination)
            writer.write(link.isImage)
            writer.write(link.location.line)
            writer.write(link.location.column)
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
        writer.write(UInt64(record.searchText.count))
        record.searchText.forEachTerm { term, _ in terms.write(bytes: term, &writer) }
        writer.write(UInt64(record.searchText.count))
        record.searchText.forEachTerm { _, count in writer.write(count) }
        writer.write(record.searchText.length)
        writer.write(record.summaryHTML)
        writer.write(record.autolink != nil)
        writer.write(record.autolink ?? .zero)
        writer.write(record.contentHash)
        writer.write(record.hasBody)
    }

    static func record(_ reader: inout BinaryReader, terms table: inout SearchTermTable.Reading) throws(BinaryReader.Damaged) -> PageRecord {
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
            links.append(
                MarkdownLink(
                    destination: destination, isImage: isImage, location: SourceLocation(file: displayPath, line: try reader.int(), column: try reader.int())))
        }
        let firstHeading = try reader.optionalString()
        let startsWithTitleHeading = try reader.bool()
        let firstParagraph = try reader.optionalString()
        var headings: [PageHeading] = []
        for _ in 0..<(try reader.count()) {
            headings.append(PageHeading(level: try reader.int(), text: try reader.string(), id: try reader.string()))
        }
        let searchText = try table.field(&reader)
        let summaryHTML = try reader.optionalString()
        let autolinked = try reader.bool()
        let autolink = try reader.fingerprint()
        return PageRecord(
            page: page, references: references, declaredTerms: declared, links: links, firstHeading: firstHeading,
            startsWithTitleHeading: startsWithTitleHeading, firstParagraph: firstParagraph, summaryHTML: summaryHTML,
            autolink: autolinked ? autolink : nil, headings: headings, searchText: searchText,
            diagnostics: [], contentHash: try reader.fingerprint(), hasBody: try reader.bool())
    }

    static func write(_ references: [TermReference], _ writer: inout BinaryWriter) {
        writer.write(UInt64(references.count))
        for reference in references {
            writer.write(reference.shown)
            writer.write(reference.word)
            writer.write(reference.key.rawValue)
            writer.write(reference.key.slug)
            writer.write(reference.location.line)
            writer.write(reference.location.column)
            writer.write(reference.isAutomatic)
        }
    }

    static func references(_ reader: inout BinaryReader, file: String) throws(BinaryReader.Damaged) -> [TermReference] {
        var references: [TermReference] = []
        let count = try reader.count()
        references.reserveCapacity(count)
        for _ in 0..<count {
            let shown = try reader.string()
            let word = try reader.string()
            let key = TermKey(canonical: try reader.string(), slug: try reader.string())
            let location = SourceLocation(file: file, line: try reader.int(), column: try reader.int())
            references.append(TermReference(shown: shown, word: word, key: key, location: location, isAutomatic: try reader.bool()))
        }
        return references
    }

    static func write(_ metadata: PageMetadata, _ writer: inout BinaryWriter) {
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
        writer.write(UInt64(metadata.locations.count))
        for (key, location) in metadata.locations.sorted(by: { $0.key < $1.key }) {
            writer.write(key)
            writer.write(location.line)
            writer.write(location.column)
        }
    }

    static func metadata(_ reader: inout BinaryReader, file: String) throws(BinaryReader.Damaged) -> PageMetadata {
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
        for _ in 0..<(try reader.count()) {
            let key = try reader.string()
            metadata.locations[key] = SourceLocation(file: file, line: try reader.int(), column: try reader.int())
        }
        return metadata
    }
}
