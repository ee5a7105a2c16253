import Foundation
import GlossaryKit
import TestSupport
import Testing

@testable import GlossaryCLI

/// The manual pages `glossary man` writes: made from the commands' declarations, valid roff that man(1) shows
/// as the declarations say.
@Suite struct ManPageTests {
    /// A command whose text starts lines with `.` and `'` and holds backslashes, as no real command's does yet.
    struct AwkwardCommand: Command {
        static let name = "awkward"
        static let abstract = "Say .TH and \\fB out loud"
        static let discussion = """
            The cache lives in
            .glossary/cache, and
            'quoted' lines start with an apostrophe; C:\\new\\fB is a path.

              .hidden  an indented line starting with a dot
            """
        static let options = [
            Option.value("--dot", ".NAME", ".SH is not a section: \\n is not a newline"),
            Option.optionalValue("--be-quiet", "MS", "'like this'"),
            Option.flag("--typography", "A\u{2013}Z \u{2014} a \u{2192} b, and so on\u{2026}"),
        ]

        static func run(_ arguments: ParsedArguments, context: CommandContext) async throws(UsageError) -> Int32 { 0 }
    }

    /// man(1)'s text as one line, runs of white space made one space: an option's help follows its name whether
    /// man puts it on the same line (a short name) or the next.
    static func flattened(_ text: String) -> String {
        " " + text.split(whereSeparator: \.isWhitespace).joined(separator: " ") + " "
    }

