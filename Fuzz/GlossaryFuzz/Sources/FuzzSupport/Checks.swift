import GlossaryKit

/// Invariants every target checks on what the engine reports.
public enum Checks {
    /// The lines of `text` as cmark and `FrontMatter` count them: LF, CRLF and a lone CR end a line. With
    /// `yamlBreaks`, as libyaml counts them: NEL, LS and PS end a line too (YAML 1.1), so no location in a
    /// file can lie beyond that count.
    public static func lineCount(_ text: String, yamlBreaks: Bool = false) -> Int {
        var count = 1
        var previous: Unicode.Scalar = "\0"
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n" where previous == "\r": break
            case "\n", "\r": count += 1
            case "\u{85}" where yamlBreaks, "\u{2028}" where yamlBreaks, "\u{2029}" where yamlBreaks: count += 1
            default: break
            }
            previous = scalar
        }
        return count
    }

    /// The lines of `text` without their breaks (LF, CRLF or a lone CR, as cmark reads them), as scalars.
    public static func lines(_ text: String) -> [[Unicode.Scalar]] {
        var lines: [[Unicode.Scalar]] = [[]]
        var previous: Unicode.Scalar = "\0"
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n" where previous == "\r": break
            case "\n", "\r": lines.append([])
            default: lines[lines.count - 1].append(scalar)
            }
            previous = scalar
        }
        return lines
    }

    /// A diagnostic about `file` points inside it, and its text can't forge a line of output: every control
    /// character from outside is escaped.
    public static func wellFormed(_ diagnostic: Diagnostic, file: String, lines: Int) {
        let text = diagnostic.description
        Fuzzer.expect(!text.unicodeScalars.contains(where: DiagnosticText.isControl), "unescaped control character in \(text.debugDescription)")
        Fuzzer.expect(!diagnostic.message.isEmpty, "empty message for \(diagnostic.problem)")
        if let location = diagnostic.location {
            wellPlaced(location, file: file, lines: lines, in: text)
        }
        for note in diagnostic.notes {
            Fuzzer.expect(
                !note.message.unicodeScalars.contains(where: DiagnosticText.isControl), "unescaped control character in \(note.message.debugDescription)")
            if let location = note.location { wellPlaced(location, file: file, lines: lines, in: note.message) }
        }
    }

    /// A diagnostic without a file (network problems): its text escapes control characters too.
    public static func wellFormed(_ diagnostic: Diagnostic) {
        let text = diagnostic.description
        Fuzzer.expect(!text.unicodeScalars.contains(where: DiagnosticText.isControl), "unescaped control character in \(text.debugDescription)")
        Fuzzer.expect(!diagnostic.message.isEmpty, "empty message for \(diagnostic.problem)")
    }

    private static func wellPlaced(_ location: SourceLocation, file: String, lines: Int, in text: String) {
        Fuzzer.expect(location.file == file, "diagnostic in \(location.file), expected \(file): \(text)")
        Fuzzer.expect((1...lines).contains(location.line), "line \(location.line) of a \(lines)-line file: \(text)")
        Fuzzer.expect(location.column >= 1, "column \(location.column): \(text)")
    }
}
