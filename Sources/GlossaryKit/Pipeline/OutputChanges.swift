import Foundation

/// The files of a built site, and those a build wrote or removed.
public struct OutputChanges: Sendable {
    /// Every file of the site, by path below its root: after a build that didn't list them (one that found nothing to
    /// do, or patched a few files), made when first asked for — `glossary build` never asks, and the site's 12,000 paths
    /// were a tenth of such a build.
    public var paths: Set<String> {
        get { listing.paths }
        set { listing = Listing(newValue) }
    }
    /// Files this build wrote (new or changed) or removed.
    public var changed: Set<String>
    private var listing: Listing

    public init(paths: Set<String>, changed: Set<String>) {
        listing = Listing(paths)
        self.changed = changed
    }

    init(changed: Set<String>, paths: @escaping @Sendable () -> Set<String>) {
        listing = Listing(paths)
        self.changed = changed
    }

    /// The paths, or how to make them once.
    private final class Listing: @unchecked Sendable {
        private let lock = NSLock()
        private var made: Set<String>?
        private var make: (@Sendable () -> Set<String>)?

        init(_ paths: Set<String>) { made = paths }
        init(_ make: @escaping @Sendable () -> Set<String>) { self.make = make }

        var paths: Set<String> {
            lock.withLock {
                if let made { return made }
                let paths = make?() ?? []
                made = paths
                make = nil
                return paths
            }
        }
    }
}
