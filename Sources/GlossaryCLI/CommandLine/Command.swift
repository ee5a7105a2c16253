/// One subcommand: its name, what it does, what it accepts, and how it runs.
///
/// Help (`glossary CMD --help`) and shell completions are generated from these declarations.
protocol Command: Sendable {
    static var name: String { get }
    /// One line for `glossary --help`.
    static var abstract: String { get }
    /// The paragraph under the usage line.
    static var discussion: String { get }
    /// Positional arguments as the usage line shows them: `FILE.md`, `<list|verify|prune>`, `[FILE…]`.
    static var arguments: [Argument] { get }
    static var options: [Option] { get }
    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws(UsageError) -> Int32
}

extension Command {
    static var arguments: [Argument] { [] }

    /// The command's help text, generated from its declarations.
    static var usage: String {
        let synopsis = (["USAGE: glossary", name] + arguments.map(\.synopsis) + (options.isEmpty ? [] : ["[options]"])).joined(separator: " ")
        let rows = options.map { ($0.synopsis, $0.help) } + [("-h, " + OptionGroup.help.synopsis, OptionGroup.help.help)]
        let width = min(24, rows.map(\.0.count).max() ?? 0)
        let optionLines = rows.map { synopsis, help in
            "  " + synopsis + String(repeating: " ", count: max(2, width - synopsis.count + 2)) + help
        }
        return ([synopsis, "", discussion, "", "OPTIONS:"] + optionLines).joined(separator: "\n")
    }
}
