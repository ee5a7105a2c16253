import FuzzSupport

@testable import GlossaryKit

// The Mustache engine: parsing, partials and template inheritance, rendering.
//
// The input is cut at every 0x1E byte (the ASCII record separator, which templates don't use): the first
// part is the context as JSON (an invalid one gives a fixed context holding every kind of value), the
// second the template rendered, and the rest partials and parents named "a", "b", "c", ….

let separator: UInt8 = 0x1E
let partialNames = (UInt8(ascii: "a")...UInt8(ascii: "z")).map { String(UnicodeScalar($0)) }

/// Lower than a build's: runaway templates are common here, and at a build's limits each takes seconds.
let limits = MustacheRenderer.Limits(sectionRenders: 100_000, outputBytes: 4 << 20)

/// Every kind of value, under the names the partials have too, so `{{#a}}`, `{{>a}}` and `{{a.b}}` all mean something.
let defaultContext: MustacheValue = [
    "a": "<b>&\"'</b>", "b": true, "c": [["a": 1, "b": "two"], ["a": false], ["a": [1, 2]]], "d": ["a": ["b": "deep"], "c": 2.5],
    "e": 0, "f": -1.5, "g": [], "h": "", "i": .null, "j": false, "k": ["x", "y"], "l": ["a": "inner", "b": ["c": true]],
]

/// A syntax error names its template and points inside it.
func wellPlaced(_ error: MustacheError, in source: String) {
    let lines = source.utf8.count { $0 == UInt8(ascii: "\n") } + 1
    Fuzzer.expect(!error.message.isEmpty, "empty message: \(error)")
    Fuzzer.expect((1...lines).contains(error.line), "line \(error.line) of \(lines): \(error)")
    Fuzzer.expect(error.column >= 1, "column \(error.column): \(error)")
    let diagnostic = Diagnostic(.templateSyntax(detail: error.message), at: SourceLocation(file: error.templateName, line: error.line, column: error.column))
    Fuzzer.expect(!diagnostic.description.unicodeScalars.contains(where: DiagnosticText.isControl), "unescaped: \(diagnostic.description.debugDescription)")
}

extension MustacheValue {
    /// The template value of parsed JSON, as a theme's data would be.
    init(parsed json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .number(let text): self = Int(text).map(MustacheValue.int) ?? .double(Double(text) ?? 0)
        case .string(let text): self = .string(text)
        case .array(let items): self = .array(items.map(MustacheValue.init(parsed:)))
        case .object(let members): self = .object(MustacheObject(members.map { ($0.key, MustacheValue(parsed: $0.value)) }))
        }
    }
}

Fuzzer.run { bytes in
    let parts = bytes.split(separator: separator, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    let context = parts.count > 1 ? ((try? JSONParser.parse(Array(parts[0].utf8))).map(MustacheValue.init(parsed:)) ?? defaultContext) : defaultContext
    let main = parts.count > 1 ? parts[1] : parts[0]
    var sources: [String: String] = [:]
    for (index, source) in parts.dropFirst(2).prefix(partialNames.count).enumerated() {
        sources[partialNames[index]] = source
    }

    let template: MustacheTemplate
    do throws(MustacheError) {
        template = try MustacheTemplate(main, name: "main.mustache")
    } catch {
        wellPlaced(error, in: main)
        return
    }
    let partials: MustachePartials
    do throws(MustacheError) {
        partials = try MustachePartials(sources: sources)
    } catch {
        wellPlaced(error, in: sources[error.templateName] ?? "")
        return
    }
    let output = template.render(context, partials: partials, limits: limits)
    // Past the limit only the text being written can add to it: a line and its indentation (partials nested up
    // to 100 deep, each indenting by at most the whole input).
    Fuzzer.expect(output.utf8.count <= limits.outputBytes + 101 * bytes.count, "\(output.utf8.count) bytes of output")
    Fuzzer.expect(template.render(context, partials: partials, limits: limits) == output, "a second render differs")
}
