import Foundation
import Synchronization

/// Builds a site into memory: every file rendered (nothing is kept from an earlier build), for tests and for
/// commands that look at a build without writing it.
public final class MemorySink: OutputSink, Sendable {
    private let site = Mutex(SiteOutput())

    public init() {}

    public var output: SiteOutput { site.withLock { $0 } }

    public func keep(_ path: String, fingerprint: Fingerprint) throws(OutputFailure) -> Bool { false }

    public func write(_ path: String, _ data: Data, fingerprint: Fingerprint?, slots: MustacheSlots?) throws(OutputFailure) {
        site.withLock { $0.files[path] = data }
    }

    public func copy(_ path: String, from source: URL, fingerprint: Fingerprint) throws(OutputFailure) {
        site.withLock { $0.copies[path] = source }
    }

    public func finish(paths: Set<String>) throws(OutputFailure) -> Set<String> { paths }
}
