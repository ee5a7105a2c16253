import Foundation
import Synchronization

/// The builds of a preview: each a transaction (`SiteTransaction`) on a site folder of the preview's own, which nobody
/// else writes (`trusted`), starting from the state the last good one left, kept in memory. One build at a time.
///
/// The preview's watcher tells it what it watches (`watching`) and what changed (`noteChanges`): when that is only
/// markdown files the last good build listed, a build looks at those alone, not at the other files watched, instead of
/// scanning the site's folder (`SiteInputs.refreshed`).
public final class PreviewBuilds: Sendable {
    /// The site as the last good build left it (nothing before the first).
    public let folder: URL
    private let memory = Mutex(Memory())

    /// What the last good build left, and what changed since.
    private struct Memory {
        var state: BuildState?
        /// What the last good build read.
        var inputs: SiteInputs?
        /// The paths (relative to the site's folder) reported changed since the last good build began; nil when
        /// anything may have changed.
        var changed: Set<String>? = nil
        /// What the watcher watches, relative to the site's folder.
        var watched: [String] = []
    }

    /// Builds into `folder`, in a folder of the preview's own (made when missing): the transactions keep folders beside
    /// the site.
    public init(folder: URL) throws(OutputFailure) {
        self.folder = folder.standardizedFileURL
        let parent = self.folder.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .create(folder: parent.path, reason: error.localizedDescription)
        }
    }

    /// Notes the paths (files and folders, relative to the site's folder) below which the watcher sees every change,
    /// as it starts: what changed before it did, only the next build's scan can tell.
    public func watching(_ paths: [String]) {
        memory.withLock { memory in
            memory.watched = paths
            memory.changed = nil
        }
    }

    /// Notes paths below the site's folder a watcher saw change (`*`: anything may have), before the build they
    /// bring is asked for.
    public func noteChanges(_ paths: Set<String>) {
        memory.withLock { memory in
            memory.changed = paths.contains("*") ? nil : memory.changed?.union(paths)
        }
    }

    /// Builds with `builder` into the folder. A build that fails leaves the folder and the state as they were.
    public func build(with builder: SiteBuilder) async -> BuildResult {
        let transaction = SiteTransaction(output: folder, trusted: true)
        // The changes noted so far are this build's; those noted from now on are the next one's.
        let (state, known, changed) = memory.withLock { memory in
            let changed = memory.changed
            memory.changed = []
            return (memory.state, changed.flatMap { memory.inputs?.refreshed($0, watched: memory.watched) }, changed)
        }
        var (result, next, inputs) = await builder.build(into: transaction, known: known) { state }
        // Its changes are the next build's too.
        func failed() {
            memory.withLock { memory in
                memory.changed = changed.flatMap { changed in memory.changed.map { changed.union($0) } }
            }
        }
        guard result.succeeded else {
            transaction.abandon()
            failed()
            return result
        }
        guard let next else {
            // Nothing to do: the state stands, and what was read is as it says.
            transaction.abandon()
            memory.withLock { $0.inputs = inputs }
            return result
        }
        do {
            let committed = try transaction.commit(next, jobs: builder.options.jobs)
            memory.withLock { memory in
                memory.state = committed
                memory.inputs = inputs
            }
        } catch {
            result.diagnostics.append(Diagnostic(.writeFailed(reason: error.description), subject: folder.path))
            result.outputs = nil
            memory.withLock { memory in
                memory.state = nil
                memory.inputs = nil
            }
        }
        return result
    }
}
