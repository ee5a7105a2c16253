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

    /// Every file's path below the site root, for `documents` documents.
    public static func paths(documents: Int) -> [String] {
        ["search/index.json"] + (0..<shardCount(documents: documents)).map { "search/shards/\($0).json" }
            + (0..<chunkCount(documents: documents)).map { "search/docs/\($0).json" }
    }

    /// The files by path.
    public let files: [String: String]

    /// The counted runs of the last index made with a memo, kept for the next (the preview server's): a run
    /// whose documents index as they did is not counted again.
    public final class Memo: @unchecked Sendable {
        private let lock = NSLock()
        private var last: Last?
        /// How many runs the last index made with the memo took from it.
        private(set) var reused = 0

        public init() {}

        fileprivate var lastIndex: Last? { lock.withLock { last } }

        /// The last build's documents in order, pages first, with the record each page's was made from, made under the
        /// navigation of `navigation` (their trails).
        private var pages: (navigation: Fingerprint, records: [PageRecord], documents: [SearchDocument]) = (.zero, [], [])
        /// Definitions' text fields by their text (tokenizing 2,000 definitions was a fifth of the documents' cost),
        /// and the last build's in order with the entries each was made from.
        private var definitionFields: [String: SearchTerms] = [:]
        private var lastDefinitions: (entries: [[DictionaryEntry]], fields: [SearchTerms]) = ([], [])

        func pageDocuments(navigation: Fingerprint) -> (records: [PageRecord], documents: [SearchDocument]) {
            lock.withLock { pages.navigation == navigation ? (pages.records, pages.documents) : ([], []) }
        }

        func keep(records: [PageRecord], documents: [SearchDocument], navigation: Fingerprint) {
            lock.withLock { pages = (navigation, records, documents) }
        }

        /// The text fields of `definitions` (`text` makes one's text): the last build's at the same place while its
        /// entries are the same (the same values, compared by their storage first), else the one of the same text.
        func definitionFields(_ definitions: [TermDefinition], text: (TermDefinition) -> String) -> [SearchTerms] {
            let (last, known) = lock.withLock { (lastDefinitions, definitionFields) }
            var entries: [[DictionaryEntry]] = []
            entries.reserveCapacity(definitions.count)
            var changed: [(place: Int, text: String)] = []
            var fields = definitions.indices.map { place -> SearchTerms in
                entries.append(definitions[place].entries)
                if place < last.entries.count && last.entries[place] == definitions[place].entries { return last.fields[place] }
                changed.append((place, text(definitions[place])))
                return .empty
            }
            var byText = known
            if !changed.isEmpty {
                // Every text is needed to know which the memo keeps: each definition's text, by the field made of it.
                byText = [:]
                byText.reserveCapacity(definitions.count)
                var fresh: [Int: String] = [:]
                for (place, text) in changed { fresh[place] = text }
                for place in definitions.indices {
                    let text = fresh[place] ?? text(definitions[place])
                    if fresh[place] != nil { fields[place] = known[text] ?? byText[text] ?? SearchTerms(text: text) }
                    byText[text] = fields[place]
                }
            }
            lock.withLock {
                definitionFields = byText
                lastDefinitions = (entries, fields)
            }
            return fields
        }

        fileprivate func keep(_ index: Last, reused: Int) {
            let old = lock.withLock {
                defer {
                    last = index
                    self.reused = reused
                }
                return last
            }
            // Freeing the last index's hundreds of thousands of values is left to another core.
            DispatchQueue.global(qos: .utility).async { withExtendedLifetime(old) {} }
        }
    }

    /// What an index made with a memo leaves the next: its documents, its runs' counts, every term's encoded
    /// postings in the files' order, and the files of shards and documents. The next index takes a run whose
    /// documents are the same, a term's postings when no run counted again changed them, and a file when what
    /// it shows is the same.
    fileprivate struct Last {
        var documents: [SearchDocument]
        var parts: [Range<Int>: Part]
        /// The vocabulary by id, and its order as the files list it (ids sorted).
        var byID: [String]
        var order: [Int]
        /// The vocabulary in the files' order, each term's postings as encoded, and each term's place in the order.
        var terms: [String]
        var encoded: [(fields: [String], count: Int)]
        var places: TermIDs
        var starts: [Int]
        var shards: [String]
        var chunks: [String]
        /// The manifest's list of terms, as JSON (the quoted terms, without the brackets).
        var termsJSON: String
    }

    /// How many documents a run holds when the index is made with a memo: one edit counts one run again.
    static let memoRun = 250

    /// The index of `documents`, made on `jobs` threads (the documents in as many runs, merged). With a `memo`,
    /// the documents are cut in runs of `memoRun`, and a run the memo holds with the same documents is reused.
    public init(documents: [SearchDocument], jobs: Int = 1, memo: Memo? = nil) {
        // Each run counts its documents' terms alone. The runs are not merged into one table of postings: a term's
        // postings are read run after run, in order, as they are encoded, so every posting list is in document
        // order and the files are those one run would give (terms are written sorted, not by id).
        let runs =
            memo == nil
            ? Self.runs(documents.count, jobs: jobs)
            : stride(from: 0, to: max(1, documents.count), by: Self.memoRun).map { $0..<min(documents.count, $0 + Self.memoRun) }
        let last = memo?.lastIndex
        // Which documents are the last index's (most of them the same values, compared by their storage first).
        let same =
            last.map { last in
                documents.withUnsafeBufferPointer { now in
                    last.documents.withUnsafeBufferPointer { then in now.indices.map { $0 < then.count && now[$0] == then[$0] } }
                }
            } ?? []
        let parts: [Part]
        var counted: [Int] = []
        var reused = 0
        if memo != nil {
            let threads = max(1, min(jobs, runs.count))
            let made = Self.inParallel(threads) { thread in
                stride(from: thread, to: runs.count, by: threads).map { run in
                    if let known = last?.parts[runs[run]], runs[run].allSatisfy({ same[$0] }) { return (run: run, part: known, reused: true) }
                    return (run: run, part: Part(documents, runs[run]), reused: false)
                }
            }.flatMap { $0 }.sorted { $0.run < $1.run }
            parts = made.map(\.part)
            counted = made.filter { !$0.reused }.map(\.run)
            reused = made.count - counted.count
        } else {
            parts = Self.inParallel(runs.count) { Part(documents, runs[$0]) }
        }
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
        // The last index's order while the vocabulary is the same, in the same order of first sight; else its order of
        // the terms it had, with the new ones sorted and merged in.
        let order =
            last.map { last in last.byID == terms ? last.order : Self.order(terms, after: last) }
            ?? terms.indices.sorted { Self.precedesInUTF16(terms[$0], terms[$1]) }

        // Each term's postings, encoded field by field, and how many it has (lunr's document count of a term
        // counts each field it occurs in).
        func postings(_ term: Int) -> (fields: [String], count: Int) {
            var encoders = [PostingEncoder](repeating: PostingEncoder(), count: Self.fields.count)
            var count = 0
            for (part, local) in zip(parts, localIDs) where term < local.count && local[term] >= 0 {
                Part.forEachPosting(part.postings[Int(local[term])]) { document, field, frequency in
                    encoders[field].add(document: document, frequency: frequency)
                    count += 1
                }
            }
            return (encoders.map(\.encoded), count)
        }
        // With a last index: the terms whose postings may differ from its (those of a run counted again, where that
        // run's postings of it differ from the last ones; all of a run it had and this index doesn't). Every other
        // term's postings are the last index's, encoded.
        let changed = last.map { Self.changedTerms(last: $0, parts: parts, runs: runs, counted: counted) }
        let encodeRuns = Self.runs(order.count, jobs: jobs)
        let encodedTerms = Self.inParallel(encodeRuns.count) { run in
            encodeRuns[run].map { position -> (fields: [String], count: Int) in
                let term = terms[order[position]]
                if let last, let changed, changed.lookUp(term) == nil, let place = last.places.lookUp(term) { return last.encoded[place] }
                return postings(order[position])
            }
        }.flatMap { $0 }
        let encoded = encodedTerms.map(\.fields)
        let ordered = order.map { terms[$0] }
        let shardCount = Self.shardCount(documents: documents.count)
        let starts = Self.shardStarts(
            weights: zip(order, encoded).map { id, fields in Self.weight(term: terms[id].utf8.count, postings: fields.reduce(0) { $0 + $1.utf8.count }) },
            shards: shardCount)

        var files: [String: String] = [:]
        var shards: [String] = []
        for shard in 0..<shardCount {
            let range = starts[shard]..<(shard + 1 < shardCount ? starts[shard + 1] : order.count)
            // A shard of the same terms, none of their postings changed, is the last one.
            if let last, let changed, shard < last.shards.count {
                let lastRange = last.starts[shard]..<(shard + 1 < last.starts.count ? last.starts[shard + 1] : last.terms.count)
                if lastRange.count == range.count
                    && zip(range, lastRange).allSatisfy({ ordered[$0] == last.terms[$1] && changed.lookUp(ordered[$0]) == nil })
                {
                    shards.append(last.shards[shard])
                    files["search/shards/\(shard).json"] = last.shards[shard]
                    continue
                }
            }
            var json = Self.shardHead
            for position in range {
                if position > range.lowerBound { json += "," }
                json += Self.shardEntry(JSONWriter.quoted(ordered[position]), encoded[position])
            }
            json += Self.shardTail
            shards.append(json)
            files["search/shards/\(shard).json"] = json
        }

        let termsJSON = last.flatMap { $0.terms == ordered ? $0.termsJSON : nil } ?? ordered.map { JSONWriter.quoted($0) }.joined(separator: ",")
        let manifest = Self.manifest(
            documents: documents.count, averages: lengths.map { Self.average($0.reduce(0, +), documents: documents.count) },
            lengths: lengths.map { Self.encode(numbers: $0) }, starts: starts, df: Self.encode(numbers: encodedTerms.map(\.count)))
        files["search/index.json"] = manifest.before + termsJSON + manifest.after

        var chunks: [String] = []
        for chunk in 0..<Self.chunkCount(documents: documents.count) {
            let range = chunk * Self.chunkSize..<min(documents.count, (chunk + 1) * Self.chunkSize)
            // A chunk of the same documents is the last one.
            if let last, chunk < last.chunks.count, range.upperBound == min(last.documents.count, (chunk + 1) * Self.chunkSize),
                range.allSatisfy({ same[$0] })
            {
                chunks.append(last.chunks[chunk])
                files["search/docs/\(chunk).json"] = last.chunks[chunk]
                continue
            }
            let slice = documents[range]
            let entries = slice.map { document -> String in
                var entry = "[\(document.kind.rawValue)," + JSONWriter.quoted(document.title) + "," + JSONWriter.quoted(document.urlPath)
                entry += "," + JSONWriter.quoted(document.trail) + "," + (document.summary.map { JSONWriter.quoted($0) } ?? "null") + ",["
                entry += document.headings.map { "[" + JSONWriter.quoted($0.text) + "," + JSONWriter.quoted($0.id) + "]" }.joined(separator: ",")
                return entry + "]]"
            }
            let json = "[" + entries.joined(separator: ",\n") + "]\n"
            chunks.append(json)
            files["search/docs/\(chunk).json"] = json
        }
        self.files = files
        memo?.keep(
            Last(
                documents: documents, parts: Dictionary(uniqueKeysWithValues: zip(runs, parts)), byID: terms, order: order, terms: ordered,
                encoded: encodedTerms,
                places: TermIDs(ordered), starts: starts, shards: shards, chunks: chunks, termsJSON: termsJSON),
            reused: reused)
    }

    /// The ids of `terms` in the files' order, from the last index's order: the terms it had stay in its order, and
    /// the others, sorted, are merged in (a few terms sorted, not the vocabulary).
    private static func order(_ terms: [String], after last: Last) -> [Int] {
        var places = [Int](repeating: -1, count: last.terms.count)
        var fresh: [Int] = []
        for (id, term) in terms.enumerated() {
            if let place = last.places.lookUp(term) { places[place] = id } else { fresh.append(id) }
        }
        fresh.sort { precedesInUTF16(terms[$0], terms[$1]) }
        var order: [Int] = []
        order.reserveCapacity(terms.count)
        var next = 0
        for id in places where id >= 0 {
            while next < fresh.count && precedesInUTF16(terms[fresh[next]], terms[id]) {
                order.append(fresh[next])
                next += 1
            }
            order.append(id)
        }
        order += fresh[next...]
        return order
    }

    /// The terms whose postings in `parts` may differ from the last index's: in each run counted again, those whose
    /// postings there are not the ones the last index's run of the same documents had (or that only one of the two
    /// has); and every term of a run the last index had and this one doesn't.
    private static func changedTerms(last: Last, parts: [Part], runs: [Range<Int>], counted: [Int]) -> TermIDs {
        var changed = TermIDs(capacity: 64, strings: false)
        func add(_ term: String) { _ = changed.id(term) }
        for run in counted {
            let part = parts[run]
            guard let old = last.parts[runs[run]] else {
                part.ids.strings.forEach(add)
                continue
            }
            for (id, term) in part.ids.strings.enumerated() {
                if let oldID = old.ids.lookUp(term), old.postings[oldID] == part.postings[id] { continue }
                add(term)
            }
            for term in old.ids.strings where part.ids.lookUp(term) == nil { add(term) }
        }
        let ranges = Set(runs)
        for (range, old) in last.parts where !ranges.contains(range) { old.ids.strings.forEach(add) }
        return changed
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

    /// `body` of 0..<count, each on a thread of its own but the first (which runs here). Threads, not Dispatch:
    /// the index is made inside the render's `concurrentPerform`, where a nested one would run serially.
    static func inParallel<T>(_ count: Int, _ body: @escaping (Int) -> T) -> [T] {
        guard count > 1 else { return [body(0)] }
        let results = UnsafeMutableBufferPointer<T?>.allocate(capacity: count)
        results.initialize(repeating: nil)
        defer {
            results.deinitialize()
            results.deallocate()
        }
        // Each thread writes its own slot, and the semaphore orders those writes before the reads below.
        nonisolated(unsafe) let slots = results
        nonisolated(unsafe) let work = body
        let done = DispatchSemaphore(value: 0)
        for index in 1..<count {
            Thread {
                slots[index] = work(index)
                done.signal()
            }.start()
        }
        slots[0] = body(0)
        for _ in 1..<count { done.wait() }
        return results.map { $0! }
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
