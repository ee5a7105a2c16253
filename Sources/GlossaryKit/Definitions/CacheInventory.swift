import Foundation

/// Everything in the definitions cache folder, read for `glossary cache list|verify|prune`.
public struct CacheInventory: Sendable {
    /// One `<language>/<slug>.json` file.
    public struct Item: Sendable {
        public var file: URL
        /// The path as shown to the user (relative to the site folder).
        public var displayPath: String
        /// The folder the file is in, which names its language.
        public var language: String
        /// The file name without `.json`: the slug of the key it should hold.
        public var slug: String
        public var contents: Contents
    }

    public enum Contents: Sendable {
        case entry(CacheEntry)
        /// The file can't be used; the diagnostic (a `cache-corrupt` error) says why.
        case corrupt(Diagnostic)
    }

    public var items: [Item]
    /// Temporary files an interrupted write left behind (`.<slug>.<pid>.<random>.tmp`); never read as entries.
    public var leftovers: [URL]

    /// Reads every file under the cache folder.
    public static func scan(_ cache: DefinitionCache, displayPath: (URL) -> String = { $0.path }) -> CacheInventory {
        var items: [Item] = []
        var leftovers: [URL] = []
        // Everything but folders: a FIFO or a symbolic link named like an entry is looked up by the build too (which
        // reads through a link and warns about what it can't read), so it is listed and verified, not skipped.
        let files =
            FileManager.default.enumerator(at: cache.directory, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }
            .filter { url in
                var info = stat()
                return lstat(url.path, &info) == 0 && info.st_mode & S_IFMT != S_IFDIR
            }
            .sorted { $0.path < $1.path } ?? []
        for file in files {
            let name = file.lastPathComponent
            if name.hasPrefix(".") && name.hasSuffix(".tmp") {
                leftovers.append(file)
                continue
            }
            guard file.pathExtension == "json", !name.hasPrefix(".") else { continue }
            let shown = displayPath(file)
            let location = SourceLocation(file: shown, line: 1, column: 1)
            let language = file.deletingLastPathComponent().lastPathComponent
            let slug = String(name.dropLast(".json".count))
            let contents: Contents
            if case .success(let data) = FileContents.read(file.path) {
                do {
                    let entry = try CacheEntry.decode(data)
                    if entry.key.slug != slug || entry.language != language {
                        contents = .corrupt(
                            Diagnostic.asError(
                                .cacheMisplaced(holds: entry.key.rawValue, language: entry.language, belongs: "\(entry.language)/\(entry.key.slug).json"),
                                at: location))
                    } else {
                        contents = .entry(entry)
                    }
                } catch {
                    contents = .corrupt(Diagnostic.asError(.cacheCorrupt(key: nil, problem: error, then: nil), at: location))
                }
            } else {
                contents = .corrupt(Diagnostic.asError(.cacheUnreadable(key: slug, then: nil), at: location))
            }
            items.append(Item(file: file, displayPath: shown, language: language, slug: slug, contents: contents))
        }
        return CacheInventory(items: items, leftovers: leftovers)
    }

    /// Every unusable entry, as `cache-corrupt` errors.
    public var problems: [Diagnostic] {
        items.compactMap { item in
            if case .corrupt(let diagnostic) = item.contents { return diagnostic }
            return nil
        }
    }

    /// Why an entry would be pruned, or nil to keep it.
    public enum PruneReason: Sendable, Equatable {
        case unreferenced
        case otherLanguage
    }

    /// What `prune` removes: entries in a language the site is not in, and entries (readable or not) whose term no
    /// page of their language references any more (`referenced` keys name their language, `TermKey.language`).
    /// Corrupt entries for referenced terms stay: the next build refetches them.
    public func pruning(referenced: Set<TermKey>, languages: SiteLanguages) -> [(item: Item, reason: PruneReason)] {
        let names = Set(referenced.map { languages.code(ofKey: $0) + "/" + $0.slug })
        return items.compactMap { item in
            if !languages.codes.contains(item.language) { return (item, .otherLanguage) }
            if !names.contains(item.language + "/" + item.slug) { return (item, .unreferenced) }
            return nil
        }
    }
}
