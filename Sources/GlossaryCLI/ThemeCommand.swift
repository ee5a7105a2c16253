import Foundation
import GlossaryKit

/// `glossary theme eject [FILE…]`: copies the built-in theme's files into the site, to customise them.
struct ThemeCommand: Command {
    static let name = "theme"
    static let abstract = "Copy the built-in theme's files into the site to customise them"
    static var discussion: String {
        """
        Copies the built-in default theme, or only the named files, into the site's themes/default/ to start
        customising it. themes/default/ needs only the files you change: every file it lacks still comes from
        the built-in theme. A FILE may also be a folder of the theme (templates, assets). An existing file
        that differs is left alone unless --force.

        FILES:
        \(BuiltInTheme.files.keys.sorted().map { "  " + $0 }.joined(separator: "\n"))
        """
    }
    static var arguments: [Argument] {
        [Argument(synopsis: "eject", completion: .words(["eject"])), Argument(synopsis: "[FILE…]", completion: .words(BuiltInTheme.files.keys.sorted()))]
    }
    static let force = Option.flag("--force", "Overwrite files of themes/default/ that differ from the built-in ones")
    static let options = [OptionGroup.source, force]

    static func run(_ parsed: ParsedArguments, context: CommandContext) async throws(UsageError) -> Int32 {
        guard let action = parsed.positional.first else { throw UsageError("missing what to do: eject") }
        guard action == "eject" else { throw UsageError("unknown theme action '\(ParsedArguments.shown(action))'; use eject") }
        let files = try selectedFiles(Array(parsed.positional.dropFirst()))
        let root = context.resolve(parsed[OptionGroup.source])
        let printer = DiagnosticPrinter(console: context.console, root: root)
        guard let config = CacheCommand.loadConfig(root, printer: printer) else { return ExitCode.failure }
        let destination = root.appendingPathComponent("themes/\(BuiltInTheme.name)", isDirectory: true)
        let shown = "themes/\(BuiltInTheme.name)/"

        var toWrite: [String] = []
        var differing: [String] = []
        for file in files {
            let existing = FileManager.default.contents(atPath: destination.appendingPathComponent(file).path)
            if existing == BuiltInTheme.files[file] { continue }
            if existing != nil || FileManager.default.fileExists(atPath: destination.appendingPathComponent(file).path) { differing.append(file) }
            toWrite.append(file)
        }
        if !differing.isEmpty && !parsed.has(force) {
            let list = differing.map { "  " + shown + $0 }.joined(separator: "\n")
            context.console.printError("error: these files exist and differ from the built-in theme; nothing was copied (--force overwrites them):\n\(list)")
            return ExitCode.failure
        }
        for file in toWrite {
            let url = destination.appendingPathComponent(file)
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try BuiltInTheme.files[file, default: Data()].write(to: url, options: .atomic)
            } catch {
                context.console.printError("error: can't write \(shown)\(file): \(error.localizedDescription)")
                return ExitCode.failure
            }
        }
        let unchanged = files.count - toWrite.count
        var report = toWrite.isEmpty ? "Nothing to copy" : "Copied \(toWrite.count) file\(toWrite.count == 1 ? "" : "s") of the built-in theme into \(shown)"
        if unchanged > 0 { report += " (\(unchanged) already there, the same)" }
        context.console.print(([report + (toWrite.isEmpty ? "." : ":")] + toWrite.map { "  " + shown + $0 }).joined(separator: "\n"))
        if config.theme != BuiltInTheme.name {
            let (theme, _) = Theme.load(name: config.theme, siteRoot: root) { $0.path }
            if theme?.layers.contains(ThemeLayer(name: BuiltInTheme.name, source: .folder(destination))) != true {
                context.console.printError(
                    "note: glossary.yml uses theme '\(DiagnosticText.escaped(config.theme))', which does not extend default; \(shown) is used once it does (extends: default in its theme.yml)"
                )
            }
        }
        return ExitCode.success
    }

    /// The built-in theme's files that `names` select (all of them for none), sorted; an unknown name is a
    /// usage error listing the valid ones.
    static func selectedFiles(_ names: [String]) throws(UsageError) -> [String] {
        let all = BuiltInTheme.files.keys.sorted()
        guard !names.isEmpty else { return all }
        var selected = Set<String>()
        for name in names {
            let path = name.hasSuffix("/") ? String(name.dropLast()) : name
            let matches = all.filter { $0 == path || $0.hasPrefix(path + "/") }
            guard !matches.isEmpty else {
                throw UsageError("the built-in theme has no file '\(DiagnosticText.escaped(name))' (its files are listed below)")
            }
            selected.formUnion(matches)
        }
        return selected.sorted()
    }
}
