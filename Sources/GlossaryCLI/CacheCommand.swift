import Foundation
import GlossaryKit

/// `glossary cache list|verify|prune`: keeps a committed definitions cache tidy.
struct CacheCommand: Command {
    static let name = "cache"
    static let abstract = "List, verify or prune the definitions cache"
    static let discussion = """
        Looks after the definitions cache (dictionary.cache in glossary.yml; .glossary/cache by default).

        SUBCOMMANDS:
          list       One line per entry: term, language, status, date fetched, fresh or stale
          verify     Report unreadable or malformed entries; exits 1 if there is any
          prune      Delete entries no page references any more (and leftovers of interrupted writes)
        """
    static let actions = ["list", "verify", "prune"]
    static let arguments = [Argument(synopsis: "<list|verify|prune>", completion: .words(actions))]
    static let dryRun = Option.flag("--dry-run", "With prune: list what would be deleted, delete nothing")
    static let options = [OptionGroup.source, dryRun] + OptionGroup.diagnostics

    static func run(_ parsed: ParsedArguments, context: CommandContext) async throws(UsageError) -> Int32 {
        guard let action = parsed.positional.first else { throw UsageError("missing what to do: list, verify or prune") }
        guard parsed.positional.count == 1 else { throw UsageError("unexpected argument '\(ParsedArguments.shown(parsed.positional[1]))'") }
        guard actions.contains(action) else { throw UsageError("unknown cache action '\(ParsedArguments.shown(action))'; use list, verify or prune") }
        if parsed.has(dryRun) && action != "prune" { throw UsageError("--dry-run only applies to prune") }
        let root = context.resolve(parsed[OptionGroup.source])
        let printer = try DiagnosticPrinter(parsed, context: context, root: root)
        guard let config = loadConfig(root, printer: printer) else { return ExitCode.failure }
        let cache = DefinitionCache(directory: root.appendingPathComponent(config.dictionary.cache, isDirectory: true))
        let inventory = CacheInventory.scan(cache) { SiteBuilder.relativePath($0, root: root) }
        let cacheName = SiteBuilder.relativePath(cache.directory, root: root)
        switch action {
        case "list":
            return list(inventory, config: config, cacheName: cacheName, context: context)
        case "verify":
            return verify(inventory, cacheName: cacheName, root: root, printer: printer)
        default:
            return prune(inventory, config: config, root: root, dryRun: parsed.has(dryRun), printer: printer, context: context)
        }
    }

    /// The site's configuration, or nil after reporting why there is none usable.
    static func loadConfig(_ root: URL, printer: DiagnosticPrinter) -> SiteConfig? {
        guard let data = FileManager.default.contents(atPath: root.appendingPathComponent("glossary.yml").path) else {
            printer.console.printError("error: no glossary.yml in \(root.path); run this in a site's folder or pass --source")
            return nil
        }
        let (config, problems) = SiteConfig.load(yaml: String(decoding: data, as: UTF8.self), file: "glossary.yml")
        printer.print(problems.filter { $0.severity == .error })
        return problems.contains { $0.severity == .error } ? nil : config
    }

