import Foundation

extension SearchIndex {
    /// The index files in `folder` after the text field of document `document` becomes `text` (its title and headings
    /// fields, and every other document, unchanged), made from the current files alone: only the files whose
    /// bytes change are returned, by path. Laid over the current files, they are the files `init(documents:)`
    /// makes of the documents after the change. Nil when the files can't be read or are not an index of this
    /// version (`version`), or `document` is out of range — the caller then makes the index from its documents.
    ///
    /// A build after one page's text was edited has neither the other documents nor the page's old text in
    /// memory: the old text is read back from the postings (every term whose text field lists the document), and
    /// only what the change touches is made again — the text-field postings of the terms the document had or
    /// has, cut and joined where it stands, their document counts, the text field's lengths and average, the
    /// vocabulary where a term comes or goes, and the shard starts (which every term's weight moves). Every
    /// other term's entry and quoted form, and the other fields' lengths and averages, are the old bytes.
    ///
    /// The files are checked as they are read: each file's layout, the shards holding the manifest's terms in
    /// its order, that order, and the averages and shard starts the lengths and entries give. A damaged or
    /// foreign index gives nil, not a wrong patch (postings damaged into other valid digits are not seen).
    public static func patched(document: Int, text: SearchTerms, folder: String = "", files: (String) -> Data?) -> [String: Data]? {
        // Read and written by their paths in `folder` (a language's, `fr/`), the files are those of `paths(documents:)`.
        withoutActuallyEscaping(files) { files in
            let read = { (path: String) in files(folder + path) }
            guard let data = read("search/index.json"), let manifest = ReadManifest.read(data), (0..<manifest.documents).contains(document),
                let field = NewField(text, vocabulary: manifest),
                let shards = ReadShards.read(manifest, document: document, wanted: field.wanted, files: read),
                let changed = changedFiles(manifest, shards, field, document: document)
            else { return nil }
            return Dictionary(uniqueKeysWithValues: changed.map { (folder + $0.key, $0.value) })
        }
    }

