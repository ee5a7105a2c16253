// Patching the site search's index after one page's text changed (`SearchIndex.patched(document:old:new:files:)`),
// against making the index again, on a generated site of many documents.
//
//   search-patch-bench [--runs N] [--documents N] [--terms N] [--length N] [--folder DIR]
//
// The documents: a vocabulary of `--terms` random words (a few with accented letters), drawn Zipf-like (the word
// of rank r with weight 1/r) into text fields of about `--length` terms, titles of 2–4 words and 0–3 headings.
// The index's files are written to DIR (default: a folder under /dev/shm or the temporary folder). For several
// edits of one document's text, the patch is checked once against the index made of the changed documents (every
// file byte for byte, and no file returned that didn't change), then timed: the median over N runs of the whole
// patch with the files read from memory and read from DIR (warm page cache). bench/search-patch-bench.sh builds
// this in release mode; `make test` never runs it.
import Foundation
import GlossaryKit

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("search-patch-bench: error: \(message)\n".utf8))
    exit(1)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var runs = 21
var documentCount = 12_000
var termCount = 20_000
var length = 200
var folder: String?
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    let value = arguments.isEmpty ? "" : arguments.removeFirst()
    switch argument {
    case "--runs": runs = Int(value) ?? 0
    case "--documents": documentCount = Int(value) ?? 0
    case "--terms": termCount = Int(value) ?? 0
    case "--length": length = Int(value) ?? 0
    case "--folder": folder = value
    default: fail("unknown argument \(argument)")
    }
}
guard runs > 0, documentCount > 1, termCount > 10, length > 0 else {
    fail("usage: search-patch-bench [--runs N] [--documents N] [--terms N] [--length N] [--folder DIR]")
}

/// SplitMix64: the same site on every run.
struct Random {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}

