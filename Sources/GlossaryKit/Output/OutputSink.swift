import Foundation

/// Where a build puts its files: a new version of an output folder (`SiteTransaction`, for `glossary build`), a
/// folder updated in place (`FolderSink`, the preview server's), or memory (`SiteOutput`, for tests).
///
/// The build offers each planned output to `keep` first with the fingerprint of its inputs: a sink that
/// already has (or can carry over unchanged) a file made from those inputs keeps it, and the build renders
/// only the rest. Methods are called from several threads at once.
public protocol OutputSink: AnyObject, Sendable {
    /// Whether the sink holds `path` made from inputs with `fingerprint`, now or by carrying it over; if so
    /// the build neither renders nor writes it.
    func keep(_ path: String, fingerprint: Fingerprint) throws(OutputFailure) -> Bool
    /// A rendered file; `bytesHash` is its bytes' fingerprint (a sink may skip writing equal bytes).
    func write(_ path: String, _ data: Data, fingerprint: Fingerprint, bytesHash: Fingerprint) throws(OutputFailure)
    /// A rendered content page, with where it shows its body (which a sink that keeps it may note for later builds).
    func write(_ path: String, _ data: Data, fingerprint: Fingerprint, bytesHash: Fingerprint, slots: BodySlots?) throws(OutputFailure)
    /// A file copied as it is (a theme asset, a content file); `bytesHash` is its content's fingerprint.
    func copy(_ path: String, from source: URL, fingerprint: Fingerprint, bytesHash: Fingerprint) throws(OutputFailure)
    /// Called once every output is in: everything else the sink holds goes. Returns the paths it wrote or
    /// removed in this build.
    func finish(paths: Set<String>) throws(OutputFailure) -> Set<String>
}

extension OutputSink {
    public func write(_ path: String, _ data: Data, fingerprint: Fingerprint, bytesHash: Fingerprint, slots: BodySlots?) throws(OutputFailure) {
        try write(path, data, fingerprint: fingerprint, bytesHash: bytesHash)
    }
}
