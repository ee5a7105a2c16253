import Foundation
import Synchronization

/// The builds of a preview: each a transaction (`SiteTransaction`) on a site folder of the preview's own, which nobody
/// else writes (`trusted`), starting from the state the last good one left, kept in memory. One build at a time.
public final class PreviewBuilds: Sendable {
    /// The site as the last good build left it (nothing before the first).
    public let folder: URL
    private let state = Mutex<BuildState?>(nil)

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

    /// Builds with `builder` into the folder. A build that fails leaves the folder and the state as they were.
    public func build(with builder: SiteBuilder) async -> BuildResult {
        let transaction = SiteTransaction(output: folder, trusted: true)
        var (result, next) = await builder.build(into: transaction, state: state.withLock { $0 })
        guard result.succeeded, let next else {
            transaction.abandon()
            return result
        }
        do {
            let committed = try transaction.commit(next, jobs: builder.options.jobs)
            state.withLock { $0 = committed }
        } catch {
            result.diagnostics.append(Diagnostic(.writeFailed(reason: error.description), subject: folder.path))
            result.outputs = nil
            state.withLock { $0 = nil }
        }
        return result
    }
}
