/// A positional argument of a command.
struct Argument: Sendable {
    var synopsis: String
    /// Words a shell may offer for it (subcommand names), or how to complete it.
    var completion: Option.Completion = .none
}