/// Makes the site and its index, checks and times each edit (the work in a function: its values are not globals).
func measure(runs: Int, documentCount: Int, termCount: Int, length: Int, folder: String?) {
    var random = Random(state: 2026)
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    let accented = Array("éèüößçñå")
    var seen = Set<String>()
    var vocabulary: [String] = []
    while vocabulary.count < termCount {
        var word = String((0..<3 + random.below(9)).map { _ in letters[random.below(letters.count)] })
        if random.below(50) == 0 { word.insert(accented[random.below(accented.count)], at: word.index(after: word.startIndex)) }
        if seen.insert(word).inserted { vocabulary.append(word) }
    }
    // Cumulative Zipf weights, for drawing a word by bisection.
    var cumulative: [Double] = []
    var sum = 0.0
    for rank in 1...termCount {
        sum += 1 / Double(rank)
        cumulative.append(sum)
    }
    func word() -> String {
        let target = random.unit() * sum
        var low = 0
        var high = cumulative.count - 1
        while low < high {
            let middle = (low + high) / 2
            if cumulative[middle] < target { low = middle + 1 } else { high = middle }
        }
        return vocabulary[low]
    }
    func words(_ count: Int) -> [String] { (0..<count).map { _ in word() } }

    let start = Date()
    var texts: [[String]] = []
    let documents = (0..<documentCount).map { index -> SearchDocument in
        let text = words(length / 2 + random.below(length + 1))
        texts.append(text)
        let headings = (0..<random.below(4)).map { _ in words(2 + random.below(2)).joined(separator: " ") }
        return SearchDocument(
            kind: .page, title: words(2 + random.below(3)).joined(separator: " ").capitalized, urlPath: "page/\(index)/", trail: "Guide", summary: nil,
            headings: headings.map { PageHeading(level: 2, text: $0, id: $0.replacingOccurrences(of: " ", with: "-")) },
            headingsText: headings.joined(separator: "\n"), text: SearchTerms(text: text.joined(separator: " ")))
    }
    let made = Date()
    let index = SearchIndex(documents: documents, jobs: 2)
    let indexed = Date()
    let files = index.files.mapValues { Data($0.utf8) }

    let root = URL(fileURLWithPath: folder ?? (FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()))
        .appendingPathComponent(folder == nil ? "glossary-search-patch-bench" : "")
    for (path, data) in files {
        let url = root.appendingPathComponent(path)
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        do { try data.write(to: url) } catch { fail("can't write \(url.path): \(error)") }
    }

    let manifest = files["search/index.json"]!
    let shardBytes = files.filter { $0.key.hasPrefix("search/shards/") }.reduce(0) { $0 + $1.value.count }
    let object = (try? JSONSerialization.jsonObject(with: manifest) as? [String: Any]) ?? [:]
    let (terms, shards) = (object["terms"] as? Int ?? 0, (object["shards"] as? [Any])?.count ?? 0)
    print(
        "load average: \(((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?").split(separator: " ").prefix(3).joined(separator: " "))"
            + "  documents=\(documentCount) terms=\(terms) shards=\(shards)"
            + " shard JSON=\(shardBytes / 1000) kB index.json=\(manifest.count / 1000) kB  runs=\(runs)")
    print(String(format: "documents made in %.2f s, the index (2 threads) in %.2f s", made.timeIntervalSince(start), indexed.timeIntervalSince(made)))

    func milliseconds(_ body: () -> Void) -> Double {
        let begin = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e6
    }
    /// The wall and CPU time of `body` in milliseconds (CPU: this thread's, which waiting for a core doesn't count).
    func times(_ body: () -> Void) -> (wall: Double, cpu: Double) {
        func cpu() -> Double {
            var now = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
            return Double(now.tv_sec) * 1e3 + Double(now.tv_nsec) / 1e6
        }
        let before = cpu()
        let wall = milliseconds(body)
        return (wall, cpu() - before)
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    let edited = documentCount / 2
    var fewWords = texts[edited]
    for _ in 0..<5 { fewWords[random.below(fewWords.count)] = word() }
    let edits: [(name: String, text: SearchTerms)] = [
        ("unchanged", documents[edited].text),
        ("5 words replaced", SearchTerms(text: fewWords.joined(separator: " "))),
        ("a new word added", SearchTerms(text: (texts[edited] + ["glossarybenchword"]).joined(separator: " "))),
        ("rewritten (new words)", SearchTerms(text: words(length).joined(separator: " "))),
        ("emptied", .empty),
        ("10x longer", SearchTerms(text: words(length * 10).joined(separator: " "))),
    ]
    print("edit                     files   memory: wall   cpu      disk: wall   cpu   index again ms")
    for edit in edits {
        var changed = documents
        changed[edited].text = edit.text
        var fresh: [String: String] = [:]
        let again = milliseconds { fresh = SearchIndex(documents: changed, jobs: 1).files }
        let old = documents[edited].text
        guard let patch = SearchIndex.patched(document: edited, old: old, new: edit.text, files: { files[$0] }) else { fail("\(edit.name): no patch") }
        var patched = files.filter { !patch.removed.contains($0.key) }
        patched.merge(patch.written) { _, new in new }
        if patched != fresh.mapValues({ Data($0.utf8) }) { fail("\(edit.name): the patched files differ from the index made again") }
        for (path, data) in patch.written where files[path] == data { fail("\(edit.name): \(path) returned unchanged") }
        let memory = (0..<runs).map { _ in times { _ = SearchIndex.patched(document: edited, old: old, new: edit.text, files: { files[$0] }) } }
        let disk = (0..<runs).map { _ in
            times { _ = SearchIndex.patched(document: edited, old: old, new: edit.text, files: { try? Data(contentsOf: root.appendingPathComponent($0)) }) }
        }
        print(
            edit.name.padding(toLength: 24, withPad: " ", startingAt: 0)
                + String(
                    format: " %5d  %12.2f %6.2f  %10.2f %6.2f  %9.0f", patch.written.count + patch.removed.count, median(memory.map(\.wall)), median(memory.map(\.cpu)),
                    median(disk.map(\.wall)), median(disk.map(\.cpu)), again))
    }
}

measure(runs: runs, documentCount: documentCount, termCount: termCount, length: length, folder: folder)
