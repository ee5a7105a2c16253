// WordNet lookup speed, and a way to see what the engine makes of a word.
//
//   wordnet-bench [--runs N] [--count N] FILE...   time full entries and base forms for the first N words of each file
//   wordnet-bench --show WORD...                   print entries and word forms as JSON
//   --data FOLDER                                  read this database instead of the environment's
//
// The database is the one libwordnet would read (WNSEARCHDIR, else /usr/share/wordnet) unless --data names one. bench/wordnet-bench.sh
// builds this in release mode and feeds it a vocabulary; `make test` builds it but never runs it as a benchmark.
import Foundation
import GlossaryKit

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("wordnet-bench: error: \(message)\n".utf8))
    exit(1)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var runs = 7
var count = 2000
var show = false
var dataFolder: String?
var files: [String] = []
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--runs": runs = Int(arguments.isEmpty ? "" : arguments.removeFirst()) ?? 0
    case "--count": count = Int(arguments.isEmpty ? "" : arguments.removeFirst()) ?? 0
    case "--show": show = true
    case "--data": dataFolder = arguments.isEmpty ? nil : arguments.removeFirst()
    default: files.append(argument)
    }
}
guard runs > 0, count > 0, !files.isEmpty else { fail("usage: wordnet-bench [--runs N] [--count N] FILE... | --show WORD...") }

let wordNet: WordNet
do {
    wordNet = try WordNet.open(dataFolder: dataFolder)
} catch {
    fail(error.description)
}
for warning in wordNet.warnings {
    FileHandle.standardError.write(Data("wordnet-bench: warning: \(warning)\n".utf8))
}

if show {
    struct Shown: Encodable {
        var word: String
        var hasEntry: Bool
        var ownPartsOfSpeech: [String]
        var baseForms: [String]
        var entries: [DictionaryEntry]
    }
    let shown = files.map { word in
        let forms = wordNet.forms(of: word)
        return Shown(
            word: word, hasEntry: wordNet.hasEntry(for: word), ownPartsOfSpeech: forms.ownPartsOfSpeech.map(\.name),
            baseForms: forms.baseForms.map { "\($0.word) (\($0.partOfSpeech.name))" }, entries: wordNet.entries(for: word))
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    guard let json = try? encoder.encode(shown) else { fail("cannot encode the entries as JSON") }
    FileHandle.standardOutput.write(json + Data("\n".utf8))
    exit(0)
}

/// Median wall and CPU time of `runs` runs of `body`, in seconds. The CPU time (this process's user + system
/// time) is what the lookups cost; on a machine shared with other builds the wall time also counts the waiting.
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

print(
    ["file", "words", "in_wordnet", "entries_wall_s", "entries_cpu_s", "forms_wall_s", "forms_cpu_s", "resolve_wall_s", "resolve_cpu_s"].joined(separator: " "))
for file in files {
    guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { fail("cannot read \(file)") }
    let words = text.split(whereSeparator: \.isNewline).map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.prefix(count)
    var found = 0
    let entries = median(runs: runs) {
        found = words.reduce(0) { $0 + (wordNet.entries(for: $1).isEmpty ? 0 : 1) }
    }
    // Base-form lookups as a resolver asks them: does the word have its own entry, and what are its base forms.
    let forms = median(runs: runs) {
        for word in words { _ = wordNet.forms(of: word) }
    }
    // The whole fallback chain: the exact entry, else the base forms' entries.
    let resolve = median(runs: runs) {
        for word in words where wordNet.entries(for: word).isEmpty {
            for base in wordNet.baseForms(of: word) { _ = wordNet.entries(for: base) }
        }
    }
    let figures = [entries.wall, entries.cpu, forms.wall, forms.cpu, resolve.wall, resolve.cpu].map { String(format: "%.3f", $0) }
    print(([(file as NSString).lastPathComponent, "\(words.count)", "\(found)"] + figures).joined(separator: " "))
}
