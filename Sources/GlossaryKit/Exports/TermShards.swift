import Foundation

/// How a term index the browser reads (`terms/index.json`, `terms/api.json`) is cut into files, so that finding one
/// term downloads a bounded amount whatever the glossary's size.
///
/// An index whose records take at most `Limits.file` bytes is one file. A bigger one is a manifest naming shards
/// (`terms/index.0.json`, `terms/index.1.json`, …; slugs never hold a `.`, so no term page takes these names), each
/// with the first key it holds. Each record stands under its keys (a term's key, and its aliases' or forms' keys); every
/// record's keys are sorted as JavaScript compares strings (by UTF-16 code units, `SearchIndex.precedesInUTF16`) and cut
/// into consecutive ranges whose records take at most `Limits.shard` bytes (a range holds at least one key, whatever
/// its records take). A record is in the shard of each range one of its keys falls in, once, in the order of its first
/// key there. Equal keys are never cut apart, so a reader finds a key's records in the last shard whose first key is at
/// or before it, and the records under the keys starting with a prefix from the shard where the prefix would sort on.
public struct TermShards: Sendable, Equatable {
    public struct Limits: Sendable, Equatable {
        /// An index whose records take at most this many bytes is one file.
        public var file: Int
        /// A shard's records take at most this many bytes, unless one key's records alone take more.
        public var shard: Int

        public init(file: Int, shard: Int) {
            self.file = file
            self.shard = shard
        }

        /// A first lookup reads the manifest (about 43 bytes a shard: 46 KB for a 50 MB index of 150,000 dictionary terms)
        /// and one shard, or at most three of them for the dictionary page's instant results: well under 300 KB.
        public static let standard = Limits(file: 256 * 1024, shard: 48 * 1024)
    }

    public struct Shard: Sendable, Equatable {
        /// The first key in the shard's range.
        public var first: String
        /// Its records, by their place in the index.
        public var records: [Int]
    }

    /// Empty when the index is one file.
    public var shards: [Shard]

    /// The cut of records taking `sizes` bytes each (in the file, without separators), under `keys` each.
    public init(sizes: [Int], keys: [[String]], limits: Limits) {
        shards = []
        guard sizes.reduce(0, +) + max(0, sizes.count - 1) > limits.file else { return }
        var entries: [(key: String, record: Int)] = []
        for (record, recordKeys) in keys.enumerated() {
            for key in recordKeys.uniqued() { entries.append((key, record)) }
        }
        entries.sort { $0.key == $1.key ? $0.record < $1.record : SearchIndex.precedesInUTF16($0.key, $1.key) }
        var first: String? = nil
        var records: [Int] = []
        var inShard: Set<Int> = []
        var bytes = 0
        var start = 0
        while start < entries.count {
            let key = entries[start].key
            var end = start + 1
            while end < entries.count && entries[end].key == key { end += 1 }
            // One key's records, each once (a record's keys are distinct).
            let group = entries[start..<end].map(\.record)
            var fresh = group.filter { !inShard.contains($0) }
            if let shardFirst = first, bytes + fresh.reduce(0, { $0 + sizes[$1] + 1 }) > limits.shard {
                shards.append(Shard(first: shardFirst, records: records))
                (first, records, inShard, bytes) = (nil, [], [], 0)
                fresh = group
            }
            if first == nil { first = key }
            records += fresh
            inShard.formUnion(fresh)
            bytes += fresh.reduce(0) { $0 + sizes[$1] + 1 }
            start = end
        }
        if let first { shards.append(Shard(first: first, records: records)) }
    }

    /// An index's files by path: `<base>.json` and, when sharded, `<base>.N.json`, of `entries` (each record's JSON and
    /// keys). `file(records)` is a file holding those records (the whole index when it is one file, else a shard);
    /// `manifest(shards)` the manifest, given its `"shards"` array (`[{"file":"index.0.json","first":"a"},…]`, file names
    /// relative to the manifest).
    public static func files(
        base: String, entries: [(record: String, keys: [String])], limits: Limits, file: ([String]) -> String, manifest: (String) -> String
    ) -> [(path: String, data: Data)] {
        let records = entries.map(\.record)
        let cut = TermShards(sizes: records.map(\.utf8.count), keys: entries.map(\.keys), limits: limits)
        guard !cut.shards.isEmpty else { return [(base + ".json", Data(file(records).utf8))] }
        let name = base.split(separator: "/").last.map(String.init) ?? base
        var files: [(path: String, data: Data)] = []
        var listed: [String] = []
        for (number, shard) in cut.shards.enumerated() {
            files.append((base + ".\(number).json", Data(file(shard.records.map { records[$0] }).utf8)))
            listed.append("{\"file\":" + JSONWriter.quoted(name + ".\(number).json") + ",\"first\":" + JSONWriter.quoted(shard.first) + "}")
        }
        files.insert((base + ".json", Data(manifest("[" + listed.joined(separator: ",") + "]").utf8)), at: 0)
        return files
    }
}
