import Foundation

extension SearchIndex {
    /// What a patch changes: the files whose bytes change, by path, and the shard files that go.
    public struct Patch: Sendable {
        public var written: [String: Data] = [:]
        public var removed: Set<String> = []
    }

    /// The index files in `folder` after the text field of document `document` goes from `old` to `new` (its title and
    /// headings, and every other document, unchanged), from the current files: laid over them, the patch gives the
    /// files `init(documents:)` makes of the documents after the change. Nil when the files can't be read, are not an
    /// index of this `version` or don't hold `old` for `document`, or when the change moves the divisor shards are cut
    /// by (`Layout`): the caller then makes the index from its documents.
    ///
    /// Only the terms whose postings change are touched — those whose frequency in the text changes, or all of the
    /// document's when its text's length level does — and only their segments' shards are read and cut again (with
    /// the segment before, where a term that starts a segment goes), by the same code that cuts a whole index.
    /// `sizes` must be those the index was made with.
    public static func patched(
        document: Int, old: SearchTerms, new: SearchTerms, folder: String = "", sizes: ShardSizes = .standard, files: (String) -> Data?
    ) -> Patch? {
        func read(_ path: String) -> Data? { files(folder + path) }
        guard let manifest = Manifest(read("search/index.json"), target: sizes.target), (0..<manifest.documents).contains(document), !manifest.shards.isEmpty
        else { return nil }
        let (oldLevel, newLevel) = (level(old.length), level(new.length))
        let before = Dictionary(zip(old.terms, old.counts), uniquingKeysWith: { _, _ in -1 })
        let after = Dictionary(zip(new.terms, new.counts), uniquingKeysWith: { _, _ in -1 })
        guard !before.values.contains(-1), !after.values.contains(-1) else { return nil }
        let changed = Set(before.keys).union(after.keys).filter { oldLevel != newLevel || before[$0] != after[$0] }

        // The shards to cut again: whole segments, as runs of consecutive shards.
        var wanted = Set<Int>()
        var holders: [String: Int] = [:]
        for term in changed {
            let shard = manifest.shard(holding: term)
            holders[term] = shard
            var start = manifest.segmentStart(shard)
            if manifest.shards.indices.contains(start), manifest.shards[start].first == term, start > 0 {
                start = manifest.segmentStart(start - 1)
            }
            let end = manifest.segmentEnd(shard)
            wanted.formUnion(start..<max(start + 1, end))
        }
        var patch = Patch()
        var shards = manifest.shards
        var layout = manifest.layout
        // From the last run back, so the runs before keep their places in `shards`.
        for run in Self.consecutiveRuns(wanted.sorted()).reversed() {
            var terms: [String] = []
            var fields: [[String]] = []
            var entries: [String] = []
            for number in run {
                let path = "search/shards/" + manifest.shards[number].file + ".json"
                guard let shard = Self.entries(read(path)), shard.first?.term == manifest.shards[number].first else { return nil }
                for entry in shard {
                    guard terms.last.map({ precedesInUTF16($0, entry.term) }) ?? true else { return nil }
                    terms.append(entry.term)
                    fields.append(entry.fields)
                    entries.append(entry.text)
                }
                patch.removed.insert(folder + path)
            }
            let oldSizes = entries.reduce(0) { $0 + $1.utf8.count + 1 }
            // The run's changed terms, in order.
            let inRun = changed.filter { run.contains(holders[$0]!) }.sorted(by: precedesInUTF16)
            for term in inRun.reversed() {
                let at = Self.insertionPoint(of: term, in: terms)
                let present = at < terms.count && terms[at] == term
                var entryFields = present ? fields[at] : ["", "", ""]
                guard Self.postings(entryFields[0]) != nil, Self.postings(entryFields[1]) != nil,
                    let text = Self.replacing(
                        document, old: before[term], with: after[term].map { Posting(document: document, frequency: $0, level: newLevel) }, in: entryFields[2])
                else { return nil }
                entryFields[2] = text
                let gone = entryFields.allSatisfy(\.isEmpty)
                switch (present, gone) {
                case (true, true):
                    terms.remove(at: at)
                    fields.remove(at: at)
                    entries.remove(at: at)
                    layout.terms -= 1
                case (true, false):
                    fields[at] = entryFields
                    entries[at] = entry(term, entryFields)
                case (false, false):
                    terms.insert(term, at: at)
                    fields.insert(entryFields, at: at)
                    entries.insert(entry(term, entryFields), at: at)
                    layout.terms += 1
                case (false, true):
                    break
                }
            }
            layout.size += entries.reduce(0) { $0 + $1.utf8.count + 1 } - oldSizes
            let cut = Self.shards(
                terms: terms[...], entries: entries[...], sizes: entries.map { $0.utf8.count + 1 }[...], divisor: manifest.layout.divisor, limit: sizes.limit)
            shards.replaceSubrange(run, with: cut.map { (first: $0.first, file: $0.file) })
            for shard in cut {
                let path = folder + "search/shards/" + shard.file + ".json"
                patch.removed.remove(path)
                let data = Data(shard.json.utf8)
                if files(path) != data { patch.written[path] = data }
            }
        }
        // A change of divisor moves cuts anywhere.
        guard Layout(terms: layout.terms, size: layout.size, target: sizes.target) == layout else { return nil }
        var lengths = manifest.lengths
        lengths[2] += new.length - old.length
        let data = Data(Self.manifest(documents: manifest.documents, lengths: lengths, layout: layout, shards: shards).utf8)
        if read("search/index.json") != data { patch.written[folder + "search/index.json"] = data }
        return patch
    }

