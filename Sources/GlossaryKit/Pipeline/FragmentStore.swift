import Foundation

/// Page fragments by content path, filled by the parsing workers.
final class FragmentStore: @unchecked Sendable {
    private let lock = NSLock()
    private var fragments: [String: PageFragment] = [:]

    func add(_ fragment: PageFragment, for contentPath: String) {
        lock.withLock { fragments[contentPath] = fragment }
    }

    /// The fragment, removed from the store (each page is rendered once a build).
    func take(_ contentPath: String) -> PageFragment? {
        lock.withLock { fragments.removeValue(forKey: contentPath) }
    }
}
