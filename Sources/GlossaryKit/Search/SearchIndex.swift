import Foundation

/// The site search's index, written as files the browser fetches a few at a time: lunr 2.3.9's inverted index,
/// cut in pieces, so a query downloads the vocabulary and the postings of its own terms, not the whole site.
///
/// - `search/index.json`: the vocabulary (sorted as JavaScript sorts strings), each term's document count as
///   `lunr.idf` counts it (once per field it occurs in), every document's field lengths, the average lengths,
///   the fields and their boosts, and where each shard's terms begin.
/// - `search/shards/N.json`: the postings of a run of consecutive terms (a prefix search reads few shards):
///   per term and field, the documents and term frequencies.
/// - `search/docs/N.json`: what results show of `chunkSize` documents each (title, URL, trail, summary,
///   headings), fetched only for the results shown.
///
/// The browser (`assets/js/search.js`) builds a `lunr.Index` from the postings it fetched, with weights it
/// computes exactly as `lunr.Builder` does, so results and scores are lunr's for the same documents. Numbers
/// in postings and lengths are base-64 variable-length integers (see `encode`), which keeps the files small.
public struct SearchIndex: Sendable {
    public static let fields = ["title", "headings", "text"]
    public static let boosts = [10, 5, 1]
    public static let chunkSize = 50
    /// The format the browser script reads; bumped with any change to the files.
    public static let version = 1

    /// How many shards the postings are cut into, from the number of documents (known before the index is made,
    /// so the output paths are planned without making it).
    public static func shardCount(documents: Int) -> Int {
        min(256, max(1, (documents + 49) / 50))
    }

    public static func chunkCount(documents: Int) -> Int {
        max(1, (documents + chunkSize - 1) / chunkSize)
    }

    /// Every file's path below the site root, for `documents` documents of the language whose pages are in `folder`
    /// (`fr/`; empty for the default language's at the root).
    public static func paths(documents: Int, folder: String = "") -> [String] {
        [folder + "search/index.json"] + (0..<shardCount(documents: documents)).map { folder + "search/shards/\($0).json" }
            + (0..<chunkCount(documents: documents)).map { folder + "search/docs/\($0).json" }
    }

    /// The files by path.
    public let files: [String: String]