    /// The files whose bytes the patch changes (see `patched(document:text:files:)`).
    private static func changedFiles(_ manifest: ReadManifest, _ shards: ReadShards, _ field: NewField, document: Int) -> [String: Data]? {
        let termCount = manifest.quoted.count
        // The new text fields of the terms whose postings change, then those of the new terms, one after another.
        var postings: [UInt8] = []
        var changes: [(text: Range<Int>, removed: Bool, df: Int)] = []
        var changeOf = [Int32](repeating: -1, count: termCount)
        let ok = shards.bytes.withUnsafeBufferPointer { bytes in
            digitValues.withUnsafeBufferPointer { values in
                for stop in shards.stops {
                    let (old, new) = (stop.frequency, field.known[stop.term])
                    if old == new { continue }
                    let start = postings.count
                    var cursor = Cursor(bytes, values, at: stop.at, end: shards.entries[stop.term].text.upperBound)
                    guard cursor.splice(from: shards.entries[stop.term].text.lowerBound, previous: stop.previous, document, old, new, into: &postings)
                    else { return false }
                    let text = start..<postings.count
                    let removed = text.isEmpty && shards.entries[stop.term].other == 0
                    let df = manifest.df[stop.term] + (new == nil ? 0 : 1) - (old == nil ? 0 : 1)
                    // A term whose count disagrees with its postings: not an index `init(documents:)` made.
                    guard removed ? df == 0 : df > 0 else { return false }
                    changeOf[stop.term] = Int32(changes.count)
                    changes.append((text, removed, df))
                }
                return true
            }
        }
        guard ok else { return nil }
        let fresh = field.fresh.map { term -> Range<Int> in
            let start = postings.count
            var encoder = PostingEncoder()
            encoder.add(document: document, frequency: term.frequency)
            postings += encoder.bytes
            return start..<postings.count
        }

        // The vocabulary after the change in the files' order (an old term's position, or −1 − a new term's), with
        // each term's weight and document count.
        var order: [Int] = []
        var weights: [Int] = []
        var df: [Int] = []
        order.reserveCapacity(termCount + fresh.count)
        weights.reserveCapacity(termCount + fresh.count)
        df.reserveCapacity(termCount + fresh.count)
        var next = 0
        func addFresh(before term: Int) {
            while next < fresh.count && field.fresh[next].place == term {
                order.append(-1 - next)
                weights.append(weight(term: field.fresh[next].bytes.count, postings: fresh[next].count))
                df.append(1)
                next += 1
            }
        }
        for term in 0..<termCount {
            addFresh(before: term)
            let change = changeOf[term]
            if change >= 0 && changes[Int(change)].removed { continue }
            order.append(term)
            let entry = shards.entries[term]
            let text = change >= 0 ? changes[Int(change)].text.count : entry.text.count
            weights.append(weight(term: manifest.rawRanges[term].count, postings: entry.other + text))
            df.append(change >= 0 ? changes[Int(change)].df : manifest.df[term])
        }
        addFresh(before: termCount)
        let starts = shardStarts(weights: weights, shards: manifest.starts.count)

        var files: [String: Data] = [:]
        let head = Array(shardHead.utf8)
        let tail = Array(shardTail.utf8)
        shards.bytes.withUnsafeBufferPointer { bytes in
            for shard in starts.indices {
                let range = starts[shard]..<(shard + 1 < starts.count ? starts[shard + 1] : order.count)
                let old = manifest.starts[shard]..<(shard + 1 < starts.count ? manifest.starts[shard + 1] : termCount)
                // The same terms, none changed: the same bytes.
                if range.count == old.count && zip(range, old).allSatisfy({ order[$0] == $1 && changeOf[$1] < 0 }) { continue }
                var json = head
                json.reserveCapacity(shards.ranges[shard].count + 256)
                for position in range {
                    if position > range.lowerBound { json.append(UInt8(ascii: ",")) }
                    let term = order[position]
                    guard term >= 0 else {
                        let new = field.fresh[-1 - term]
                        let quoted = JSONWriter.quoted(String(decoding: field.bytes[new.bytes], as: UTF8.self))
                        json += shardEntry(quoted, ["", "", String(decoding: postings[fresh[-1 - term]], as: UTF8.self)]).utf8
                        continue
                    }
                    let entry = shards.entries[term]
                    guard changeOf[term] >= 0 else {
                        json.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[entry.entry]))
                        continue
                    }
                    // The entry up to its text field's postings, as it was; then the new postings.
                    json.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[entry.entry.lowerBound..<entry.text.lowerBound]))
                    json += postings[changes[Int(changeOf[term])].text]
                    json += [UInt8(ascii: "\""), UInt8(ascii: "]")]
                }
                json += tail
                let same = json.withUnsafeBufferPointer { Self.same($0, UnsafeBufferPointer(rebasing: bytes[shards.ranges[shard]])) }
                if !same { files["search/shards/\(shard).json"] = Data(json) }
            }
        }

        var textLengths = manifest.textLengths
        let total = textLengths.reduce(0, +) - textLengths[document] + field.length
        textLengths[document] = field.length
        let (before, after) = SearchIndex.manifest(
            documents: manifest.documents, averages: Array(manifest.averages.dropLast()) + [average(total, documents: manifest.documents)],
            lengths: Array(manifest.lengths.dropLast()) + [encode(numbers: textLengths)], starts: starts, df: encode(numbers: df))
        var written = Array(before.utf8)
        written.reserveCapacity(manifest.bytes.count + 64 * fresh.count)
        for (position, term) in order.enumerated() {
            if position > 0 { written.append(UInt8(ascii: ",")) }
            if term >= 0 {
                written += manifest.list[manifest.quoted[term]]
            } else {
                written += JSONWriter.quoted(String(decoding: field.bytes[field.fresh[-1 - term].bytes], as: UTF8.self)).utf8
            }
        }
        written += after.utf8
        if written != manifest.bytes { files["search/index.json"] = Data(written) }
        return files
    }

    /// Whether two blocks of bytes are the same.
    fileprivate static func same(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        a.count == b.count && (a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
    }

    /// Each base-64 digit's value (`digits`), 0xFF for a byte that is none.
    fileprivate static let digitValues: [UInt8] = {
        var values = [UInt8](repeating: 0xFF, count: 256)
        for (value, digit) in digits.enumerated() { values[Int(digit)] = UInt8(value) }
        return values
    }()
}

