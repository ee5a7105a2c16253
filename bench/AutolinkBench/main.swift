// Auto-linking speed: TermMatcher built from a vocabulary, run over the text of every page of a corpus.
//
//   autolink-bench [--runs N] [--count N] --vocab FILE CONTENT_FOLDER
//
// The forms are the first N words of FILE (one a line) and their plurals (word + "s"), each plural an alias of its
// word. A page's text is approximated by its lines outside the front matter and fenced code blocks, each line one
// text node (one call). Prints the median over N runs of the wall and CPU time of: building the matcher, matching
// every occurrence, matching the first occurrence of each term per page, and matching every occurrence in the
// same lines made non-ASCII (a "Ü " in front of each: the folded path a German or French site takes everywhere);
// and, as a floor to read the others against on a busy machine, a loop that only counts word starts.
// bench/autolink-bench.sh generates the corpus and builds this in release mode; `make test` never runs it.
import Foundation
import GlossaryKit

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("autolink-bench: error: \(message)\n".utf8))
    exit(1)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var runs = 7
var count = Int.max
var vocabulary: String?
var folders: [String] = []
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--runs": runs = Int(arguments.isEmpty ? "" : arguments.removeFirst()) ?? 0
    case "--count": count = Int(arguments.isEmpty ? "" : arguments.removeFirst()) ?? 0
    case "--vocab": vocabulary = arguments.isEmpty ? nil : arguments.removeFirst()
    default: folders.append(argument)
    }
}
guard runs > 0, count > 0, let vocabulary, folders.count == 1 else {
    fail("usage: autolink-bench [--runs N] [--count N] --vocab FILE CONTENT_FOLDER")
}

/// Median wall and CPU time of `runs` runs of `body`, in seconds (CPU: this process's user + system time).
func median(runs: Int, _ body: () -> Void) -> (wall: Double, cpu: Double) {
    func cpuNow() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
    let times = (0..<runs).map { _ in
        let wall = DispatchTime.now().uptimeNanoseconds
        let cpu = cpuNow()
        body()
        return (wall: Double(DispatchTime.now().uptimeNanoseconds - wall) / 1e9, cpu: cpuNow() - cpu)
    }
    return (times.map(\.wall).sorted()[runs / 2], times.map(\.cpu).sorted()[runs / 2])
}

/// Every page's text lines in one buffer: `pages[i]` is the range of `lines` holding page i's lines.
struct Corpus {
    var bytes: [UInt8] = []
    var lines: [Range<Int>] = []
    var pages: [Range<Int>] = []
    var pageBytes = 0

    mutating func add(page: [UInt8], prefix: [UInt8]) {
        pageBytes += page.count
        let first = lines.count
        var inFrontMatter = page.starts(with: Array("---\n".utf8))
        var fence: [UInt8]?
        var isFirstLine = true
        for line in page.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            defer { isFirstLine = false }
            let text = Array(line)
            if inFrontMatter {
                if !isFirstLine && text == Array("---".utf8) { inFrontMatter = false }
                continue
            }
            let trimmed = text.drop { $0 == UInt8(ascii: " ") }
            if let open = fence {
                if trimmed.starts(with: open) { fence = nil }
                continue
            }
            if trimmed.starts(with: Array("```".utf8)) || trimmed.starts(with: Array("~~~".utf8)) {
                fence = Array(trimmed.prefix(3))
                continue
            }
            guard !text.isEmpty else { continue }
            let start = bytes.count
            bytes.append(contentsOf: prefix)
            bytes.append(contentsOf: text)
            lines.append(start..<bytes.count)
        }
        pages.append(first..<lines.count)
    }
}

let folder = URL(fileURLWithPath: folders[0])
guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { fail("cannot read \(folder.path)") }
let files = enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "md" }.sorted { $0.path < $1.path }
guard !files.isEmpty else { fail("no markdown files under \(folder.path)") }
var plain = Corpus()
var nonASCII = Corpus()
for file in files {
    guard let data = try? Data(contentsOf: file) else { fail("cannot read \(file.path)") }
    plain.add(page: Array(data), prefix: [])
    nonASCII.add(page: Array(data), prefix: Array("Ü ".utf8))
}

guard let vocabularyText = try? String(contentsOfFile: vocabulary, encoding: .utf8) else { fail("cannot read \(vocabulary)") }
let words = vocabularyText.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.prefix(count)
let forms = words.enumerated().flatMap { index, word in
    [TermMatcher<Int>.Form(word, id: index), TermMatcher<Int>.Form(word + "s", id: index)]
}

var matcher = TermMatcher<Int>(forms: [])
let build = median(runs: runs) { matcher = TermMatcher(forms: forms) }

func scanAll(_ corpus: Corpus, _ matcher: TermMatcher<Int>) -> Int {
    var found = 0
    corpus.bytes.withUnsafeBufferPointer { bytes in
        for line in corpus.lines { found += matcher.matches(inUTF8: UnsafeBufferPointer(rebasing: bytes[line])).count }
    }
    return found
}

func scanFirst(_ corpus: Corpus, _ matcher: TermMatcher<Int>) -> Int {
    var found = 0
    corpus.bytes.withUnsafeBufferPointer { bytes in
        for page in corpus.pages {
            var linked: Set<Int> = []
            for line in corpus.lines[page] {
                found += matcher.matches(inUTF8: UnsafeBufferPointer(rebasing: bytes[line]), linkingOnce: &linked).count
            }
        }
    }
    return found
}

/// The floor: a loop that only counts where words start, the least any word-by-word reading of the text costs.
func countWordStarts(_ corpus: Corpus) -> Int {
    var starts = 0
    corpus.bytes.withUnsafeBufferPointer { bytes in
        for line in corpus.lines {
            var previous = false
            for index in line {
                let byte = bytes[index]
                let isWord = (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte &- UInt8(ascii: "0") < 10 || byte == UInt8(ascii: "_")
                if isWord && !previous { starts += 1 }
                previous = isWord
            }
        }
    }
    return starts
}

var (all, first, folded, starts) = (0, 0, 0, 0)
let floorTime = median(runs: runs) { starts = countWordStarts(plain) }
let allTime = median(runs: runs) { all = scanAll(plain, matcher) }
let firstTime = median(runs: runs) { first = scanFirst(plain, matcher) }
let foldedTime = median(runs: runs) { folded = scanAll(nonASCII, matcher) }

let size = matcher.automatonSize
print(
    "pages \(files.count), markdown \(plain.pageBytes) bytes, text lines \(plain.lines.count) (\(plain.bytes.count) bytes), terms \(words.count), "
        + "forms \(matcher.formCount), automaton \(size.nodes) nodes in \(size.slots) slots, runs \(runs)")
print(["case", "wall_s", "cpu_s", "count"].joined(separator: " "))
for (name, time, count) in [
    ("build", build, matcher.formCount), ("floor-word-starts", floorTime, starts), ("scan-every", allTime, all), ("scan-first", firstTime, first),
    ("scan-every-non-ascii", foldedTime, folded),
] {
    print("\(name) \(String(format: "%.4f", time.wall)) \(String(format: "%.4f", time.cpu)) \(count)")
}
