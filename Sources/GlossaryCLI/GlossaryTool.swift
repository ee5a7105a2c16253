import Foundation
import GlossaryKit
import GlossaryServer

/// The `glossary` command: picks the subcommand, runs it, returns the exit code.
public enum GlossaryTool {
    static let commands: [any Command.Type] = [
        BuildCommand.self, DeployCommand.self, ServeCommand.self, RenderCommand.self, CheckCommand.self, DefineCommand.self, ImportCommand.self,
        NewCommand.self, ThemeCommand.self,
        CacheCommand.self, ExplainCommand.self, CompletionCommand.self, ManCommand.self, LSPCommand.self, AnnotateCommand.self,
    ]

    /// What glossary is, in one line: `glossary --help`'s first line and the manual page's name line.
    static let summary = "a static site generator for dictionary glossaries"

    /// The manual page's description of the program as a whole.
    static let discussion = """
        glossary renders markdown pages from content/ into a static site in site/: every page with its term references
        ([[word]], [[shown text|word]]) linked, a page per term, an A–Z index and a dictionary search page. A term is
        defined by the team's own entry in content/glossary/, else by the definitions cache (.glossary/cache/), else by the
        dictionary API or WordNet. Every command takes --help; each has its own manual page.
        """

    /// The options `glossary` takes without a command.
    static let options: [(synopsis: [String], help: String)] = [
        (["-h", "--help"], "Show this help"),
        (["-V", "--version"], "Print glossary's version and those of the C libraries it runs with"),
    ]

    public static var usage: String {
        let width = commands.map { $0.name.count }.max() ?? 0
        let lines = commands.map { "  " + $0.name + String(repeating: " ", count: width - $0.name.count + 3) + $0.abstract }
        return """
            glossary — \(summary)

            USAGE: glossary <command> [options]

            COMMANDS:
            \(lines.joined(separator: "\n"))

            Run 'glossary <command> --help' for a command's options, 'glossary --version' for versions.
            """
    }

    public static func run(_ arguments: [String], context: CommandContext = .standard) async -> Int32 {
        let words = Array(arguments.dropFirst())
        guard let name = words.first else {
            context.console.printError(usage)
            return ExitCode.usage
        }
        switch name {
        case "--help", "-h", "help":
            context.console.print(usage)
            return ExitCode.success
        case "--version", "-V", "version":
            context.console.print(versionText)
            return ExitCode.success
        default:
            break
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            context.console.printError("error: unknown command '\(ParsedArguments.shown(name))'\n\n\(usage)")
            return ExitCode.usage
        }
        let rest = Array(words.dropFirst())
        if rest.prefix(while: { $0 != "--" }).contains(where: { $0 == "--help" || $0 == "-h" }) {
            context.console.print(command.usage)
            return ExitCode.success
        }
        do {
            let parsed = try ParsedArguments(rest, options: command.options)
            return try await command.run(parsed, context: context)
        } catch {
            context.console.printError("error: \(error.message)\n\n\(command.usage)")
            return ExitCode.usage
        }
    }

    /// `glossary --version`: the program's version, then those of the C libraries it runs with, one a line.
    static var versionText: String {
        """
        glossary \(GlossaryVersion.current)
        libcmark \(MarkdownDocument.cmarkVersion)
        libcurl \(CurlTransport.curlVersion)
        libmicrohttpd \(HTTPServer.microhttpdVersion)
        libyaml \(YAMLNode.libyamlVersion)
        """
    }
}

/// One subcommand's declarations, for generated help and completions.
extension GlossaryTool {
    static func command(named name: String) -> (any Command.Type)? {
        commands.first { $0.name == name }
    }
}