/// `search/index.json` as read for a patch: the numbers the patch changes, and every term's quoted form and bytes in
/// the files' order.
private struct ReadManifest {
    var bytes: [UInt8]
    var documents: Int
    /// By field, as written.
    var averages: [String]
    var lengths: [String]
    /// The text field's length in each document.
    var textLengths: [Int]
    var starts: [Int]
    var df: [Int]
    /// The terms quoted as `JSONWriter.quoted` quotes them, with commas between them, and where each term is there.
    var list: [UInt8] = []
    var quoted: [Range<Int>] = []
    /// Each term's bytes (unquoted) in `raw`.
    var raw: [UInt8] = []
    var rawRanges: [Range<Int>] = []

    /// Nil unless `data` is what `SearchIndex` writes: the parts it reads written back are its bytes, the numbers are
    /// as many as there are documents and terms, the averages are those the lengths give, there are as many shards as
    /// an index of this many documents has, starting in order, and the terms are sorted.
    static func read(_ data: Data) -> ReadManifest? {
        guard let json = try? JSONParser.parse(data), let documents = json["documents"]?.intValue,
            let averages = json["average"]?.arrayValue?.compactMap({ if case .number(let text) = $0 { text } else { nil } }),
            let lengths = json["lengths"]?.arrayValue?.compactMap(\.stringValue), let starts = json["shards"]?.arrayValue?.compactMap(\.intValue),
            let dfText = json["df"]?.stringValue, let terms = json["terms"]?.arrayValue?.compactMap(\.stringValue), let df = Self.numbers(dfText)
        else { return nil }
        let numbers = lengths.compactMap(Self.numbers)
        var manifest = ReadManifest(
            bytes: [UInt8](data), documents: documents, averages: averages, lengths: lengths, textLengths: numbers.last ?? [], starts: starts, df: df)
        manifest.list.reserveCapacity(data.count)
        manifest.raw.reserveCapacity(data.count)
        for term in terms {
            if !manifest.quoted.isEmpty { manifest.list.append(UInt8(ascii: ",")) }
            let (start, rawStart) = (manifest.list.count, manifest.raw.count)
            JSONWriter.appendQuoted(term, htmlSafe: true, to: &manifest.list)
            manifest.raw += term.utf8
            manifest.quoted.append(start..<manifest.list.count)
            manifest.rawRanges.append(rawStart..<manifest.raw.count)
        }
        let (before, after) = SearchIndex.manifest(documents: documents, averages: averages, lengths: lengths, starts: starts, df: dfText)
        guard Array(before.utf8) + manifest.list + Array(after.utf8) == manifest.bytes, averages.count == SearchIndex.fields.count,
            numbers.count == averages.count, numbers.allSatisfy({ $0.count == documents }),
            zip(averages, numbers).allSatisfy({ $0 == SearchIndex.average($1.reduce(0, +), documents: documents) }), df.count == terms.count,
            starts.count == SearchIndex.shardCount(documents: documents), starts.first == 0, zip(starts, starts.dropFirst()).allSatisfy({ $0 <= $1 }),
            (starts.last ?? 0) <= terms.count, zip(terms, terms.dropFirst()).allSatisfy({ SearchIndex.precedesInUTF16($0, $1) })
        else { return nil }
        return manifest
    }

    /// The numbers `SearchIndex.encode(numbers:)` wrote as `text`.
    private static func numbers(_ text: String) -> [Int]? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            SearchIndex.digitValues.withUnsafeBufferPointer { Cursor(buffer, $0, at: 0, end: buffer.count).numbers(in: 0..<buffer.count) }
        }
    }

    /// The bytes of the term at `position`.
    func withTerm<T>(_ position: Int, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        raw.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[rawRanges[position]])) }
    }
}

/// The document's new text field against the old vocabulary: the terms it has, at their positions, and the terms
/// new to the vocabulary, sorted, each with the position of the old term it goes before.
private struct NewField {
    /// Frequencies as postings keep them (a count of 0 or 1 is written as 1).
    var known: [Int: Int] = [:]
    /// Whether the term at each position is in `known`.
    var wanted: [Bool]
    var fresh: [(bytes: Range<Int>, frequency: Int, place: Int)] = []
    /// The new terms' bytes.
    var bytes: [UInt8] = []
    var length: Int

