import Foundation
import GlossaryKit

struct RenderCommand: Command {
    static let name = "render"
    static let abstract = "Print one page's HTML fragment on stdout"
    static let discussion = """
        Prints the HTML fragment of one page (its body, term references linked) on stdout. For a page without
        term references the output is byte-identical to the `cmark` command's with no options.
        """
    static let arguments = [Argument(synopsis: "FILE.md", completion: .file)]
    static let options = OptionGroup.site + OptionGroup.diagnostics

    static func run(_ parsed: ParsedArguments, context: CommandContext) async throws(UsageError) -> Int32 {
        guard parsed.positional.count == 1 else { throw UsageError(parsed.positional.isEmpty ? "missing FILE.md" : "render takes one file") }
        var options = try BuildCommand.buildOptions(parsed, context: context)
        options.drafts = true
        let printer = try DiagnosticPrinter(parsed, context: context, root: options.source)
        let file = context.resolve(parsed.positional[0])
        guard let data = FileManager.default.contents(atPath: file.path) else {
            context.console.printError("error: can't read \(parsed.positional[0])")
            return ExitCode.failure
        }

        let result = await SiteBuilder(options: options, makeFetcher: BuildCommand.fetcherFactory(for: options, context: context)).build(into: nil)
        let contentFolder = options.source.appendingPathComponent("content").standardizedFileURL.path + "/"
        let fullPath = file.standardizedFileURL.path
        let contentPath = fullPath.hasPrefix(contentFolder) ? String(fullPath.dropFirst(contentFolder.count)) : nil
        let inSite = result.site?.pages.contains { $0.page.contentPath == contentPath } == true
        // A file outside content/ is parsed on its own; its terms resolve against the site's definitions.
        let sourceFile = SiteSource.File(
            displayPath: inSite ? "content/" + (contentPath ?? "") : parsed.positional[0], contentPath: contentPath ?? file.lastPathComponent, url: file)
        let (page, failures) = PageParser.parse(data, file: sourceFile, drafts: true)
        var problems: [Diagnostic]
        if inSite {
            let shown = sourceFile.displayPath
            problems = result.diagnostics.filter { diagnostic in
                diagnostic.location?.file == shown || (diagnostic.location == nil && diagnostic.severity == .error)
            }
        } else {
            problems = failures + (page?.record.diagnostics ?? [])
        }
        printer.print(problems)
        guard let page, let document = page.document, let site = result.site else { return ExitCode.failure }
        context.console.out(site.fragment(page.record, document: document))
        return problems.contains { $0.severity == .error } ? ExitCode.failure : ExitCode.success
    }
}
