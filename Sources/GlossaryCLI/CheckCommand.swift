import GlossaryKit

struct CheckCommand: Command {
    static let name = "check"
    static let usage = """
        USAGE: glossary check [options]

        Builds the site without writing it and reports every problem it finds. Exits 1 when there is an
        unresolved term, a broken internal link or an error; other warnings are printed but don't fail it.

        OPTIONS:
          --source DIR        The site's folder, holding glossary.yml (default: current folder)
          --offline           Never contact the dictionary API
          --api-url TEMPLATE  Dictionary API URL with {lang} and {word} (also GLOSSARY_API_URL)
          -h, --help          Show this help
        """

    static func run(_ arguments: [String], context: CommandContext) async throws(UsageError) -> Int32 {
        let parsed = try Arguments(arguments, flags: ["--offline"], options: ["--source", "--api-url"])
        guard parsed.positional.isEmpty else { throw UsageError("unexpected argument '\(parsed.positional[0])'") }
        let options = try BuildCommand.buildOptions(parsed, context: context)
        let result = await SiteBuilder(options: options, makeFetcher: BuildCommand.fetcherFactory(for: options, context: context)).build()
        for diagnostic in result.diagnostics { context.console.printError(diagnostic.description) }
        let unresolved = result.diagnostics.filter { $0.code == "unknown-term" }.count
        let broken = result.diagnostics.filter { $0.code == "broken-link" }.count
        let errors = result.errors.count
        if unresolved + broken + errors == 0 {
            context.console.printError("No problems: \(result.stats.pages) pages, \(result.stats.terms) terms, every reference resolved, every internal link found")
            return GlossaryTool.ExitCode.success
        }
        let parts = [(unresolved, "unresolved term reference"), (broken, "broken link"), (errors, "error")].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)\($0.0 == 1 ? "" : "s")" }
        context.console.printError("Check failed: " + parts.joined(separator: ", "))
        return GlossaryTool.ExitCode.failure
    }
}
