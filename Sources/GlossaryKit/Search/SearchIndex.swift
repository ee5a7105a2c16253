import Foundation

/// The site search's index, written as files the browser fetches a few at a time: an inverted index cut by terms, so a
/// query downloads its own terms' postings and the results it shows, whatever the site's size.
///
/// - `search/index.json`, the manifest: the document count, each field's total length (its average is that over the
///   documents), the fields and their boosts, and each shard's first term and file, in the terms' order.
/// - `search/shards/<file>.json`: a run of consecutive terms (JavaScript's string order), each with its postings per
///   field: for every document holding it, in order, the term's frequency and the field's length level (`level`).
/// - `search/docs/N.json`: what results show of `chunkSize` documents each (title, URL, trail, summary, headings),
///   fetched only for the results shown.
///
/// The browser (`assets/js/search-engine.js`) scores with BM25 from these alone: a term's document count is its
/// postings', a length level stands for a length (`level`), the averages come from the manifest. So nothing a
/// term's entry holds depends on other terms or documents: an edit changes the entries of the terms it touches, and
/// the manifest. Shards are cut where the terms themselves say (`startsSegment`), so those entries' shards are the
/// only ones that change (`patched(document:old:new:folder:files:)`). Numbers are base-64 variable-length integers
/// (`encode(numbers:)`).
public struct SearchIndex: Sendable {
    public static let fields = ["title", "headings", "text"]
    public static let boosts = [10, 5, 1]
    public static let chunkSize = 50
    /// The format the browser script reads; bumped with any change to the files.
    public static let version = 2
    /// The size shards are cut to on average, and the most a shard of more than one term holds, in bytes.
    public struct ShardSizes: Sendable, Equatable {
        public var target: Int
        public var limit: Int

        public init(target: Int, limit: Int) {
            self.target = target
            self.limit = limit
        }

        public static let standard = ShardSizes(target: 24 * 1024, limit: 48 * 1024)
    }

    public static func chunkCount(documents: Int) -> Int {
        max(1, (documents + chunkSize - 1) / chunkSize)
    }

    /// The files by path.
    public let files: [String: String]

