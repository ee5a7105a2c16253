import Foundation
import GlossaryKit

/// What the server shows right now: the last good site, and the errors of the latest build if it failed.
///
/// Both change together in one swap under a lock, so a request sees one whole build or the next, never a mix.
public final class PreviewState: @unchecked Sendable {
    public struct Snapshot: Sendable {
        /// Nil until a build succeeds.
        public var site: ServedSite?
        /// The errors of the latest build when it failed; empty when it succeeded.
        public var errors: [Diagnostic]
    }

    private let lock = NSLock()
    private var snapshot = Snapshot(site: nil, errors: [])

    public init() {}

    public var current: Snapshot { lock.withLock { snapshot } }

    func update(_ change: (inout Snapshot) -> Void) -> Snapshot {
        lock.withLock {
            change(&snapshot)
            return snapshot
        }
    }
}