    /// The index of `documents`, its files in `folder` (see `paths`), made on `jobs` threads (the documents in as many
    /// runs, merged).
    public init(documents: [SearchDocument], folder: String = "", jobs: Int = 1) {
        // Each run counts its documents' terms alone. The runs are not merged into one table of postings: a term's
        // postings are read run after run, in order, as they are encoded, so every posting list is in document
        // order and the files are those one run would give (terms are written sorted, not by id).
        let runs = Self.runs(documents.count, jobs: jobs)
        let parts = runs.parallelMap(jobs: jobs) { Part(documents, $0) }
        var termIDs = parts[0].ids
        // Per run, each term's id in that run (−1 where the run doesn't have it), by the term's id in the index.
        var localIDs: [[Int32]] = [Array(0..<Int32(parts[0].ids.count))]
        var lengths = parts[0].lengths
        for part in parts.dropFirst() {
            var local = [Int32](repeating: -1, count: termIDs.count + part.ids.count)
            for (id, term) in part.ids.strings.enumerated() {
                let global = termIDs.id(term).id
                if global >= local.count { local += [Int32](repeating: -1, count: global + 1 - local.count) }
                local[global] = Int32(id)
            }
            localIDs.append(local)
            for field in 0..<Self.fields.count { lengths[field] += part.lengths[field] }
        }
        let terms = termIDs.strings
        let order = terms.indices.sorted { Self.precedesInUTF16(terms[$0], terms[$1]) }

        // Each term's postings, encoded field by field, and how many it has (lunr's document count of a term
        // counts each field it occurs in).
        let ids = localIDs
        let encodedTerms = Self.runs(order.count, jobs: jobs).parallelMap(jobs: jobs) { run in
            run.map { position -> (fields: [String], count: Int) in
                let term = order[position]
                var encoders = [PostingEncoder](repeating: PostingEncoder(), count: Self.fields.count)
                var count = 0
                for (part, local) in zip(parts, ids) where term < local.count && local[term] >= 0 {
                    Part.forEachPosting(part.postings[Int(local[term])]) { document, field, frequency in
                        encoders[field].add(document: document, frequency: frequency)
                        count += 1
                    }
                }
                return (encoders.map(\.encoded), count)
            }
        }.flatMap { $0 }
        let encoded = encodedTerms.map(\.fields)
        let ordered = order.map { terms[$0] }
        let shardCount = Self.shardCount(documents: documents.count)
        let starts = Self.shardStarts(
            weights: zip(order, encoded).map { id, fields in Self.weight(term: terms[id].utf8.count, postings: fields.reduce(0) { $0 + $1.utf8.count }) },
            shards: shardCount)

        var files: [String: String] = [:]
        for shard in 0..<shardCount {
            let range = starts[shard]..<(shard + 1 < shardCount ? starts[shard + 1] : order.count)
            var json = Self.shardHead
            for position in range {
                if position > range.lowerBound { json += "," }
                json += Self.shardEntry(JSONWriter.quoted(ordered[position]), encoded[position])
            }
            json += Self.shardTail
            files[folder + "search/shards/\(shard).json"] = json
        }

        let manifest = Self.manifest(
            documents: documents.count, averages: lengths.map { Self.average($0.reduce(0, +), documents: documents.count) },
            lengths: lengths.map { Self.encode(numbers: $0) }, starts: starts, df: Self.encode(numbers: encodedTerms.map(\.count)))
        files[folder + "search/index.json"] = manifest.before + ordered.map { JSONWriter.quoted($0) }.joined(separator: ",") + manifest.after

        for chunk in 0..<Self.chunkCount(documents: documents.count) {
            let range = chunk * Self.chunkSize..<min(documents.count, (chunk + 1) * Self.chunkSize)
            let entries = documents[range].map { document -> String in
                var entry = "[\(document.kind.rawValue)," + JSONWriter.quoted(document.title) + "," + JSONWriter.quoted(document.urlPath)
                entry += "," + JSONWriter.quoted(document.trail) + "," + (document.summary.map { JSONWriter.quoted($0) } ?? "null") + ",["
                entry += document.headings.map { "[" + JSONWriter.quoted($0.text) + "," + JSONWriter.quoted($0.id) + "]" }.joined(separator: ",")
                return entry + "]]"
            }
            files[folder + "search/docs/\(chunk).json"] = "[" + entries.joined(separator: ",\n") + "]\n"
        }
        self.files = files
    }

