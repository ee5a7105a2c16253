import Foundation
import Synchronization

/// The builds of a preview: one folder of their own updated in place (`FolderSink`), each build starting from the
/// state the last good one left, in memory. One build at a time.
public final class PreviewBuilds: Sendable {
    public let sink: FolderSink
    private let state = Mutex<BuildState?>(nil)

    /// Creates (or empties) `folder`.
    public init(folder: URL) throws(OutputFailure) {
        sink = try FolderSink(folder: folder)
    }

    /// Builds with `builder` into the folder. A build that fails before writing keeps the state as it was; one that
    /// fails while writing (or is cancelled) leaves the folder unknown, and the next build makes every file again.
    public func build(with builder: SiteBuilder) async -> BuildResult {
        let last = state.withLock { $0 }
        let (result, next) = await builder.build(into: sink, state: last)
        state.withLock { state in
            if result.succeeded {
                if let next { state = next }
            } else if result.interrupted || result.diagnostics.contains(where: { $0.code == .writeFailed }) {
                state = nil
            }
        }
        return result
    }
}
