/// `glossary completion bash|zsh|fish`: a completion script for the commands and their options, made
/// from the same declarations as `--help`.
struct CompletionCommand: Command {
    static let name = "completion"
    static let abstract = "Print a shell completion script (bash, zsh or fish)"
    static let discussion = """
        Prints a script that completes glossary's commands, options and their values. Install it with, e.g.:
          glossary completion bash > ~/.local/share/bash-completion/completions/glossary
          glossary completion zsh > "${fpath[1]}/_glossary"
          glossary completion fish > ~/.config/fish/completions/glossary.fish
        """
    static let shells = ["bash", "zsh", "fish"]
    static let arguments = [Argument(synopsis: "<bash|zsh|fish>", completion: .words(shells))]
    static let options: [Option] = []

    static func run(_ parsed: ParsedArguments, context: CommandContext) async throws(UsageError) -> Int32 {
        guard parsed.positional.count == 1, let shell = parsed.positional.first else { throw UsageError("name a shell: bash, zsh or fish") }
        let commands = GlossaryTool.commands.map { CompletionScript.Entry(name: $0.name, abstract: $0.abstract, options: $0.options, arguments: $0.arguments) }
        switch shell {
        case "bash": context.console.out(CompletionScript.bash(commands))
        case "zsh": context.console.out(CompletionScript.zsh(commands))
        case "fish": context.console.out(CompletionScript.fish(commands))
        default: throw UsageError("unknown shell '\(ParsedArguments.shown(shell))'; use bash, zsh or fish")
        }
        return ExitCode.success
    }
}
