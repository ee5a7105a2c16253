import Foundation
import GlossaryKit

/// `glossary import FILE.tbx|FILE.csv`: another tool's termbase or spreadsheet turned into the team's entries.
struct ImportCommand: Command {
    static let name = "import"
    static let abstract = "Turn a TBX or CSV file into glossary entries"
    static let discussion = """
        Reads FILE — TBX (TBX-Basic, TBX-Core or TBX-Min, .tbx or .xml) or CSV with a header row — and writes one
        entry a term and language into that language's glossary folder of the site in --source (content/glossary/
        for the default language, content/LANG/glossary/ for the others), named for the term's slug: its concept,
        term, aliases, statuses (deprecated: and forbidden: names, status: and use:), part of speech, definition,
        notes and sources (sections in languages the site is not in are reported and left). Every element or
        column it can't map is reported as import-unmapped at FILE:LINE:COL. An existing entry is never replaced
        without --force (import-exists). --dry-run lists the files without writing them. Exits 1 on errors.
        """
    static let arguments = [Argument(synopsis: "FILE", completion: .file)]
    static let dryRun = Option.flag("--dry-run", "List the entries that would be written; write nothing")
    static let force = Option.flag("--force", "Replace entries that exist")
    static let options = [OptionGroup.source, dryRun, force] + OptionGroup.diagnostics

    static func run(_ parsed: ParsedArguments, context: CommandContext) async throws(UsageError) -> Int32 {
        guard parsed.positional.count == 1 else { throw UsageError(parsed.positional.isEmpty ? "missing FILE" : "import takes one file") }
        let path = parsed.positional[0]
        let source = context.resolve(parsed[OptionGroup.source])
        let printer = try DiagnosticPrinter(parsed, context: context, root: context.currentDirectory)
        guard let data = FileManager.default.contents(atPath: context.resolve(path).path) else {
            context.console.printError("error: can't read \(DiagnosticText.escaped(path))")
            return ExitCode.failure
        }
        var languages = SiteLanguages(codes: ["en"])
        if let yaml = FileManager.default.contents(atPath: source.appendingPathComponent("glossary.yml").path) {
            languages = SiteConfig.load(yaml: String(decoding: yaml, as: UTF8.self), file: "glossary.yml").0.siteLanguages
        }
        let plan = GlossaryImport.plan(data, file: path, source: source, languages: languages, force: parsed.has(force))
        printer.print(plan.diagnostics)
        let dry = parsed.has(dryRun)
        var failed = false
        if !dry {
            for failure in plan.write(into: source) {
                context.console.printError("error: can't write \(DiagnosticText.escaped(failure.path)): \(failure.reason)")
                failed = true
            }
        }
        for file in plan.files {
            let verb = dry ? (file.exists ? "Would replace" : "Would write") : (file.exists ? "Replaced" : "Wrote")
            context.console.print("\(verb) \(file.path)")
        }
        let errors = plan.diagnostics.contains { $0.severity == .error }
        return failed || errors ? ExitCode.failure : ExitCode.success
    }
}
