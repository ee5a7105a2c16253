// Pipe-table detection speed on real paragraphs: how fast `PipeTable` says "no table" to a corpus's paragraphs,
// and how fast it splits and renders table paragraphs.
//
//   pipetable-bench [--runs N] [--tables N] CONTENT...   CONTENT: folders of markdown pages (gen-corpus's content/)
//
// Each page is parsed by libcmark once, outside the timing, and also as a copy with its text lines wrapped at 80
// columns (pages written with wrapped lines give paragraphs of many lines, the case the cheap test is for). Timed:
// `mayStart` alone, the path the build takes (`mayStart`, then `ParagraphLine.lines` and `split` when it passes),
// and `lines` + `split` without the cheap test; then generated table paragraphs: `lines` + `split`, `html` with
// escaped text for cells, and each cell rendered by libcmark as the build's cell renderer does. bench/pipetable-bench.sh
// builds this in release mode and feeds it gen-corpus's pages.
import CCmark
import Foundation
import GlossaryKit

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("pipetable-bench: error: \(message)\n".utf8))
    exit(1)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var runs = 7
var tableCount = 2000
var folders: [String] = []
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--runs": runs = Int(arguments.isEmpty ? "" : arguments.removeFirst()) ?? 0
    case "--tables": tableCount = Int(arguments.isEmpty ? "" : arguments.removeFirst()) ?? 0
    default: folders.append(argument)
    }
}
guard runs > 0, tableCount > 0, !folders.isEmpty else { fail("usage: pipetable-bench [--runs N] [--tables N] CONTENT...") }

/// One paragraph as the build would hand it over: its page's lines and cmark's positions.
struct Paragraph {
    var page: Int
    var startLine: Int
    var startColumn: Int
    var endLine: Int
    var containers: [MarkdownContainer]
}

struct Corpus {
    var pages: [[[UInt8]]] = []
    var paragraphs: [Paragraph] = []

    mutating func add(_ markdown: String) {
        let page = pages.count
        pages.append(markdown.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { Array($0) })
        var source = markdown
        let root = source.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { cmark_parse_document($0.baseAddress, $0.count, CMARK_OPT_DEFAULT)! }
        }
        defer { cmark_node_free(root) }
        let iterator = cmark_iter_new(root)
        defer { cmark_iter_free(iterator) }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator), cmark_node_get_type(node) == CMARK_NODE_PARAGRAPH else {
                continue
            }
            var containers: [MarkdownContainer] = []
            var ancestor = cmark_node_parent(node)
            while let current = ancestor {
                let line = Int(cmark_node_get_start_line(current))
                let column = Int(cmark_node_get_start_column(current))
                switch cmark_node_get_type(current) {
                case CMARK_NODE_BLOCK_QUOTE: containers.insert(.blockQuote(line: line, column: column), at: 0)
                case CMARK_NODE_ITEM: containers.insert(.listItem(line: line, column: column), at: 0)
                default: break
                }
                ancestor = cmark_node_parent(current)
            }
            paragraphs.append(
                Paragraph(
                    page: page, startLine: Int(cmark_node_get_start_line(node)), startColumn: Int(cmark_node_get_start_column(node)),
                    endLine: Int(cmark_node_get_end_line(node)), containers: containers))
        }
    }

    func lines(_ paragraph: Paragraph) -> [ParagraphLine] {
        ParagraphLine.lines(
            in: pages[paragraph.page], startLine: paragraph.startLine, startColumn: paragraph.startColumn, endLine: paragraph.endLine,
            containers: paragraph.containers)
    }
}

/// The page with its prose lines (not headings, code, lists or quotes) wrapped at 80 columns.
func wrapped(_ markdown: String) -> String {
    var output: [Substring] = []
    var inFence = false
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.hasPrefix("```") { inFence.toggle() }
        guard !inFence, line.count > 80, let first = line.first, first.isLetter || first == "*" || first == "[" else {
            output.append(line)
            continue
        }
        var current: Substring = ""
        for word in line.split(separator: " ") {
            if !current.isEmpty, current.count + 1 + word.count > 80 {
                output.append(current)
                current = ""
            }
            current = current.isEmpty ? word : Substring(current + " " + word)
        }
        output.append(current)
    }
    return output.joined(separator: "\n")
}

func withoutFrontMatter(_ text: String) -> String {
    guard text.hasPrefix("---\n"), let end = text.range(of: "\n---\n", range: text.index(text.startIndex, offsetBy: 3)..<text.endIndex) else {
        return text
    }
    return String(text[end.upperBound...])
}

/// Median seconds of `runs` runs of `body`.
@MainActor func median(_ body: () -> Int) -> (seconds: Double, result: Int) {
    var times: [Double] = []
    var result = 0
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        result = body()
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    return (times.sorted()[times.count / 2], result)
}