    /// The index of `documents`, its files in `folder` (`fr/`; empty for the default language's at the root), its shards
    /// cut to `sizes`, made on `jobs` threads (the documents in as many runs, merged).
    public init(documents: [SearchDocument], folder: String = "", sizes: ShardSizes = .standard, jobs: Int = 1) {
        // Each run counts its documents' terms alone. The runs are not merged into one table of postings: a term's
        // postings are read run after run, in order, as they are encoded, so every posting list is in document
        // order and the files are those one run would give (terms are written sorted, not by id).
        let runs = Self.runs(documents.count, jobs: jobs)
        let parts = runs.parallelMap(jobs: jobs) { Part(documents, $0) }
        var termIDs = parts[0].ids
        // Per run, each term's id in that run (−1 where the run doesn't have it), by the term's id in the index.
        var localIDs: [[Int32]] = [Array(0..<Int32(parts[0].ids.count))]
        var levels = parts[0].levels
        for part in parts.dropFirst() {
            var local = [Int32](repeating: -1, count: termIDs.count + part.ids.count)
            for (id, term) in part.ids.strings.enumerated() {
                let global = termIDs.id(term).id
                if global >= local.count { local += [Int32](repeating: -1, count: global + 1 - local.count) }
                local[global] = Int32(id)
            }
            localIDs.append(local)
            for field in 0..<Self.fields.count { levels[field] += part.levels[field] }
        }
        let terms = termIDs.strings
        let order = terms.indices.sorted { Self.precedesInUTF16(terms[$0], terms[$1]) }

        // Each term's entry, its postings encoded field by field.
        let ids = localIDs
        let allLevels = levels
        let entries = Self.runs(order.count, jobs: jobs).parallelMap(jobs: jobs) { run in
            run.map { position -> String in
                let term = order[position]
                var encoders = [PostingEncoder](repeating: PostingEncoder(), count: Self.fields.count)
                for (part, local) in zip(parts, ids) where term < local.count && local[term] >= 0 {
                    Part.forEachPosting(part.postings[Int(local[term])]) { document, field, frequency in
                        encoders[field].add(document: document, frequency: frequency, level: Int(allLevels[field][document]))
                    }
                }
                return Self.entry(terms[term], encoders.map(\.encoded))
            }
        }.flatMap { $0 }
        let sorted = order.map { terms[$0] }
        var files: [String: String] = [:]
        let shards = Self.shards(terms: sorted, entries: entries, sizes: sizes)
        for shard in shards.shards { files[folder + "search/shards/" + shard.file + ".json"] = shard.json }
        let totals = parts.reduce(into: [Int](repeating: 0, count: Self.fields.count)) { totals, part in
            for field in totals.indices { totals[field] += part.totals[field] }
        }
        files[folder + "search/index.json"] = Self.manifest(
            documents: documents.count, lengths: totals, layout: shards.layout, shards: shards.shards.map { ($0.first, $0.file) })

        let chunks = Array(0..<Self.chunkCount(documents: documents.count)).parallelMap(jobs: jobs) { chunk in
            let range = chunk * Self.chunkSize..<min(documents.count, (chunk + 1) * Self.chunkSize)
            let entries = documents[range].map { document -> String in
                var entry = "[\(document.kind.rawValue)," + JSONWriter.quoted(document.title) + "," + JSONWriter.quoted(document.urlPath)
                entry += "," + JSONWriter.quoted(document.trail) + "," + (document.summary.map { JSONWriter.quoted($0) } ?? "null") + ",["
                entry += document.headings.map { "[" + JSONWriter.quoted($0.text) + "," + JSONWriter.quoted($0.id) + "]" }.joined(separator: ",")
                return entry + "]]"
            }
            return "[" + entries.joined(separator: ",\n") + "]\n"
        }
        for (chunk, json) in chunks.enumerated() { files[folder + "search/docs/\(chunk).json"] = json }
        self.files = files
    }

    /// What one run of documents holds: its terms, their postings, each field's length level per document and total
    /// length. A term's postings are bytes (a site has millions of postings): for each, in document order, a
    /// variable-length number of the document's distance from the term's previous one × 4 + the field, then one of
    /// the frequency.
    fileprivate struct Part: @unchecked Sendable {
        var ids = TermIDs(capacity: 1 << 13)
        var postings: [[UInt8]] = []
        /// Each term's last document.
        private var last: [Int] = []
        var levels = [[UInt8]](repeating: [], count: SearchIndex.fields.count)
        var totals = [Int](repeating: 0, count: SearchIndex.fields.count)

        init(_ documents: [SearchDocument], _ range: Range<Int>) {
            for index in range {
                let document = documents[index]
                add(SearchTerms(text: document.title), 0, index)
                add(SearchTerms(text: document.headingsText), 1, index)
                add(document.text, 2, index)
            }
        }

        /// A field's terms, for a document after every one added before.
        private mutating func add(_ field: SearchTerms, _ fieldIndex: Int, _ document: Int) {
            levels[fieldIndex].append(UInt8(SearchIndex.level(field.length)))
            totals[fieldIndex] += field.length
            field.forEachTerm { term, count in
                let (id, isNew) = ids.id(bytes: term)
                if isNew {
                    postings.append([])
                    last.append(-1)
                }
                Self.append((document - last[id]) * 4 + fieldIndex, to: &postings[id])
                Self.append(count, to: &postings[id])
                last[id] = document
            }
        }

        private static func append(_ number: Int, to bytes: inout [UInt8]) {
            var rest = UInt(number)
            while rest >= 0x80 {
                bytes.append(UInt8(rest & 0x7F) | 0x80)
                rest >>= 7
            }
            bytes.append(UInt8(rest))
        }

        /// Each of a term's postings, in document order.
        static func forEachPosting(_ bytes: [UInt8], _ body: (_ document: Int, _ field: Int, _ frequency: Int) -> Void) {
            var index = 0
            func number() -> Int {
                var value = 0
                var shift = 0
                while true {
                    let byte = bytes[index]
                    index += 1
                    value |= Int(byte & 0x7F) << shift
                    if byte < 0x80 { return value }
                    shift += 7
                }
            }
            var document = -1
            while index < bytes.count {
                let step = number()
                document += step >> 2
                body(document, step & 3, number())
            }
        }
    }