    /// Where `term` goes among sorted `terms`: the first that doesn't sort before it.
    private static func insertionPoint(of term: String, in terms: [String]) -> Int {
        var (low, high) = (0, terms.count)
        while low < high {
            let middle = (low + high) / 2
            if precedesInUTF16(terms[middle], term) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Sorted numbers as runs of consecutive ones.
    private static func consecutiveRuns(_ numbers: [Int]) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        for number in numbers {
            if let last = runs.last, last.upperBound == number { runs[runs.count - 1] = last.lowerBound..<number + 1 } else { runs.append(number..<number + 1) }
        }
        return runs
    }

    /// A shard's entries, as `Shard` writes them: each term, its fields, and the entry's text (what `entry(_:_:)` makes
    /// of them, as written); nil for anything else.
    private static func entries(_ data: Data?) -> [(term: String, fields: [String], text: String)]? {
        guard let data else { return nil }
        return data.withUnsafeBytes { raw -> [(term: String, fields: [String], text: String)]? in
            let bytes = raw.bindMemory(to: UInt8.self)
            let (head, tail) = (Array("{\"terms\":[".utf8), Array("]}\n".utf8))
            guard bytes.count > head.count + tail.count, bytes.starts(with: head), bytes.suffix(tail.count).elementsEqual(tail) else { return nil }
            let end = bytes.count - tail.count
            var index = head.count
            var entries: [(term: String, fields: [String], text: String)] = []
            func next(_ byte: UInt8) -> Bool {
                guard index < end, bytes[index] == byte else { return false }
                index += 1
                return true
            }
            while index < end {
                guard entries.isEmpty || next(UInt8(ascii: ",")) else { return nil }
                let start = index
                guard next(UInt8(ascii: "[")), next(UInt8(ascii: "\"")) else { return nil }
                // The term: up to its closing quote, escapes and all, then as `JSONWriter.quoted` writes it.
                var escaped = false
                while index < end, bytes[index] != UInt8(ascii: "\"") {
                    escaped = escaped || bytes[index] == UInt8(ascii: "\\")
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                guard next(UInt8(ascii: "\"")) else { return nil }
                let quoted = UnsafeBufferPointer(rebasing: bytes[(start + 1)..<index])
                let term = escaped ? (try? JSONParser.parse(quoted))?.stringValue : String(decoding: quoted.dropFirst().dropLast(), as: UTF8.self)
                guard let term, JSONWriter.quoted(term).utf8.elementsEqual(quoted) else { return nil }
                // The fields: digits of postings, which need no escape.
                var values: [String] = []
                for _ in fields {
                    guard next(UInt8(ascii: ",")), next(UInt8(ascii: "\"")) else { return nil }
                    let field = index
                    while index < end, digitValue(bytes[index]) != nil { index += 1 }
                    values.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[field..<index]), as: UTF8.self))
                    guard next(UInt8(ascii: "\"")) else { return nil }
                }
                guard next(UInt8(ascii: "]")) else { return nil }
                entries.append((term, values, String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)))
            }
            return entries.isEmpty ? nil : entries
        }
    }

    /// `search/index.json` as read back.
    private struct Manifest {
        var documents: Int
        var lengths: [Int]
        var layout: Layout
        var shards: [(first: String, file: String)]

        init?(_ data: Data?, target: Int) {
            guard let data, let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                object["version"] as? Int == SearchIndex.version, let documents = object["documents"] as? Int,
                let lengths = object["lengths"] as? [Int], lengths.count == SearchIndex.fields.count,
                let divisor = object["cut"] as? Int, let size = object["size"] as? Int, let terms = object["terms"] as? Int,
                let shards = object["shards"] as? [[String]], shards.allSatisfy({ $0.count == 2 }),
                [terms, size, documents].allSatisfy({ (0..<1 << 40).contains($0) })
            else { return nil }
            self.documents = documents
            self.lengths = lengths
            layout = Layout(terms: terms, size: size, target: target)
            self.shards = shards.map { ($0[0], $0[1]) }
            // Written by this version, the manifest's divisor is the one its sizes give.
            guard layout.divisor == divisor else { return nil }
        }

        /// The shard a term is in or would go in: the last whose first term doesn't sort after it (the first shard for
        /// a term before every other).
        func shard(holding term: String) -> Int {
            var (low, high) = (0, shards.count - 1)
            while low < high {
                let middle = (low + high + 1) / 2
                if SearchIndex.precedesInUTF16(term, shards[middle].first) { high = middle - 1 } else { low = middle }
            }
            return max(0, low)
        }

        /// The first shard of the segment holding shard `number`.
        func segmentStart(_ number: Int) -> Int {
            var start = number
            while start > 0 && !SearchIndex.startsSegment(shards[start].first, divisor: layout.divisor) { start -= 1 }
            return start
        }

        /// The shard after the segment holding shard `number` (the count after the last).
        func segmentEnd(_ number: Int) -> Int {
            var end = number + 1
            while end < shards.count && !SearchIndex.startsSegment(shards[end].first, divisor: layout.divisor) { end += 1 }
            return end
        }
    }
}
