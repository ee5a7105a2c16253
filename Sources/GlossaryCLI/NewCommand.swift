import Foundation
import GlossaryKit

struct NewCommand: Command {
    static let name = "new"
    static let abstract = "Create a new glossary site"
    static let discussion = """
        Creates a glossary site in DIR (which must not exist or be empty): glossary.yml, a home page, a guide
        page, two glossary entries, a README.md and a .gitignore. The site uses the built-in default theme
        ('glossary theme eject' copies it, or some of its files, into the site to customise) and builds
        offline with no warnings.
        """
    static let arguments = [Argument(synopsis: "DIR", completion: .directory)]
    static let force = Option.flag("--force", "Also write into a folder that is not empty; files that exist are kept, never overwritten or deleted")
    static let options = [force]

    static func run(_ parsed: ParsedArguments, context: CommandContext) async throws(UsageError) -> Int32 {
        guard parsed.positional.count == 1 else { throw UsageError(parsed.positional.isEmpty ? "missing DIR" : "new takes one folder") }
        let name = parsed.positional[0]
        guard !name.isEmpty else { throw UsageError("DIR is empty; name the folder to create the site in") }
        let folder = context.resolve(name)
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        if fileManager.fileExists(atPath: folder.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            context.console.printError("error: \(DiagnosticText.escaped(name)) exists and is not a folder")
            return ExitCode.failure
        }
        if !parsed.has(force), let existing = try? fileManager.contentsOfDirectory(atPath: folder.path), !existing.isEmpty {
            context.console.printError(
                "error: \(DiagnosticText.escaped(name)) exists and is not empty; choose a new folder, or pass --force to add the site's files to it (existing files are kept)"
            )
            return ExitCode.failure
        }
        var kept: [String] = []
        do {
            for (path, text) in SiteScaffold.files {
                let url = folder.appendingPathComponent(path)
                // With --force the folder may hold the user's files: never replace one (nor a link or folder there).
                if (try? fileManager.attributesOfItem(atPath: url.path)) != nil {
                    kept.append(path)
                    continue
                }
                try fileManager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url, options: .withoutOverwriting)
            }
            try fileManager.createDirectory(at: folder.appendingPathComponent(".glossary/cache"), withIntermediateDirectories: true)
        } catch {
            context.console.printError("error: can't create \(DiagnosticText.escaped(name)): \(error.localizedDescription)")
            return ExitCode.failure
        }
        let here = folder == context.currentDirectory.standardizedFileURL
        var lines = ["Created a glossary site in \(here ? "this folder" : name)."]
        if !kept.isEmpty {
            lines.append("Kept the files that were there (not overwritten): \(kept.joined(separator: ", ")).")
        }
        lines += ["", "Next:"] + (here ? [] : ["  cd \(name)"])
        lines += ["  glossary serve        # preview at http://127.0.0.1:8080/", "  glossary build        # write the site into site/"]
        context.console.print(lines.joined(separator: "\n"))
        return ExitCode.success
    }
}