    /// Nil when the field has a term twice (`init(documents:)` would list the document twice in its postings).
    init?(_ text: SearchTerms, vocabulary: ReadManifest) {
        length = text.length
        wanted = [Bool](repeating: false, count: vocabulary.quoted.count)
        var fresh: [(bytes: [UInt8], frequency: Int, place: Int)] = []
        var twice = false
        let count = vocabulary.quoted.count
        text.forEachTerm { term, frequency in
            // The first position whose term doesn't sort before this one.
            var low = 0
            var high = count
            while low < high {
                let middle = (low + high) / 2
                if vocabulary.withTerm(middle, { SearchIndex.precedesInUTF16($0, term) }) { low = middle + 1 } else { high = middle }
            }
            if low < count && vocabulary.withTerm(low, { $0.elementsEqual(term) }) {
                twice = twice || known.updateValue(max(1, frequency), forKey: low) != nil
            } else {
                fresh.append((Array(term), max(1, frequency), low))
            }
        }
        for position in known.keys { wanted[position] = true }
        fresh.sort { a, b in a.bytes.withUnsafeBufferPointer { a in b.bytes.withUnsafeBufferPointer { SearchIndex.precedesInUTF16(a, $0) } } }
        guard !twice, zip(fresh, fresh.dropFirst()).allSatisfy({ $0.bytes != $1.bytes }) else { return nil }
        for term in fresh {
            self.fresh.append((bytes.count..<bytes.count + term.bytes.count, term.frequency, term.place))
            bytes += term.bytes
        }
    }
}

/// The shards as read for a patch: all their bytes, each term's entry in them, and where the document stands in
/// the text-field postings of every term that lists it there or that its new text has.
private struct ReadShards {
    struct Entry {
        var entry: Range<Int>
        /// The text field's encoded postings.
        var text: Range<Int>
        /// The length of the other fields' encoded postings.
        var other: Int
    }

    /// The first posting of the document or a later one in a term's text field (its end when none), the document
    /// before it, and the document's frequency there when it has one.
    struct Stop {
        var term: Int
        var at: Int
        var previous: Int
        var frequency: Int?
    }

    var bytes: [UInt8]
    /// Each shard's bytes in `bytes`.
    var ranges: [Range<Int>]
    var entries: [Entry]
    var stops: [Stop]

    static func read(_ manifest: ReadManifest, document: Int, wanted: [Bool], files: (String) -> Data?) -> ReadShards? {
        var shards: [Data] = []
        for shard in manifest.starts.indices {
            guard let data = files("search/shards/\(shard).json") else { return nil }
            shards.append(data)
        }
        // One block of bytes, every position in it a term's for good.
        var ranges: [Range<Int>] = []
        let total = shards.reduce(0) { $0 + $1.count }
        let bytes = [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
            for shard in shards {
                let start = ranges.last?.upperBound ?? 0
                _ = shard.copyBytes(to: UnsafeMutableBufferPointer(rebasing: buffer[start..<start + shard.count]))
                ranges.append(start..<start + shard.count)
            }
            initialized = total
        }
        var stops: [Stop] = []
        let head = Array(SearchIndex.shardHead.utf8)
        let tail = Array(SearchIndex.shardTail.utf8)
        var read = false
        // Written in place (an append checks the array's storage is its own: a call a term).
        let entries = [Entry](unsafeUninitializedCapacity: manifest.quoted.count) { entries, initialized in
            read = bytes.withUnsafeBufferPointer { buffer in
                manifest.list.withUnsafeBufferPointer { list in
                    SearchIndex.digitValues.withUnsafeBufferPointer { values in
                        for (shard, range) in ranges.enumerated() {
                            var cursor = Cursor(buffer, values, at: range.lowerBound, end: range.upperBound)
                            guard cursor.skip(head) else { return false }
                            let terms = manifest.starts[shard]..<(shard + 1 < ranges.count ? manifest.starts[shard + 1] : manifest.quoted.count)
                            for term in terms {
                                // `"term":["title","headings","text"]`, the term quoted as the manifest has it.
                                guard term == terms.lowerBound || cursor.skip(",") else { return false }
                                let start = cursor.index
                                guard cursor.skip(UnsafeBufferPointer(rebasing: list[manifest.quoted[term]])), cursor.skip(":[\""),
                                    let title = cursor.digits(), cursor.skip("\",\""), let headings = cursor.digits(), cursor.skip("\",\""),
                                    let (text, stop) = cursor.textPostings(document), cursor.skip("\"]")
                                else { return false }
                                let entry = Entry(entry: start..<cursor.index, text: text, other: title.count + headings.count)
                                (entries.baseAddress! + initialized).initialize(to: entry)
                                initialized += 1
                                if stop.frequency != nil || wanted[term] {
                                    stops.append(Stop(term: term, at: stop.at, previous: stop.previous, frequency: stop.frequency))
                                }
                            }
                            guard cursor.skip(tail), cursor.index == range.upperBound else { return false }
                        }
                        return true
                    }
                }
            }
        }
        // The starts `init(documents:)` gives terms of these entries.
        let weights = entries.indices.map { SearchIndex.weight(term: manifest.rawRanges[$0].count, postings: entries[$0].other + entries[$0].text.count) }
        guard read, entries.count == manifest.quoted.count, SearchIndex.shardStarts(weights: weights, shards: manifest.starts.count) == manifest.starts
        else { return nil }
        return ReadShards(bytes: bytes, ranges: ranges, entries: entries, stops: stops)
    }
}

