import Foundation

/// Builds a site into memory: every file rendered (nothing is kept from an earlier build), for tests and for
/// commands that look at a build without writing it.
public final class MemorySink: OutputSink, @unchecked Sendable {
    private let lock = NSLock()
    private var site = SiteOutput()

    public init() {}

    public var output: SiteOutput { lock.withLock { site } }

    public func keep(_ path: String, fingerprint: Fingerprint) throws(OutputFailure) -> Bool { false }

    public func write(_ path: String, _ data: Data, fingerprint: Fingerprint, bytesHash: Fingerprint) throws(OutputFailure) {
        lock.withLock { site.files[path] = data }
    }

    public func copy(_ path: String, from source: URL, fingerprint: Fingerprint, bytesHash: Fingerprint) throws(OutputFailure) {
        lock.withLock { site.copies[path] = source }
    }

    public func finish(paths: Set<String>) throws(OutputFailure) -> Set<String> { paths }
}