    /// `count` items cut into at most `jobs` runs of about equal size (one run, possibly empty, at least).
    static func runs(_ count: Int, jobs: Int) -> [Range<Int>] {
        let parts = max(1, min(jobs, count / 500))
        return (0..<parts).map { count * $0 / parts..<count * ($0 + 1) / parts }
    }

    // MARK: Shards

    /// What the shards are cut by: the number of terms, their entries' total size (each with the comma after it) and,
    /// from those, the divisor a term's hash is checked against (`startsSegment`): a power of two near the number of
    /// terms in `target` bytes of entries, so it changes only when the entries' average size doubles or halves.
    struct Layout: Equatable {
        var terms: Int
        var size: Int
        var divisor: Int

        init(terms: Int, size: Int, target: Int) {
            self.terms = terms
            self.size = size
            let wanted = size > 0 ? terms * target / size : 1
            var divisor = 1
            while divisor * 2 <= wanted { divisor *= 2 }
            self.divisor = divisor
        }
    }

    /// A shard: its first term, its file's name (in `search/shards/`, without `.json`) and its bytes.
    struct Shard {
        var first: String
        var file: String
        var json: String

        init(entries: ArraySlice<String>, first: String) {
            self.first = first
            file = SearchIndex.fileName(first)
            json = "{\"terms\":[" + entries.joined(separator: ",") + "]}\n"
        }
    }

    /// The shards of `terms` (sorted) with their `entries`, and the layout they were cut by.
    static func shards(terms: [String], entries: [String], sizes: ShardSizes) -> (layout: Layout, shards: [Shard]) {
        let entrySizes = entries.map { $0.utf8.count + 1 }
        let layout = Layout(terms: terms.count, size: entrySizes.reduce(0, +), target: sizes.target)
        return (layout, shards(terms: terms[...], entries: entries[...], sizes: entrySizes[...], divisor: layout.divisor, limit: sizes.limit))
    }

    /// The shards of a run of terms that begins where a shard must (the first term, or one that starts a segment).
    static func shards(terms: ArraySlice<String>, entries: ArraySlice<String>, sizes: ArraySlice<Int>, divisor: Int, limit: Int) -> [Shard] {
        var starts: [Int] = []
        var size = 0
        for position in terms.indices {
            if position == terms.startIndex || startsSegment(terms[position], divisor: divisor) || size + sizes[position] > limit {
                starts.append(position)
                size = 0
            }
            size += sizes[position]
        }
        return starts.indices.map { number in
            let end = number + 1 < starts.count ? starts[number + 1] : terms.endIndex
            return Shard(entries: entries[starts[number]..<end], first: terms[starts[number]])
        }
    }

    /// Whether a shard begins at `term` whatever precedes it: shards are cut at terms whose hash the divisor divides
    /// so where they are cut depends on the terms
    /// near the cut alone, and an edit moves no cut but its own terms'. (Within such a segment, shards are cut when
    /// they outgrow the limit.)
    static func startsSegment(_ term: String, divisor: Int) -> Bool {
        hash(term) % UInt64(divisor) == 0
    }

    /// FNV-1a, 64 bits, of the term's UTF-8 bytes.
    static func hash(_ term: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in term.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }

    /// A shard's file name, from its first term: 16 hexadecimal digits of its hash.
    static func fileName(_ first: String) -> String {
        let digits = String(hash(first), radix: 16)
        return String(repeating: "0", count: 16 - digits.utf8.count) + digits
    }

