import Foundation
import GlossaryKit

/// `glossary man DIR`: writes the manual pages, made from the same declarations as `--help`.
struct ManCommand: Command {
    static let name = "man"
    static let abstract = "Write the manual pages (glossary.1 and one per command) into a folder"
    static let discussion = """
        Writes glossary.1 and a page for each command (glossary-build.1, glossary-serve.1, …) into DIR, creating it
        if needed and replacing pages that are there. They say what 'glossary --help' and 'glossary COMMAND --help'
        say, in roff for man(1). For example:
          glossary man ~/.local/share/man/man1 && man glossary-build
        """
    static let arguments = [Argument(synopsis: "DIR", completion: .directory)]
    static let options: [Option] = []

    static func run(_ parsed: ParsedArguments, context: CommandContext) async throws(UsageError) -> Int32 {
        guard parsed.positional.count == 1 else { throw UsageError(parsed.positional.isEmpty ? "missing DIR" : "man takes one folder") }
        let name = parsed.positional[0]
        guard !name.isEmpty else { throw UsageError("DIR is empty; name the folder to write the pages into") }
        let folder = context.resolve(name)
        let pages = ManPage.all()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for page in pages {
                try Data(page.text.utf8).write(to: folder.appendingPathComponent(page.fileName), options: .atomic)
            }
        } catch {
            context.console.printError("error: can't write the manual pages into \(DiagnosticText.escaped(name)): \(error.localizedDescription)")
            return ExitCode.failure
        }
        context.console.print("Wrote \(pages.count) manual pages into \(DiagnosticText.escaped(name)).")
        return ExitCode.success
    }
}
