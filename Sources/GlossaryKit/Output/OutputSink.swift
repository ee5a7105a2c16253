import Foundation
import Synchronization

/// Where a build puts its files: a new version of an output folder (`SiteTransaction`, `glossary build`), the preview
/// server's folder updated in place (`FolderSink`), or memory (`MemorySink`, for tests and `glossary render`).
///
/// The build offers each planned file to `keep` first with the fingerprint of the value it is made from: a sink that
/// holds the file made from that value keeps it, and the build renders only the rest. Called from several threads at
/// once.
public protocol OutputSink: AnyObject, Sendable {
    /// Whether the sink holds `path` made from the value of `fingerprint` (now, or by carrying it over).
    func keep(_ path: String, fingerprint: Fingerprint) throws(OutputFailure) -> Bool
    /// A rendered file, with where it shows the values of its slots (a content page's body); a nil fingerprint
    /// says the value it was made from is not known (the next build that plans it makes it again).
    func write(_ path: String, _ data: Data, fingerprint: Fingerprint?, slots: MustacheSlots?) throws(OutputFailure)
    /// A file copied as it is (a theme asset, a content file), `fingerprint` being its bytes'.
    func copy(_ path: String, from source: URL, fingerprint: Fingerprint) throws(OutputFailure)
    /// Called once every planned file is in: whatever else the sink holds goes. Returns the paths it wrote or
    /// removed in this build.
    func finish(paths: Set<String>) throws(OutputFailure) -> Set<String>
}

/// What a sink holds, as the build goes: it starts as what the sink held before the build (so a file kept costs
/// nothing), takes each file written, and by the end (`finish`) loses those the build didn't plan. Filled from several
/// threads.
final class OutputTable: Sendable {
    private struct Contents {
        var outputs: [String: BuildState.StoredOutput]
        var changed: Set<String> = []
        var written: Set<String> = []
    }
    private let contents: Mutex<Contents>
    /// What the sink held before the build (a file whose bytes are the same is not a change).
    let before: [String: BuildState.StoredOutput]

    init(before: [String: BuildState.StoredOutput]) {
        self.before = before
        contents = Mutex(Contents(outputs: before))
    }

    func record(_ path: String, _ output: BuildState.StoredOutput) {
        contents.withLock {
            $0.outputs[path] = output
            $0.written.insert(path)
            if before[path]?.bytesHash != output.bytesHash { $0.changed.insert(path) }
        }
    }

    /// Leaves out every file but `paths` (the build's), noting those that go as changed.
    func keep(only paths: Set<String>) -> Set<String> {
        contents.withLock { contents in
            for path in contents.outputs.keys where !paths.contains(path) {
                contents.outputs[path] = nil
                contents.changed.insert(path)
            }
            return contents.changed
        }
    }

    var outputs: [String: BuildState.StoredOutput] { contents.withLock { $0.outputs } }
    var changed: Set<String> { contents.withLock { $0.changed } }
    /// The files written so far.
    var written: Set<String> { contents.withLock { $0.written } }
}