@MainActor func report(_ name: String, count: Int, _ body: () -> Int) {
    let (seconds, result) = median(body)
    let rate = Double(count) / seconds
    let label = name.padding(toLength: 36, withPad: " ", startingAt: 0)
    print(label + String(format: "%9d in %8.4f s  %10.0f per second  (result %d)", count, seconds, rate, result))
}

var plain = Corpus()
var wrappedCorpus = Corpus()
for folder in folders {
    guard let enumerator = FileManager.default.enumerator(atPath: folder) else { fail("cannot read \(folder)") }
    for case let path as String in enumerator where path.hasSuffix(".md") {
        guard let text = try? String(contentsOfFile: folder + "/" + path, encoding: .utf8) else { fail("cannot read \(path)") }
        let body = withoutFrontMatter(text)
        plain.add(body)
        wrappedCorpus.add(wrapped(body))
    }
}
let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ")
print("pages: \(plain.pages.count), runs: \(runs), load average: \(load ?? "?")")

for (name, corpus) in [("corpus", plain), ("corpus wrapped at 80", wrappedCorpus)] {
    let lineCount = corpus.paragraphs.reduce(0) { $0 + $1.endLine - $1.startLine + 1 }
    print("\(name): \(corpus.paragraphs.count) paragraphs, \(lineCount) lines")
    report("  mayStart", count: corpus.paragraphs.count) {
        corpus.paragraphs.reduce(0) { $0 + (PipeTable.mayStart(in: corpus.pages[$1.page], lines: $1.startLine...$1.endLine) ? 1 : 0) }
    }
    report("  mayStart, then lines + split", count: corpus.paragraphs.count) {
        corpus.paragraphs.reduce(0) { count, paragraph in
            guard PipeTable.mayStart(in: corpus.pages[paragraph.page], lines: paragraph.startLine...paragraph.endLine) else { return count }
            return count + (PipeTable.split(corpus.lines(paragraph), file: "p.md") == nil ? 0 : 1)
        }
    }
    report("  lines + split without mayStart", count: corpus.paragraphs.count) {
        corpus.paragraphs.reduce(0) { $0 + (PipeTable.split(corpus.lines($1), file: "p.md") == nil ? 0 : 1) }
    }
}

// Table paragraphs as documentation pages write them: 12 body rows of 4 columns, every third after a line of
// text, every fourth in a list item.
var tables = Corpus()
for index in 0..<tableCount {
    let indent = index % 4 == 3 ? "  " : ""
    var lines = index % 4 == 3 ? ["- Options:"] : []
    if index % 3 == 0 { lines.append(indent + "The settings and what they do:") }
    lines.append(indent + "| Setting | Default | Meaning | See |")
    lines.append(indent + "|:--------|:-------:|--------:|-----|")
    for row in 0..<12 {
        lines.append(indent + "| `option.\(row)` | *\(row * 7)* | the \\| \(index) [[term\(row)]] value | [link](../page/\(row).md) |")
    }
    tables.add(lines.joined(separator: "\n") + "\n")
}
let splits = tables.paragraphs.compactMap { PipeTable.split(tables.lines($0), file: "p.md") }
guard splits.count == tableCount else { fail("\(splits.count) of \(tableCount) generated tables found") }
let cells = splits.reduce(0) { $0 + ($1.table.rows.count + 1) * $1.table.alignments.count }
print("tables: \(tableCount) paragraphs, \(cells) cells")
report("  mayStart, then lines + split", count: tableCount) {
    tables.paragraphs.reduce(0) { count, paragraph in
        guard PipeTable.mayStart(in: tables.pages[paragraph.page], lines: paragraph.startLine...paragraph.endLine) else { return count }
        return count + (PipeTable.split(tables.lines(paragraph), file: "p.md")?.table.rows.count ?? 0)
    }
}
report("  html, cells as escaped text", count: tableCount) {
    splits.reduce(0) { $0 + $1.table.html { HTML.escape($0.text) }.utf8.count }
}

/// A cell through libcmark as the build's renderer does it: a no-break space in front, the paragraph's HTML.
func cmarkCell(_ text: String) -> Int {
    var source = "\u{A0}" + text
    let root = source.withUTF8 { buffer in
        buffer.withMemoryRebound(to: CChar.self) { cmark_parse_document($0.baseAddress, $0.count, CMARK_OPT_DEFAULT)! }
    }
    defer { cmark_node_free(root) }
    guard let html = cmark_render_html(root, CMARK_OPT_DEFAULT) else { return 0 }
    defer { free(html) }
    return strlen(html)
}
report("  html, cells rendered by libcmark", count: tableCount) {
    splits.reduce(0) { $0 + $1.table.html { String(cmarkCell($0.text)) }.utf8.count }
}
