import GlossaryKit

/// Manual pages in roff (the `man` macros), generated from the same declarations as `--help`: `glossary(1)` and one
/// page per command, `glossary-build(1)` and so on.
enum ManPage {
    /// One page: its file name and its roff source.
    struct Page: Equatable {
        var fileName: String
        var text: String
    }

    /// Every page: `glossary.1`, then one per command in the order `glossary --help` lists them.
    static func all(_ commands: [any Command.Type] = GlossaryTool.commands) -> [Page] {
        [main(commands)] + commands.map { page(for: $0) }
    }

    /// `glossary(1)`: what the program is, its commands, its own options and exit codes.
    static func main(_ commands: [any Command.Type]) -> Page {
        var lines = header(title: "GLOSSARY")
        lines += [".SH NAME", "glossary \\- " + escaped(GlossaryTool.summary)]
        lines += [".SH SYNOPSIS", ".B glossary", "\\fIcommand\\fR [\\fIoptions\\fR]", ".br", ".B glossary", "\\-\\-help | \\-\\-version"]
        lines += [".SH DESCRIPTION"] + paragraphs(GlossaryTool.discussion)
        lines.append(".SH COMMANDS")
        for command in commands {
            lines += [".TP", "\\fBglossary\\-\(escaped(command.name))\\fR(1)", escaped(command.abstract)]
        }
        lines.append(".SH OPTIONS")
        for (synopsis, help) in GlossaryTool.options {
            lines += [".TP", synopsis.map(bold).joined(separator: ", "), escaped(help)]
        }
        lines.append(".SH EXIT STATUS")
        for (code, meaning) in ExitCode.meanings {
            lines += [".TP", bold(code), escaped(meaning)]
        }
        lines += [".SH SEE ALSO"] + [commands.map { "\\fBglossary\\-\(escaped($0.name))\\fR(1)" }.joined(separator: ", ")]
        return Page(fileName: "glossary.1", text: text(lines))
    }

    /// `glossary-NAME(1)`: the command's usage, its discussion and every option with its help.
    static func page(for command: any Command.Type) -> Page {
        let name = "glossary-" + command.name
        var lines = header(title: name.uppercased())
        lines += [".SH NAME", escaped(name) + " \\- " + escaped(command.abstract)]
        let synopsis = command.arguments.map { escaped($0.synopsis) } + (command.options.isEmpty ? [] : ["[\\fIoptions\\fR]"])
        lines += [".SH SYNOPSIS", ".B glossary \(escaped(command.name))"] + (synopsis.isEmpty ? [] : [synopsis.joined(separator: " ")])
        lines += [".SH DESCRIPTION"] + paragraphs(command.discussion)
        lines.append(".SH OPTIONS")
        for option in command.options {
            lines += [".TP", optionSynopsis(option), escaped(option.help)]
        }
        lines += [".TP", bold("-h") + ", " + bold(OptionGroup.help.name), escaped(OptionGroup.help.help)]
        lines += [".SH SEE ALSO", "\\fBglossary\\fR(1)"]
        return Page(fileName: name + ".1", text: text(lines))
    }

    /// The option as `--help` shows it, the name in bold and the placeholder in italics: `--poll[=MS]`.
    static func optionSynopsis(_ option: Option) -> String {
        switch option.kind {
        case .flag: bold(option.name)
        case .value(let placeholder): bold(option.name) + " " + italic(placeholder)
        case .optionalValue(let placeholder): bold(option.name) + "[=" + italic(placeholder) + "]"
        }
    }

    /// Text made safe for a roff text line: a backslash prints as itself, every hyphen as a minus sign (so
    /// `--offline` can be copied from the page), and a line starting with `.` or `'` is text, not a request.
    /// Dashes and arrows become roff's named characters, which man shows as `-`, `--` and `->` where the locale
    /// is ASCII; an ellipsis becomes three dots.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\\": result += "\\e"
            case "-": result += "\\-"
            case "\u{2013}": result += "\\(en"
            case "\u{2014}": result += "\\(em"
            case "\u{2192}": result += "\\(->"
            case "\u{2026}": result += "..."
            default: result.append(character)
            }
        }
        if result.hasPrefix(".") || result.hasPrefix("'") { result = "\\&" + result }
        return result
    }

    /// Discussion text as roff: paragraphs split at blank lines; lines indented by two spaces or more (examples,
    /// lists of subcommands or files) are kept as they are, indented; other lines are filled.
    static func paragraphs(_ text: String) -> [String] {
        var lines: [String] = []
        var inExample = false
        var startsParagraph = true
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let isExample = line.hasPrefix("  ")
            if line.allSatisfy(\.isWhitespace) {
                if inExample { lines += [".fi", ".RE"] }
                inExample = false
                startsParagraph = true
                continue
            }
            if startsParagraph {
                lines.append(".PP")
                startsParagraph = false
            }
            if isExample != inExample {
                lines += isExample ? [".RS 2", ".nf"] : [".fi", ".RE"]
                inExample = isExample
            }
            let content = isExample ? line.dropFirst(2) : line.drop(while: \.isWhitespace)
            // In a no-fill block a leading space is kept; `\&` keeps it from being read as a break request.
            lines.append(content.first == " " ? "\\&" + escaped(String(content)) : escaped(String(content)))
        }
        if inExample { lines += [".fi", ".RE"] }
        return lines
    }

    private static func header(title: String) -> [String] {
        [
            ".\\\" Generated by 'glossary man' from the declarations 'glossary --help' shows; do not edit.",
            ".TH \"\(escaped(title))\" \"1\" \"\" \"glossary \(GlossaryVersion.current)\" \"Glossary Manual\"",
            // No hyphenation and a ragged right edge: option names stay whole and can be copied.
            ".nh",
            ".ad l",
        ]
    }

    private static func bold(_ text: String) -> String { "\\fB" + escaped(text) + "\\fR" }
    private static func italic(_ text: String) -> String { "\\fI" + escaped(text) + "\\fR" }
    private static func text(_ lines: [String]) -> String { lines.joined(separator: "\n") + "\n" }
}
