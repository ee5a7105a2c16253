import GlossaryKit

/// `glossary explain CODE`: what a diagnostic code means and how to fix it; without a code, every code.
struct ExplainCommand: Command {
    static let name = "explain"
    static let abstract = "Explain a diagnostic code, such as unknown-term"
    static let discussion = "Prints what a diagnostic code means and how to fix it. Without a code, lists every code."
    static let arguments = [Argument(synopsis: "[CODE]", completion: .words(DiagnosticCode.allCases.map(\.rawValue)))]
    static let options: [Option] = []

    static func run(_ parsed: ParsedArguments, context: CommandContext) async throws(UsageError) -> Int32 {
        guard parsed.positional.count <= 1 else { throw UsageError("explain takes one code") }
        guard let name = parsed.positional.first else {
            let width = DiagnosticCode.allCases.map(\.rawValue.count).max() ?? 0
            for code in DiagnosticCode.allCases.sorted() {
                let padding = String(repeating: " ", count: width - code.rawValue.count + 2)
                context.console.print("\(code.rawValue)\(padding)\(code.severity.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0))  \(code.summary)")
            }
            return ExitCode.success
        }
        let written = name.hasPrefix("[") && name.hasSuffix("]") ? String(name.dropFirst().dropLast()) : name
        guard let code = DiagnosticCode(rawValue: written) else {
            let near = DiagnosticCode.allCases.map(\.rawValue).filter { $0.contains(written) || written.contains($0) }
            let hint = near.isEmpty ? "run 'glossary explain' for the list" : "did you mean \(near.map { "'\($0)'" }.joined(separator: " or "))?"
            throw UsageError("no diagnostic code '\(ParsedArguments.shown(written))'; \(hint)")
        }
        context.console.print(explanation(code))
        return ExitCode.success
    }

    static func explanation(_ code: DiagnosticCode) -> String {
        "\(code.rawValue) (\(code.severity.rawValue)): \(code.summary)\n\n\(code.fix)"
    }
}