    /// Formats roff with man(1), as a reader sees it: no pager, plain text, wide enough not to wrap, and in the C
    /// locale, so a character that has no ASCII form is a warning.
    static func shown(_ roff: String) async throws -> (text: String, warnings: String) {
        let folder = try InlineSite.temporaryFolder("glossary-man")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("page.1")
        try Data(roff.utf8).write(to: file)
        let result = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/man"), ["--warnings", "-l", file.path],
            environment: ["PATH": "/usr/bin:/bin", "MANWIDTH": "250", "MANPAGER": "cat"])
        #expect(result.status == 0, "\(result.stderr)")
        return (result.stdout, result.stderr)
    }

    @Test(arguments: GlossaryTool.commands.map { $0.name })
    func everyOptionOfTheCommandIsOnItsPage(_ name: String) throws {
        let command = try #require(GlossaryTool.command(named: name))
        let page = ManPage.page(for: command)
        #expect(page.fileName == "glossary-\(name).1")
        #expect(page.text.contains(".SH NAME\nglossary\\-\(ManPage.escaped(name)) \\- \(ManPage.escaped(command.abstract))\n"))
        for option in command.options {
            #expect(page.text.contains(".TP\n\(ManPage.optionSynopsis(option))\n\(ManPage.escaped(option.help))\n"), "\(option.name)")
        }
        #expect(page.text.contains(".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nShow this help\n"))
        #expect(page.text.components(separatedBy: ".TP\n").count - 1 == command.options.count + 1, "one entry per option and --help")
    }

    @Test func theMainPageListsEveryCommandWithItsAbstract() {
        let page = ManPage.all()[0]
        #expect(page.fileName == "glossary.1")
        for command in GlossaryTool.commands {
            #expect(page.text.contains(".TP\n\\fBglossary\\-\(ManPage.escaped(command.name))\\fR(1)\n\(ManPage.escaped(command.abstract))\n"))
        }
        #expect(page.text.contains(".TH \"GLOSSARY\" \"1\" \"\" \"glossary \(GlossaryVersion.current)\""))
        #expect(ManPage.all().map(\.fileName) == ["glossary.1"] + GlossaryTool.commands.map { "glossary-\($0.name).1" })
    }

    @Test func textIsEscaped() {
        #expect(ManPage.escaped(".glossary/cache") == "\\&.glossary/cache")
        #expect(ManPage.escaped("'quoted'") == "\\&'quoted'")
        #expect(ManPage.escaped("a.b 'c'") == "a.b 'c'")
        #expect(ManPage.escaped("C:\\new\\fB") == "C:\\enew\\efB")
        #expect(ManPage.escaped("--no-source-lines") == "\\-\\-no\\-source\\-lines")
        #expect(ManPage.escaped("A\u{2013}Z \u{2014} a \u{2192} b\u{2026}") == "A\\(enZ \\(em a \\(-> b...")
        #expect(ManPage.escaped("\u{2026} and more") == "\\&... and more")
    }

    @Test func discussionParagraphsAndIndentedLinesBecomeRoff() {
        #expect(
            ManPage.paragraphs(AwkwardCommand.discussion) == [
                ".PP", "The cache lives in", "\\&.glossary/cache, and", "\\&'quoted' lines start with an apostrophe; C:\\enew\\efB is a path.",
                ".PP", ".RS 2", ".nf", "\\&.hidden  an indented line starting with a dot", ".fi", ".RE",
            ])
    }

    /// What a leading `.` or `'` or a backslash would do unescaped: swallow the line as a request or an escape.
    @Test func manShowsAwkwardTextAsWritten() async throws {
        let (text, warnings) = try await Self.shown(ManPage.page(for: AwkwardCommand.self).text)
        #expect(warnings.isEmpty, "\(warnings)")
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains("glossary-awkward - Say .TH and \\fB out loud"), "\(text)")
        #expect(
            lines.contains("The cache lives in .glossary/cache, and 'quoted' lines start with an apostrophe; C:\\new\\fB is a path."), "\(text)")
        #expect(lines.contains(".hidden  an indented line starting with a dot"), "\(text)")
        #expect(
            Self.flattened(text).contains(
                " --dot .NAME .SH is not a section: \\n is not a newline --be-quiet[=MS] 'like this' --typography A-Z -- a -> b, and so on... "), "\(text)")
    }

    @Test(arguments: ManPage.all().map { $0.fileName })
    func everyPageFormatsWithoutWarningsAndShowsEveryOption(_ fileName: String) async throws {
        let page = try #require(ManPage.all().first { $0.fileName == fileName })
        let (text, warnings) = try await Self.shown(page.text)
        #expect(warnings.isEmpty, "\(warnings)")
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let command = GlossaryTool.commands.first(where: { "glossary-\($0.name).1" == fileName }) else {
            #expect(lines.contains("glossary - \(GlossaryTool.summary)"))
            for command in GlossaryTool.commands { #expect(lines.contains("glossary-\(command.name)(1)"), "\(command.name)") }
            return
        }
        #expect(lines.contains("glossary-\(command.name) - \(command.abstract)"))
        let shown = Self.flattened(text)
        for option in command.options + [OptionGroup.help] {
            let synopsis = option == OptionGroup.help ? "-h, --help" : option.synopsis
            #expect(shown.contains(" \(synopsis) \(option.help) "), "\(option.name)")
        }
    }

    @Test func manWritesEveryPageIntoTheFolder() async throws {
        let folder = try InlineSite.temporaryFolder("glossary-man")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await TestSite.run(["man", "pages/man1"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "Wrote \(GlossaryTool.commands.count + 1) manual pages into pages/man1.\n")
        let written = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("pages/man1").path).sorted()
        #expect(written == ManPage.all().map(\.fileName).sorted())
        let build = try String(contentsOf: folder.appendingPathComponent("pages/man1/glossary-build.1"), encoding: .utf8)
        #expect(build == ManPage.page(for: BuildCommand.self).text)
    }

    @Test func manHasItsOwnHelpAndCompletion() async throws {
        let folder = FileManager.default.temporaryDirectory
        let help = try await TestSite.run(["man", "--help"], in: folder)
        #expect(help.status == 0)
        #expect(help.stdout == ManCommand.usage + "\n")
        #expect(help.stdout.hasPrefix("USAGE: glossary man DIR\n\nWrites glossary.1 and a page for each command"))
        let bash = try await TestSite.run(["completion", "bash"], in: folder)
        #expect(
            bash.stdout.contains(
                """
                    man)
                        if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '--help' -- "$cur")); return; fi
                        COMPREPLY=($(compgen -d -- "$cur"))
                        ;;

                """), "bash completes man's options and a folder for DIR")
    }

    @Test func manWithoutAFolderIsAUsageError() async throws {
        let result = try await TestSite.run(["man"], in: FileManager.default.temporaryDirectory)
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("error: missing DIR\n\nUSAGE: glossary man DIR\n"))
    }
}
