import Foundation
import GlossaryKit

/// `glossary annotate DIR --glossary SITE_OR_URL`: a glossary's term links and cards in any built static site.
struct AnnotateCommand: Command {
    static let name = "annotate"
    static let abstract = "Link [[words]] in a built HTML site to a glossary's term pages"
    static let discussion = """
        Edits every .html file below DIR (the output of MkDocs, Sphinx, Docusaurus, Hugo…) in place: each [[word]] or
        [[shown text|word]] in its text, and each element marked data-term="word", becomes a link to the glossary's term
        page (with --autolink, plain occurrences of its words too, as a build auto-links), and the glossary's card
        script is added once per page. Every other byte stays as it was; a file with nothing to change is not written; a second
        run changes nothing. --glossary is the glossary's address (http://…/, whose terms/api.json it reads) or the
        folder of a glossary built with site: set. Words the glossary doesn't define are unknown-term warnings. Exits
        1 when a file can't be read or written, under --strict on any warning, and under --check on any file that
        would change or any warning (--check writes nothing).
        """
    static let arguments = [Argument(synopsis: "DIR")]
    static let glossary = Option.value("--glossary", "SITE_OR_URL", "The glossary: its URL, or the folder of its built site")
    static let check = Option.flag("--check", "Change nothing; exit 1 when a file would change or a word is unknown")
    static let strict = Option.flag("--strict", "Fail on any warning")
    static let jobs = Option.value("--jobs", "N", "Files annotated at once (default: the number of cores)")
    static let autolink = Option.value(
        "--autolink", "MODE", "Link plain occurrences of the glossary's words too: first (each term's first on a page) or all",
        completion: .words(["first", "all"]))
    static let options = [glossary, autolink, check, strict, jobs] + OptionGroup.diagnostics

    static func run(_ parsed: ParsedArguments, context: CommandContext) async throws(UsageError) -> Int32 {
        guard parsed.positional.count == 1 else {
            throw UsageError(parsed.positional.isEmpty ? "missing DIR" : "annotate takes one folder")
        }
        guard let source = parsed[Self.glossary] else { throw UsageError("missing --glossary SITE_OR_URL") }
        let folder = context.resolve(parsed.positional[0])
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw UsageError("'\(ParsedArguments.shown(parsed.positional[0]))' is not a folder")
        }
        let jobs = try parsed.integer(Self.jobs, in: 1...256) ?? ProcessInfo.processInfo.activeProcessorCount
        var autolink = AutolinkMode.off
        if let mode = parsed[Self.autolink] {
            guard let chosen = AutolinkMode(rawValue: mode), chosen != .off else {
                throw UsageError("--autolink must be first or all, not '\(ParsedArguments.shown(mode))'")
            }
            autolink = chosen
        }
        var printer = try DiagnosticPrinter(parsed, context: context, root: context.currentDirectory)
        printer.strict = parsed.has(Self.strict)
        let index: TermIndex
        do {
            index = try await Self.load(source, context: context)
        } catch {
            context.console.printError("error: can't read the glossary at '\(ParsedArguments.shown(source))': \(error)")
            return ExitCode.failure
        }
        let checking = parsed.has(Self.check)
        let result = Annotator(index: index, autolink: autolink).annotate(folder: folder, shown: parsed.positional[0], write: !checking, jobs: jobs)
        printer.print(result.diagnostics)
        let errors = result.diagnostics.filter { $0.severity == .error }.count
        let warnings = result.diagnostics.count - errors
        let verb = checking ? "would change" : "changed"
        let counts = "\(warnings) warning\(warnings == 1 ? "" : "s")" + (errors > 0 ? ", \(errors) error\(errors == 1 ? "" : "s")" : "")
        let pages = "\(result.pages) page\(result.pages == 1 ? "" : "s")"
        context.console.printError("Annotated \(pages) with \(index.title): \(result.changed.count) \(verb), \(counts)")
        if errors > 0 || (printer.strict && warnings > 0) { return ExitCode.failure }
        if checking && (warnings > 0 || !result.changed.isEmpty) { return ExitCode.failure }
        return ExitCode.success
    }

    /// The term index at a URL (the glossary's root, or its terms/api.json) or in a built glossary's folder.
    static func load(_ source: String, context: CommandContext) async throws -> TermIndex {
        let lowered = source.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            let root = source.hasSuffix("/") ? source : source + "/"
            guard let manifest = URL(string: root + "terms/api.json") else { throw TermIndex.Failure.unreadable("not a URL") }
            // The dictionary client's transport: http and https only, redirects followed, bodies capped.
            let transport = CurlTransport(
                options: .init(
                    maxConcurrent: 4, connectTimeout: 10, totalTimeout: 60, userAgent: "glossary/\(GlossaryVersion.current)",
                    maxBodyBytes: 256 << 20))
            return try await TermIndex(address: manifest) { name in
                guard let url = URL(string: name, relativeTo: manifest) else { throw TermIndex.Failure.unreadable("not a URL") }
                let address = url.absoluteString
                switch await transport.get(address) {
                case .failure(let failure):
                    throw TermIndex.Failure.unreadable("\(address): \(failure.detail)")
                case .success(let response) where response.status != 200:
                    throw TermIndex.Failure.unreadable("\(address) answered HTTP \(response.status)")
                case .success(let response):
                    return response.body
                }
            }
        }
        let terms = context.resolve(source).appendingPathComponent("terms")
        return try await TermIndex(address: nil) { name in
            guard let data = FileManager.default.contents(atPath: terms.appendingPathComponent(name).path) else {
                throw TermIndex.Failure.unreadable("no terms/\(name)")
            }
            return data
        }
    }
}
