import Foundation
import GlossaryKit
import GlossaryServer

/// The `glossary` command: picks the subcommand, runs it, returns the exit code.
public enum GlossaryTool {
    public static let usage = """
        glossary — a static site generator for dictionary glossaries

        USAGE: glossary <command> [options]

        COMMANDS:
          build    Build the site into site/
          serve    Build, serve and live-reload the site while you write
          render   Print one page's HTML fragment on stdout
          check    Report unresolved terms and broken internal links
          new      Create a new glossary site
          cache    List, verify or prune the definitions cache
          theme    Copy the built-in theme's files into the site to customise them

        Run 'glossary <command> --help' for a command's options.
        """

    /// `glossary --version`: the program's version, then those of the C libraries it runs with, one a line.
    static var versions: String {
        """
        glossary \(GlossaryVersion.current)
        libcmark \(MarkdownDocument.cmarkVersion)
        libcurl \(CurlTransport.curlVersion)
        libmicrohttpd \(HTTPServer.microhttpdVersion)
        libyaml \(YAMLNode.libyamlVersion)
        """
    }

    /// Exit codes, as DESIGN.md fixes them.
    public enum ExitCode {
        public static let success: Int32 = 0
        public static let failure: Int32 = 1
        public static let usage: Int32 = 64
        public static let unavailable: Int32 = 69
    }

    static let commands: [any Command.Type] = [
        BuildCommand.self, RenderCommand.self, CheckCommand.self, NewCommand.self, CacheCommand.self, ServeCommand.self, ThemeCommand.self,
    ]

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
            context.console.print(versions)
            return ExitCode.success
        default:
            break
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            context.console.printError("error: unknown command '\(name)'\n\n\(usage)")
            return ExitCode.usage
        }
        let rest = Array(words.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            context.console.print(command.usage)
            return ExitCode.success
        }
        do {
            return try await command.run(rest, context: context)
        } catch {
            context.console.printError("error: \(error.message)\n\n\(command.usage)")
            return ExitCode.usage
        }
    }
}

/// One subcommand: its name, its help text and what it does.
protocol Command: Sendable {
    static var name: String { get }
    static var usage: String { get }
    static func run(_ arguments: [String], context: CommandContext) async throws(UsageError) -> Int32
}

/// What commands need from the outside world, injected so tests can substitute it.
public struct CommandContext: Sendable {
    public var console: Console
    public var environment: [String: String]
    public var currentDirectory: URL
    /// Makes the dictionary client for a build; nil means terms are never fetched.
    public var makeFetcher: @Sendable (SiteConfig, BuildOptions) -> (any DefinitionFetcher)?

    public init(console: Console, environment: [String: String], currentDirectory: URL, makeFetcher: @escaping @Sendable (SiteConfig, BuildOptions) -> (any DefinitionFetcher)?) {
        self.console = console
        self.environment = environment
        self.currentDirectory = currentDirectory
        self.makeFetcher = makeFetcher
    }

    public static var standard: CommandContext {
        CommandContext(
            console: .standard, environment: ProcessInfo.processInfo.environment,
            currentDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true),
            makeFetcher: DefaultFetcher.make)
    }

    func resolve(_ path: String?) -> URL {
        guard let path else { return currentDirectory }
        return URL(fileURLWithPath: path, relativeTo: currentDirectory).standardizedFileURL
    }
}
