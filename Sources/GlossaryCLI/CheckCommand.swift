import GlossaryKit

struct CheckCommand: Command {
    static let name = "check"
    static let abstract = "Report unresolved terms and broken internal links"
    static let discussion = """
        Builds the site without writing it and reports every problem it finds. Exits 1 when there is an
        unresolved term, a broken internal link or an error; other warnings are printed but don't fail it.
        """
    static let options = OptionGroup.site + OptionGroup.diagnostics

    /// The codes that fail a check, besides every error.
    static let failingCodes: Set<DiagnosticCode> = [.unknownTerm, .brokenLink]

    static func run(_ parsed: ParsedArguments, context: CommandContext) async throws(UsageError) -> Int32 {
        try parsed.expectNoPositional()
        let options = try BuildCommand.buildOptions(parsed, context: context)
        let printer = try DiagnosticPrinter(parsed, context: context, root: options.source)
        let result = await SiteBuilder(options: options, makeFetcher: BuildCommand.fetcherFactory(for: options, context: context)).build(into: nil)
        printer.print(result.diagnostics)
        let unresolved = result.diagnostics.filter { $0.code == .unknownTerm }.count
        let broken = result.diagnostics.filter { $0.code == .brokenLink }.count
        let errors = result.errors.count
        if unresolved + broken + errors == 0 {
            context.console.printError(
                "No problems: \(result.stats.pages) pages, \(result.stats.terms) terms, every reference resolved, every internal link found")
            return ExitCode.success
        }
        let parts = [(unresolved, "unresolved term reference"), (broken, "broken link"), (errors, "error")].filter { $0.0 > 0 }.map {
            "\($0.0) \($0.1)\($0.0 == 1 ? "" : "s")"
        }
        context.console.printError("Check failed: " + parts.joined(separator: ", "))
        return ExitCode.failure
    }
}
