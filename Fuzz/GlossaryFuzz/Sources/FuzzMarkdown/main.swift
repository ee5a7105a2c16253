import FuzzSupport
import GlossaryKit

// A page's markdown: libcmark's parse, the term reference scanner and the placeholders it puts in the tree
// (MarkdownDocument), then the HTML with every reference wrapped and every link rewritten, twice.

let file = "content/page.md"

extension String {
    /// The numbers of the `<ref-N>` and `</ref-N>` markers, in order.
    func markers() -> (opened: [Int], closed: [Int]) {
        var opened: [Int] = []
        var closed: [Int] = []
        let bytes = Array(utf8)
        var index = 0
        while let start = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
            var cursor = start + 1
            let closing = cursor < bytes.count && bytes[cursor] == UInt8(ascii: "/")
            if closing { cursor += 1 }
            index = cursor
            guard bytes[cursor...].starts(with: "ref-".utf8) else { continue }
            cursor += 4
            var number = 0
            let digitsStart = cursor
            while cursor < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[cursor]) {
                number = number * 10 + Int(bytes[cursor] - UInt8(ascii: "0"))
                cursor += 1
            }
            guard cursor > digitsStart, cursor < bytes.count, bytes[cursor] == UInt8(ascii: ">") else { continue }
            if closing { closed.append(number) } else { opened.append(number) }
            index = cursor
        }
        return (opened, closed)
    }
}

Fuzzer.run { bytes in
    let markdown = String(decoding: bytes, as: UTF8.self)
    let lines = Checks.lineCount(markdown)
    let document = MarkdownDocument(markdown: markdown, file: file)
    for diagnostic in document.diagnostics { Checks.wellFormed(diagnostic, file: file, lines: lines) }

    let sourceLines = Checks.lines(markdown)
    for reference in document.references {
        Fuzzer.expect(!reference.shown.isEmpty && !reference.word.isEmpty, "empty reference \(reference)")
        Fuzzer.expect(reference.location.file == file, "reference in \(reference.location.file)")
        Fuzzer.expect((1...lines).contains(reference.location.line), "reference on line \(reference.location.line) of \(lines)")
        let line = sourceLines[reference.location.line - 1]
        Fuzzer.expect(
            (1...line.count + 1).contains(reference.location.column),
            "reference at column \(reference.location.column) of a \(line.count)-scalar line")
    }
    for link in document.links {
        Fuzzer.expect((1...lines).contains(link.location.line), "link on line \(link.location.line) of \(lines)")
    }
    Fuzzer.expect(zip(document.references, document.references.dropFirst()).allSatisfy { $0.location <= $1.location }, "references out of order")

    // Every reference renders its wrapper exactly once; markers can't come from the page, whose `<` cmark escapes.
    let wrappers = document.references.indices.map { MarkdownDocument.Wrapper(open: "<ref-\($0)>", close: "</ref-\($0)>") }
    let rewritten = document.renderHTML(wrappers: wrappers, destinations: document.links.map { "/base" + $0.destination })
    let markers = rewritten.markers()
    Fuzzer.expect(
        markers.opened.sorted() == Array(document.references.indices) && markers.closed.sorted() == Array(document.references.indices),
        "wrappers rendered \(markers), for \(document.references.count) references")

    // Rendering starts from the tree as parsed: again without rewriting gives what a fresh document gives.
    let asWritten = [String?](repeating: nil, count: document.links.count)
    let plain = document.renderHTML(wrappers: wrappers, destinations: asWritten)
    let fresh = MarkdownDocument(markdown: markdown, file: file).renderHTML(wrappers: wrappers, destinations: asWritten)
    Fuzzer.expect(plain == fresh, "a second render differs from a fresh document's")
    _ = document.firstParagraphText()
}
