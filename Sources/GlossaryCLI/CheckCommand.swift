import GlossaryKit

struct CheckCommand: Command {
    static let name = "check"
    static let abstract = "Report unresolved terms, broken internal links and unused entries"
    static let discussion = """
        Builds the site without writing it and reports every problem it finds, and team entries no page uses. Exits 1
        when there is an unresolved term, a broken internal link or an error; other warnings (an unused entry) are
        printed but fail the check only with --strict.
        """
    static let strict = Option.flag("--strict", "Fail on any warning too (unused entries included)")
    static let options = OptionGroup.site + [strict] + OptionGroup.diagnostics

    /// The codes that fail a check, besides every error.
    static let failingCodes: Set<DiagnosticCode> = [.unknownTerm, .brokenLink]

    static func run(_ parsed: ParsedArguments, context: CommandContext) async throws(UsageError) -> Int32 {
        try parsed.expectNoPositional()
        let options = try BuildCommand.buildOptions(parsed, context: context)
        let isStrict = parsed.has(Self.strict)
        var printer = try DiagnosticPrinter(parsed, context: context, root: options.source)
        printer.strict = isStrict
        let result = await SiteBuilder(options: options, makeFetcher: BuildCommand.fetcherFactory(for: options, context: context)).check()
        printer.print(result.diagnostics)
        let warnings = result.warnings
        let unresolved = warnings.filter { $0.code == .unknownTerm }.count
        let broken = warnings.filter { $0.code == .brokenLink }.count
        let unused = warnings.filter { $0.code == .unusedTerm }.count
        let others = warnings.count - unresolved - broken - unused
        let errors = result.errors.count
        var failing = [(unresolved, "unresolved term reference"), (broken, "broken link"), (errors, "error")]
        if isStrict { failing += [(unused, "unused term"), (others, "other warning")] }
        let counted = failing.filter { $0.0 > 0 }.map { "\($0.0) \($0.1)\($0.0 == 1 ? "" : "s")" }
        guard counted.isEmpty else {
            context.console.printError("Check failed: " + counted.joined(separator: ", "))
            return ExitCode.failure
        }
        let passed = unused + others == 0 ? "No problems" : "Check passed with \(unused + others) warning\(unused + others == 1 ? "" : "s")"
        context.console.printError(
            "\(passed): \(result.stats.pages) pages, \(result.stats.terms) terms, every reference resolved, every internal link found")
        return ExitCode.success
    }
}