/// Reads the index's files a piece at a time, as they are written: each read gives nil (or false) at the first
/// byte out of place, and otherwise moves past what it read.
private struct Cursor {
    let bytes: UnsafeBufferPointer<UInt8>
    /// Each base-64 digit's value, 0xFF for a byte that is none (`SearchIndex.digitValues`).
    let values: UnsafeBufferPointer<UInt8>
    var index: Int
    let end: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>, _ values: UnsafeBufferPointer<UInt8>, at index: Int, end: Int) {
        (self.bytes, self.values, self.index, self.end) = (bytes, values, index, end)
    }

    /// Whether these bytes come next (then moved past). Compared here, not by `memcmp`: a shard's punctuation and
    /// terms are a few bytes each, and there are a hundred thousand of them.
    mutating func skip(_ literal: UnsafeBufferPointer<UInt8>) -> Bool {
        guard end - index >= literal.count else { return false }
        for offset in 0..<literal.count where bytes[index &+ offset] != literal[offset] { return false }
        index += literal.count
        return true
    }

    mutating func skip(_ literal: [UInt8]) -> Bool {
        literal.withUnsafeBufferPointer { skip($0) }
    }

    mutating func skip(_ literal: StaticString) -> Bool {
        literal.withUTF8Buffer { skip($0) }
    }

    /// Base-64 digits up to the next byte that is none.
    mutating func digits() -> Range<Int>? {
        let start = index
        while index < end && values[Int(bytes[index])] < 64 { index &+= 1 }
        return index < end ? start..<index : nil
    }

    /// The next of the numbers `SearchIndex.encode(numbers:)` writes, nil when it is cut off or too large.
    mutating func encodedNumber() -> Int? {
        Self.number(bytes.baseAddress!, values.baseAddress!, at: &index, end: end)
    }

    @inline(__always)
    private static func number(_ bytes: UnsafePointer<UInt8>, _ values: UnsafePointer<UInt8>, at index: inout Int, end: Int) -> Int? {
        var value = 0
        var shift = 0
        while index < end && shift < 55 {
            let digit = Int(values[Int(bytes[index])])
            index += 1
            guard digit < 64 else { return nil }
            value |= (digit & 31) << shift
            if digit < 32 { return value }
            shift += 5
        }
        return nil
    }

    /// The postings of a text field, as `digits()` reads them, and where `document` stands in them: the first
    /// posting of it or of a later document (the end when none), the document before that, and the document's
    /// frequency when it has one.
    mutating func textPostings(_ document: Int) -> (Range<Int>, (at: Int, previous: Int, frequency: Int?))? {
        guard let bytes = bytes.baseAddress, let values = values.baseAddress,
            let stop = Self.locate(document, bytes, values, from: index, end: end)
        else { return nil }
        let start = index
        index = stop.at
        guard let rest = digits() else { return nil }
        return (start..<rest.upperBound, stop)
    }

    /// `textPostings(_:)`'s stop, from the postings' first digit. Every term's text field is read, so a patch spends
    /// its time here: the postings are decoded only up to that posting, a digit at a time with no branch on the
    /// digit but at the end. (A third of the digits continue a number and many steps have a frequency after them,
    /// in no order a branch predictor learns.)
    private static func locate(_ document: Int, _ bytes: UnsafePointer<UInt8>, _ values: UnsafePointer<UInt8>, from start: Int, end: Int) -> (
        at: Int, previous: Int, frequency: Int?
    )? {
        var value = 0
        var shift = 0
        // Whether the number being read is a step (else a frequency), where its posting begins, the last document.
        var step = 1
        var posting = start
        var previous = -1
        var at = start
        while at < end {
            let digit = Int(values[Int(bytes[at])])
            // Past the postings.
            if digit >= 64 { break }
            let continues = digit >> 5
            let ends = 1 &- continues
            value |= (digit & 31) &<< shift
            let current = previous &+ (value >> 1) &+ 1
            // The document's posting or a later one, or a number too long for `encode(numbers:)` to have written.
            if (ends & step & (current >= document ? 1 : 0)) | ((shift &+ 9) >> 6) != 0 {
                guard shift < 55 else { return nil }
                guard current == document else { return (posting, previous, nil) }
                guard value & 1 == 1 else { return (posting, previous, 1) }
                var next = at + 1
                guard let frequency = number(bytes, values, at: &next, end: end) else { return nil }
                return (posting, previous, frequency)
            }
            previous = ends & step == 1 ? current : previous
            // Where the next number begins: a posting's start whenever it is read (at a step's end, where the number
            // before the step ended a posting).
            posting = ends == 1 ? at &+ 1 : posting
            step = ends == 1 ? 1 &- (step & value & 1) : step
            value &= 0 &- continues
            shift = (shift &+ 5) & (0 &- continues)
            at &+= 1
        }
        // The last number whole, and no frequency missing.
        guard shift == 0, step == 1 else { return nil }
        return (at, previous, nil)
    }

    /// All the numbers in `range`.
    func numbers(in range: Range<Int>) -> [Int]? {
        var cursor = Cursor(bytes, values, at: range.lowerBound, end: range.upperBound)
        var whole = true
        // At most a number a digit, written in place.
        let numbers = [Int](unsafeUninitializedCapacity: range.count) { numbers, count in
            while cursor.index < cursor.end {
                guard let number = cursor.encodedNumber() else {
                    whole = false
                    return
                }
                (numbers.baseAddress! + count).initialize(to: number)
                count += 1
            }
        }
        return whole ? numbers : nil
    }

    /// The next posting of a field (`SearchIndex.encode(_:)`): its distance from the previous one, its frequency.
    mutating func posting() -> (gap: Int, frequency: Int)? {
        guard let step = encodedNumber() else { return nil }
        guard step & 1 == 1 else { return ((step >> 1) + 1, 1) }
        guard let frequency = encodedNumber() else { return nil }
        return ((step >> 1) + 1, frequency)
    }

    /// The text field that starts at `start` (the cursor at a stop: see `ReadShards.Stop`), with the document's
    /// posting (`old`, its frequency, if it has one) made `new` (taken out when nil), into `out`.
    mutating func splice(from start: Int, previous: Int, _ document: Int, _ old: Int?, _ new: Int?, into out: inout [UInt8]) -> Bool {
        out += bytes[start..<index]
        if old != nil && posting() == nil { return false }
        if let new { SearchIndex.append(gap: document - previous, frequency: new, to: &out) }
        guard index < end else { return true }
        // The next posting's distance, now from the posting before it.
        guard let next = posting() else { return false }
        let current = (old == nil ? previous : document) + next.gap
        SearchIndex.append(gap: current - (new == nil ? previous : document), frequency: next.frequency, to: &out)
        out += bytes[index..<end]
        return true
    }
}
