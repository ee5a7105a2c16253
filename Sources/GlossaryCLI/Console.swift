import Foundation

/// Where the tool's text goes: results to stdout, diagnostics and progress to stderr.
/// Injected so tests can capture what a command prints.
public struct Console: Sendable {
    public var out: @Sendable (String) -> Void
    public var err: @Sendable (String) -> Void
    /// Whether stderr is a terminal (live progress lines only then).
    public var errIsTerminal: Bool

    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void, errIsTerminal: Bool) {
        self.out = out
        self.err = err
        self.errIsTerminal = errIsTerminal
    }

    public static let standard = Console(
        out: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
        err: { text in FileHandle.standardError.write(Data(text.utf8)) },
        errIsTerminal: isatty(2) == 1)

    func print(_ line: String) { out(line + "\n") }
    func printError(_ line: String) { err(line + "\n") }
}