    /// A term's entry in a shard: `["term","title postings","headings postings","text postings"]`.
    static func entry(_ term: String, _ fields: [String]) -> String {
        "[" + JSONWriter.quoted(term) + fields.map { ",\"" + $0 + "\"" }.joined() + "]"
    }

    /// `search/index.json`.
    static func manifest(documents: Int, lengths: [Int], layout: Layout, shards: [(first: String, file: String)]) -> String {
        var manifest = "{\"version\":\(version),\"fields\":[\"title\",\"headings\",\"text\"],\"boosts\":[10,5,1]"
        manifest += ",\"documents\":\(documents),\"chunk\":\(chunkSize)"
        manifest += ",\"lengths\":[" + lengths.map(String.init).joined(separator: ",") + "]"
        manifest += ",\"cut\":\(layout.divisor),\"size\":\(layout.size),\"terms\":\(layout.terms)"
        manifest += ",\"shards\":[" + shards.map { "[" + JSONWriter.quoted($0.first) + ",\"" + $0.file + "\"]" }.joined(separator: ",")
        return manifest + "]}\n"
    }

    // MARK: Numbers

    /// Where each length level from 8 up begins: level `8 + k` holds the lengths from `levelStarts[k]` to before
    /// `levelStarts[k + 1]`, ⌈8 × 1.25^k⌉. The browser reads level `L` as length `L` below 8, else as
    /// 8 × 1.25^(L − 7.5), the middle of its range, so a length is known within about 12%: enough for BM25, and an
    /// edit that changes a page's length by a few words seldom changes its level.
    static let levelStarts: [Int] = (0..<64).map { Int((8 * pow(1.25, Double($0))).rounded(.up)) }

    /// The level of a field's length (see `levelStarts`).
    static func level(_ length: Int) -> Int {
        guard length >= 8 else { return max(0, length) }
        var level = 8
        while level - 7 < levelStarts.count && length >= levelStarts[level - 7] { level += 1 }
        return level
    }

    /// Whether `a` sorts before `b` as JavaScript sorts strings, by UTF-16 code units, compared on their UTF-8
    /// bytes (no transcoding): the two orders agree, except that a character above U+FFFF (UTF-8 lead byte F0–F4)
    /// sorts before one of U+E000–U+FFFF (lead byte EE or EF) in UTF-16, whose surrogates come first.
    static func precedesInUTF16(_ a: String, _ b: String) -> Bool {
        var a = a
        var b = b
        return a.withUTF8 { left in b.withUTF8 { right in precedesInUTF16(left, right) } }
    }

    /// `precedesInUTF16(_:_:)` of two strings' UTF-8 bytes.
    static func precedesInUTF16(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
        let common = min(left.count, right.count)
        var index = 0
        while index < common && left[index] == right[index] { index += 1 }
        guard index < common else { return left.count < right.count }
        let (x, y) = (left[index], right[index])
        if x >= 0xF0 && (y == 0xEE || y == 0xEF) { return true }
        if y >= 0xF0 && (x == 0xEE || x == 0xEF) { return false }
        return x < y
    }

    /// One field's postings: for each document in order, `(gap − 1) × 2 + (1 if its frequency is above 1)`, then the
    /// frequency when above 1, then the field's length level in the document, where the gap is the distance from
    /// the previous document (from −1 for the first). Most postings take two characters.
    struct PostingEncoder {
        private(set) var bytes: [UInt8] = []
        private var previous: Int

        /// Postings that follow one of document `previous` (−1: the first).
        init(after previous: Int = -1) { self.previous = previous }

        mutating func add(document: Int, frequency: Int, level: Int) {
            SearchIndex.append(number: (document - previous - 1) * 2 + (frequency > 1 ? 1 : 0), to: &bytes)
            if frequency > 1 { SearchIndex.append(number: frequency, to: &bytes) }
            SearchIndex.append(number: level, to: &bytes)
            previous = document
        }

        var encoded: String { String(decoding: bytes, as: UTF8.self) }
    }