    static func list(_ inventory: CacheInventory, config: SiteConfig, cacheName: String, context: CommandContext, now: Date = Date()) -> Int32 {
        guard !inventory.items.isEmpty else {
            context.console.printError("The cache (\(cacheName)/) is empty")
            return ExitCode.success
        }
        let maximumAge = TimeInterval(config.dictionary.maxAgeDays) * 86_400
        var rows = [["TERM", "LANG", "STATUS", "FETCHED", "AGE"]]
        var found = 0
        var notFound = 0
        var stale = 0
        var corrupt = 0
        for item in inventory.items {
            switch item.contents {
            case .entry(let entry):
                let isStale = now.timeIntervalSince(entry.fetchedAt) > maximumAge
                if entry.isNotFound { notFound += 1 } else { found += 1 }
                if isStale { stale += 1 }
                let fetched = String(ISO8601DateFormatter.string(from: entry.fetchedAt, timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate]))
                rows.append([entry.key.rawValue, item.language, entry.isNotFound ? "not found" : "found", fetched, isStale ? "stale" : "fresh"])
            case .corrupt:
                corrupt += 1
                rows.append([item.slug, item.language, "corrupt", "-", "-"])
            }
        }
        for line in aligned(rows) { context.console.print(line) }
        let count = inventory.items.count
        var summary = "\(count) entr\(count == 1 ? "y" : "ies"): \(found) found, \(notFound) not found, \(stale) stale"
        if corrupt > 0 { summary += ", \(corrupt) corrupt (see 'glossary cache verify')" }
        context.console.printError(summary)
        return ExitCode.success
    }

    static func verify(_ inventory: CacheInventory, cacheName: String, root: URL, printer: DiagnosticPrinter) -> Int32 {
        let context = printer.console
        let problems = inventory.problems
        printer.print(problems)
        printer.print(inventory.leftovers.map { Diagnostic(.cacheLeftover, at: .start(of: SiteBuilder.relativePath($0, root: root))) })
        let count = inventory.items.count
        let entries = "\(count) entr\(count == 1 ? "y" : "ies") in \(cacheName)/"
        if problems.isEmpty {
            context.printError("Verified \(entries): all readable")
            return ExitCode.success
        }
        context.printError("Verified \(entries): \(problems.count) corrupt; the next build refetches them, or delete them")
        return ExitCode.failure
    }

    static func prune(
        _ inventory: CacheInventory, config: SiteConfig, root: URL, dryRun: Bool, printer: DiagnosticPrinter, context: CommandContext
    ) -> Int32 {
        let (source, scanProblems) = SiteSource.scan(root: root)
        let (referenced, pageProblems) = SiteBuilder.dictionaryTerms(
            source, languages: config.siteLanguages, jobs: ProcessInfo.processInfo.activeProcessorCount)
        let errors = (scanProblems + pageProblems).filter { $0.severity == .error }
        guard errors.isEmpty else {
            printer.print(errors)
            context.console.printError("error: not pruning: the pages above could not be read, and their terms might be lost")
            return ExitCode.failure
        }
        var removals: [(URL, String)] = inventory.pruning(referenced: referenced, languages: config.siteLanguages).map { item, reason in
            let why: String
            switch (reason, item.contents) {
            case (.otherLanguage, _): why = "language '\(item.language)' is not the site's ('\(config.siteLanguages.codes.joined(separator: "', '"))')"
            case (.unreferenced, .entry(let entry)): why = "no page references '\(entry.key)'"
            case (.unreferenced, .corrupt): why = "corrupt, and no page references its term"
            }
            return (item.file, why)
        }
        removals += inventory.leftovers.map { ($0, "leftover of an interrupted write") }
        var failed = false
        for (file, why) in removals {
            let shown = SiteBuilder.relativePath(file, root: root)
            if dryRun {
                context.console.print("would remove \(shown) (\(why))")
                continue
            }
            do {
                try FileManager.default.removeItem(at: file)
                context.console.print("removed \(shown) (\(why))")
            } catch {
                context.console.printError("error: can't remove \(shown): \(error.localizedDescription)")
                failed = true
            }
        }
        let kept = inventory.items.count - removals.count + inventory.leftovers.count
        let keptText = "\(kept) entr\(kept == 1 ? "y" : "ies") kept"
        if removals.isEmpty {
            context.console.printError("Nothing to prune; \(keptText)")
        } else {
            let files = "\(removals.count) file\(removals.count == 1 ? "" : "s")"
            context.console.printError(dryRun ? "Would prune \(files); \(keptText)" : "Pruned \(files); \(keptText)")
        }
        return failed ? ExitCode.failure : ExitCode.success
    }

    /// Columns padded to their widest cell, two spaces apart.
    static func aligned(_ rows: [[String]]) -> [String] {
        let widths = rows.reduce(into: [Int]()) { widths, row in
            for (index, cell) in row.enumerated() {
                if index < widths.count { widths[index] = max(widths[index], cell.count) } else { widths.append(cell.count) }
            }
        }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }.joined(separator: "  ")
        }
    }

}
