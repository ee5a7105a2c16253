/// How a command prints the problems it found (`--format`).
enum DiagnosticFormat: String, CaseIterable, Sendable {
    /// Compiler form on stderr, with the source line and a caret under the column.
    case text
    /// One JSON object per diagnostic, one per line, on stdout (for tools).
    case json
    /// GitHub Actions workflow commands on stdout, so problems appear as annotations on the changed lines.
    case github
}
