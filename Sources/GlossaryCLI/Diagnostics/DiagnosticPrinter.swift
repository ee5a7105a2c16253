import Foundation
import GlossaryKit

/// Prints a command's diagnostics in the format asked for: compiler form with source excerpts and notes
/// (text), JSON lines, or GitHub workflow annotations.
struct DiagnosticPrinter: Sendable {
    var format: DiagnosticFormat = .text
    var showsSourceLines = true
    /// Warnings are printed (and counted) as errors.
    var strict = false
    let console: Console
    private let excerpt: SourceExcerpt

    init(console: Console, root: URL) {
        self.console = console
        excerpt = SourceExcerpt(root: root)
    }

    /// The printer the command line's `--format` and `--no-source-lines` ask for.
    init(_ arguments: ParsedArguments, context: CommandContext, root: URL) throws(UsageError) {
        self.init(console: context.console, root: root)
        if let name = arguments[OptionGroup.format] {
            guard let format = DiagnosticFormat(rawValue: name) else {
                throw UsageError(
                    "--format must be one of \(DiagnosticFormat.allCases.map(\.rawValue).joined(separator: ", ")), not '\(ParsedArguments.shown(name))'")
            }
            self.format = format
        }
        showsSourceLines = !arguments.has(OptionGroup.noSourceLines)
    }

    func print(_ diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics { print(diagnostic) }
    }

    func print(_ diagnostic: Diagnostic) {
        var shown = diagnostic
        if strict && shown.severity == .warning { shown.severity = .error }
        switch format {
        case .text: console.printError(text(shown))
        case .json: console.print(json(shown))
        case .github: console.print(github(shown))
        }
    }

    /// Compiler form, the offending line and a caret under the column, then each note the same way.
    func text(_ diagnostic: Diagnostic) -> String {
        var lines = [diagnostic.description]
        if showsSourceLines, diagnostic.problem.showsSourceLine, let location = diagnostic.location, let excerpt = excerpt.lines(at: location) {
            lines += excerpt
        }
        for note in diagnostic.notes {
            lines.append("\(Diagnostic.prefix(location: note.location, subject: nil))note: \(note.message)")
            if showsSourceLines, note.showsSourceLine, let location = note.location, let excerpt = excerpt.lines(at: location) { lines += excerpt }
        }
        return lines.joined(separator: "\n")
    }

    /// One object per line, keys sorted: `code`, `column`, `file`, `line`, `message`, `notes`, `severity`, `subject`.
    func json(_ diagnostic: Diagnostic) -> String {
        func place(_ location: SourceLocation?) -> [String: Any] {
            guard let location else { return [:] }
            return ["file": location.file, "line": location.line, "column": location.column]
        }
        var object: [String: Any] = ["severity": diagnostic.severity.rawValue, "code": diagnostic.code.rawValue, "message": diagnostic.message]
        object.merge(place(diagnostic.location)) { first, _ in first }
        if let subject = diagnostic.subject { object["subject"] = subject }
        object["notes"] = diagnostic.notes.map { note in place(note.location).merging(["message": note.message]) { first, _ in first } }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// `::warning file=…,line=…,col=…,title=code::message`, escaped as the workflow command syntax requires.
    func github(_ diagnostic: Diagnostic) -> String {
        func data(_ text: String) -> String {
            text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
        }
        func property(_ text: String) -> String {
            data(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
        }
        var properties: [String] = []
        if let location = diagnostic.location {
            properties += ["file=\(property(location.file))", "line=\(location.line)", "col=\(location.column)"]
        }
        properties.append("title=\(property(diagnostic.code.rawValue))")
        var message = diagnostic.message
        if diagnostic.location == nil, let subject = diagnostic.subject { message = "\(subject): \(message)" }
        for note in diagnostic.notes {
            message += "\n" + (note.location.map { "\($0.file):\($0.line):\($0.column): " } ?? "") + "note: " + note.message
        }
        // GitHub's workflow commands are `error`, `warning` and `notice`.
        let command = diagnostic.severity == .note ? "notice" : diagnostic.severity.rawValue
        return "::\(command) \(properties.joined(separator: ","))::\(data(message))"
    }
}