    /// What one run of documents holds: its terms, their postings and the fields' lengths. A term's postings are
    /// bytes (a site has millions of postings): for each, in document order, a variable-length number of the
    /// document's distance from the term's previous one × 4 + the field, then one of the frequency.
    fileprivate struct Part: @unchecked Sendable {
        var ids = TermIDs(capacity: 1 << 13)
        var postings: [[UInt8]] = []
        /// Each term's last document.
        private var last: [Int] = []
        var lengths = [[Int]](repeating: [], count: SearchIndex.fields.count)

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
            lengths[fieldIndex].append(field.length)
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

    /// Where each of `shards` shards begins, for terms of these weights in the files' order: shard `n` at the first
    /// term whose predecessors weigh `n / shards` of the total or more, so shards weigh about the same. The index
    /// and its patch (`patched(document:text:files:)`) both cut here.
    static func shardStarts(weights: [Int], shards: Int) -> [Int] {
        let total = max(1, weights.reduce(0, +))
        var starts: [Int] = []
        starts.reserveCapacity(shards)
        var accumulated = 0
        for (position, weight) in weights.enumerated() {
            while starts.count < shards && accumulated >= total * starts.count / shards { starts.append(position) }
            accumulated += weight
        }
        while starts.count < shards { starts.append(weights.count) }
        return starts
    }

    /// What a term weighs when shards are cut: about its entry's bytes, from its UTF-8 length and its fields'
    /// encoded postings' (the quotes and punctuation counted as 8).
    static func weight(term: Int, postings: Int) -> Int {
        term + 8 + postings
    }

    /// What a shard's entries stand between.
    static let shardHead = "{\"terms\":{"
    static let shardTail = "}}\n"

    /// A term's entry in a shard, from its quoted form and its fields' encoded postings.
    static func shardEntry(_ quoted: String, _ fields: [String]) -> String {
        quoted + ":[" + fields.map { "\"" + $0 + "\"" }.joined(separator: ",") + "]"
    }

    /// `search/index.json` from its parts as written, around its list of terms: the file is `before`, the quoted
    /// terms with commas between them, then `after`. The patch (`patched(document:text:files:)`) writes it with
    /// this too, and trusts a manifest only if this gives back what it read around the terms.
    static func manifest(documents: Int, averages: [String], lengths: [String], starts: [Int], df: String) -> (before: String, after: String) {
        var manifest = "{\"version\":\(version),\"fields\":[\"title\",\"headings\",\"text\"],\"boosts\":[10,5,1]"
        manifest += ",\"documents\":\(documents),\"chunk\":\(chunkSize)"
        manifest += ",\"average\":[" + averages.joined(separator: ",") + "]"
        manifest += ",\"lengths\":[" + lengths.map { "\"" + $0 + "\"" }.joined(separator: ",") + "]"
        manifest += ",\"shards\":[" + starts.map(String.init).joined(separator: ",") + "]"
        manifest += ",\"df\":\"" + df + "\""
        return (manifest + ",\"terms\":[", "]}\n")
    }

    /// A field's average length over `documents` documents of `total` terms in all, as the manifest writes it.
    static func average(_ total: Int, documents: Int) -> String {
        number(Double(total) / Double(max(1, documents)))
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

    /// A field's postings: for each document in order, `(gap − 1) × 2 + (1 if its frequency is above 1)`, then
    /// the frequency when above 1, where the gap is the distance from the previous document (from −1 for the
    /// first). Most postings of common terms take one character.
    static func encode(_ postings: [(Int, Int)]) -> String {
        var encoder = PostingEncoder()
        for (document, frequency) in postings { encoder.add(document: document, frequency: frequency) }
        return encoder.encoded
    }

    /// `encode(_:)`, a posting at a time.
    struct PostingEncoder {
        private(set) var bytes: [UInt8] = []
        private var previous = -1

        mutating func add(document: Int, frequency: Int) {
            SearchIndex.append(gap: document - previous, frequency: frequency, to: &bytes)
            previous = document
        }

        var encoded: String { String(decoding: bytes, as: UTF8.self) }
    }

    /// One posting as `encode(_:)` writes it, `gap` documents after the previous one.
    static func append(gap: Int, frequency: Int, to bytes: inout [UInt8]) {
        append(number: (gap - 1) * 2 + (frequency > 1 ? 1 : 0), to: &bytes)
        if frequency > 1 { append(number: frequency, to: &bytes) }
    }

    static let digits = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Non-negative integers, each as base-64 characters of 5 bits, least significant first; the 6th bit of
    /// a character says another one follows.
    static func encode(numbers: [Int]) -> String {
        // Written in place, counted first (an append checks the array's storage is its own: a call a digit).
        let count = numbers.reduce(0) { count, number in
            var digits = 0
            forEachDigit(of: number) { _ in digits += 1 }
            return count + digits
        }
        return String(unsafeUninitializedCapacity: count) { bytes in
            var at = 0
            for number in numbers {
                forEachDigit(of: number) { digit in
                    bytes[at] = digit
                    at += 1
                }
            }
            return at
        }
    }

    /// One number as `encode(numbers:)` writes it.
    static func append(number: Int, to bytes: inout [UInt8]) {
        forEachDigit(of: number) { bytes.append($0) }
    }

    /// The digits of a number as `encode(numbers:)` writes them, in order.
    @inline(__always)
    private static func forEachDigit(of number: Int, _ body: (UInt8) -> Void) {
        var value = max(0, number)
        repeat {
            let low = value & 31
            value >>= 5
            body(digits[low | (value > 0 ? 32 : 0)])
        } while value > 0
    }

    /// A number as JavaScript would read it back exactly (Swift's shortest round-tripping form).
    static func number(_ value: Double) -> String {
        value.isFinite ? "\(value)" : "0"
    }
}