    /// A field's postings as `PostingEncoder` wrote them; nil if they aren't.
    static func postings(_ encoded: String) -> [Posting]? {
        var encoded = encoded
        return encoded.withUTF8 { bytes in
            var reader = PostingReader(bytes)
            var postings: [Posting] = []
            while !reader.isAtEnd {
                guard let posting = reader.next() else { return nil }
                postings.append(posting)
            }
            return postings
        }
    }

    /// `encoded` postings with `document`'s — there with frequency `old`, or not there when `old` is nil — replaced
    /// by `new` (taken out when nil), as `PostingEncoder` writes them; nil when they aren't such postings. The
    /// postings before and after are checked and copied as they are, but for the gap of the one right after.
    static func replacing(_ document: Int, old: Int?, with new: Posting?, in encoded: String) -> String? {
        var encoded = encoded
        return encoded.withUTF8 { bytes -> String? in
            var reader = PostingReader(bytes)
            var start = bytes.count
            var found: Posting?
            while !reader.isAtEnd {
                let place = reader.index
                guard let posting = reader.next() else { return nil }
                if posting.document >= document {
                    (start, found) = (place, posting)
                    break
                }
            }
            let previous = found == nil ? reader.previous : reader.before
            let had = found?.document == document
            guard had == (old != nil), !had || found?.frequency == old else { return nil }
            // The posting after `document`'s, whose gap changes with it.
            var after = had ? nil : found
            if had, !reader.isAtEnd {
                guard let next = reader.next() else { return nil }
                after = next
            }
            let rest = reader.index
            while !reader.isAtEnd {
                guard reader.next() != nil else { return nil }
            }
            var encoder = PostingEncoder(after: previous)
            for posting in [new, after].compactMap(\.self) { encoder.add(document: posting.document, frequency: posting.frequency, level: posting.level) }
            var out = [UInt8](UnsafeBufferPointer(rebasing: bytes[..<start]))
            out.reserveCapacity(bytes.count + encoder.bytes.count)
            out += encoder.bytes
            out += UnsafeBufferPointer(rebasing: bytes[rest...])
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// Reads postings as `PostingEncoder` writes them, one at a time.
    struct PostingReader {
        let bytes: UnsafeBufferPointer<UInt8>
        /// Where the next posting begins.
        private(set) var index = 0
        /// The document of the last posting read (−1 before the first), and of the one before it.
        private(set) var previous = -1
        private(set) var before = -1

        init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        var isAtEnd: Bool { index == bytes.count }

        /// The next posting; nil, somewhere in it, when it is not one.
        mutating func next() -> Posting? {
            guard let head = number() else { return nil }
            var frequency = 1
            if head % 2 == 1 {
                guard let written = number(), written > 1 else { return nil }
                frequency = written
            }
            guard let level = number() else { return nil }
            (before, previous) = (previous, previous + head / 2 + 1)
            return Posting(document: previous, frequency: frequency, level: level)
        }

        private mutating func number() -> Int? {
            var (value, shift) = (0, 0)
            while index < bytes.count {
                // No number written is 2⁴⁰ or more: a longer one isn't the index's.
                guard let digit = SearchIndex.digitValue(bytes[index]), shift < 40 else { return nil }
                index += 1
                value |= (digit & 31) << shift
                if digit & 32 == 0 { return value }
                shift += 5
            }
            return nil
        }
    }

    struct Posting: Equatable {
        var document: Int
        var frequency: Int
        var level: Int
    }

    static let digits = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Non-negative integers, each as base-64 characters of 5 bits, least significant first; the 6th bit of
    /// a character says another one follows.
    static func encode(numbers: [Int]) -> String {
        var bytes: [UInt8] = []
        for number in numbers { append(number: number, to: &bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func digitValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(byte - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(byte - UInt8(ascii: "a")) + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0")) + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }

    /// One number as `encode(numbers:)` writes it.
    static func append(number: Int, to bytes: inout [UInt8]) {
        var value = max(0, number)
        repeat {
            let low = value & 31
            value >>= 5
            bytes.append(digits[low | (value > 0 ? 32 : 0)])
        } while value > 0
    }
}
