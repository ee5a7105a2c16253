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

        let result = await SiteBuilder(options: options, makeFetcher: BuildCommand.fetcherFactory(for: options, context: context)).build()
        let contentFolder = options.source.appendingPathComponent("content").standardizedFileURL.path + "/"
        let contentPath = file.standardizedFileURL.path.hasPrefix(contentFolder) ? String(file.standardizedFileURL.path.dropFirst(contentFolder.count)) : nil
        var page = result.site?.pages.first { $0.page.contentPath == contentPath }
        var problems = result.diagnostics.filter { $0.location?.file == page?.page.displayPath || $0.location == nil && $0.severity == .error }
        if page == nil {
            // A file outside content/: parse it on its own; its terms resolve against the site's definitions.
            let sourceFile = SiteSource.File(displayPath: parsed.positional[0], contentPath: file.lastPathComponent, url: file)
            let (standalone, diagnostics) = SiteBuilder.parsePage(text: String(decoding: data, as: UTF8.self), file: sourceFile, drafts: true)
            page = standalone
            problems = diagnostics
        }
        printer.print(problems)
        guard let page, let site = result.site else { return ExitCode.failure }
        context.console.out(site.fragment(page))
        return problems.contains { $0.severity == .error } ? ExitCode.failure : ExitCode.success
    }
}
