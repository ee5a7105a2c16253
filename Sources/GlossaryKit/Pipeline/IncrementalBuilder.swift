import Foundation
import Synchronization

/// Builds one site again and again, each build reusing what earlier ones computed (see `BuildMemo`), and
/// tells which files of the output changed — what `glossary serve` runs after every edit.
///
/// A build's output is byte-identical to a fresh `SiteBuilder` build of the same files: the memo reuses a
/// result only when every input it was made from is equal. Builds must not overlap: call `build()` from
/// one task at a time.
public final class IncrementalBuilder: @unchecked Sendable {
    public let options: BuildOptions
    private let makeFetcher: FetcherFactory?
    private let progress: @Sendable (FetchProgress) -> Void
    private let memo = BuildMemo()
    private let lock = NSLock()
    private var building = false
    /// The last successful build's output and the `stat` of each file it copies.
    private var lastOutput: SiteOutput?
    private var lastCopies: [String: FileSignature] = [:]
    /// Whether the memo's rendered files are exactly `lastOutput`'s (false after a build that rendered, then failed).
    private var memoMatchesLastOutput = false

    public convenience init(options: BuildOptions, fetcher: (any DefinitionFetcher)? = nil, progress: @escaping @Sendable (FetchProgress) -> Void = { _ in }) {
        self.init(options: options, makeFetcher: SiteBuilder.constant(fetcher), progress: progress)
    }

    /// `makeFetcher` is asked again only when `glossary.yml`'s `dictionary:` settings change, so the client
    /// (and its rate limit's memory of recent requests) lasts across rebuilds.
    public init(options: BuildOptions, makeFetcher: FetcherFactory?, progress: @escaping @Sendable (FetchProgress) -> Void = { _ in }) {
        self.options = options
        self.progress = progress
        guard let makeFetcher else {
            self.makeFetcher = nil
            return
        }
        let cache = Mutex<(settings: DictionaryConfig, fetcher: (any DefinitionFetcher)?)?>(nil)
        self.makeFetcher = { config in
            cache.withLock { current in
                if let current, current.settings == config.dictionary { return current.fetcher }
                let fetcher = makeFetcher(config)
                current = (config.dictionary, fetcher)
                return fetcher
            }
        }
    }

    public func build() async -> IncrementalBuild {
        lock.withLock {
            precondition(!building, "IncrementalBuilder.build() called while a build is running")
            building = true
        }
        defer { lock.withLock { building = false } }

        memo.beginBuild()
        var builder = SiteBuilder(options: options, makeFetcher: makeFetcher, progress: progress)
        builder.memo = memo
        let result = await builder.build()
        let rendered = memo.didRender
        guard let output = result.output else {
            if rendered { memoMatchesLastOutput = false }
            return IncrementalBuild(result: result, changedPaths: nil)
        }
        let copies = output.copies.compactMapValues { FileSignature(path: $0.path) }
        let changed = changes(to: output, copies: copies, reused: memoMatchesLastOutput ? memo.reusedOutputs : [])
        lastOutput = output
        lastCopies = copies
        memoMatchesLastOutput = true
        return IncrementalBuild(result: result, changedPaths: changed)
    }

    /// Paths added, removed or changed since the last good build: rendered files by their bytes (those the
    /// memo reused are known equal), copied files by their source and its `stat`.
    private func changes(to output: SiteOutput, copies: [String: FileSignature], reused: Set<String>) -> Set<String> {
        guard let previous = lastOutput else { return output.paths }
        var changed = Set<String>()
        for (path, data) in output.files where !reused.contains(path) && previous.files[path] != data {
            changed.insert(path)
        }
        for path in previous.files.keys where output.files[path] == nil { changed.insert(path) }
        for (path, url) in output.copies where previous.copies[path] != url || lastCopies[path] != copies[path] {
            changed.insert(path)
        }
        for path in previous.copies.keys where output.copies[path] == nil { changed.insert(path) }
        return changed
    }
}

/// One build of an `IncrementalBuilder`.
public struct IncrementalBuild: Sendable {
    public var result: BuildResult
    /// Output paths whose contents differ from the previous successful build (every path for the first);
    /// nil when this build failed.
    public var changedPaths: Set<String>?
}
