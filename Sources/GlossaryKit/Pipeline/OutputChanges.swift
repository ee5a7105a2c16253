import Foundation
import Synchronization

/// The files of a built site, and those a build wrote or removed.
public struct OutputChanges: Sendable {
    /// Every file of the site, by path below its root: after a build that didn't list them (one that found nothing to
    /// do), made when first asked for — `glossary build` never asks.
    public var paths: Set<String> {
        get { listing.paths }
        set { listing = Listing { newValue } }
    }
    /// Files this build wrote (new or changed) or removed.
    public var changed: Set<String>
    /// Whether the site has the files the build its state came from left, no more and no fewer (only bytes changed):
    /// so said by the builds that know it without listing them.
    public var sameFiles = false
    private var listing: Listing

    public init(paths: Set<String>, changed: Set<String>) {
        listing = Listing { paths }
        self.changed = changed
    }

    init(changed: Set<String>, sameFiles: Bool, paths: @escaping @Sendable () -> Set<String>) {
        listing = Listing(paths)
        self.changed = changed
        self.sameFiles = sameFiles
    }

    /// The paths, made once when first asked for.
    private final class Listing: Sendable {
        private let made: Mutex<Set<String>?> = Mutex(nil)
        private let make: @Sendable () -> Set<String>

        init(_ make: @escaping @Sendable () -> Set<String>) { self.make = make }

        var paths: Set<String> {
            made.withLock { made in
                if let made { return made }
                let paths = make()
                made = paths
                return paths
            }
        }
    }
}
