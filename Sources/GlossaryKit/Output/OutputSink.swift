import Foundation

/// Where a build puts its files: a new version of an output folder (`SiteTransaction`: `glossary build` and the
/// preview server), or memory (`MemorySink`, for tests and `glossary render`).
///
/// The build offers each planned file to `keep` first with the fingerprint of the value it is made from: a sink that
/// holds the file made from that value keeps it, and the build renders only the rest. Called from several threads at
/// once.
public protocol OutputSink: AnyObject, Sendable {
    /// Whether the sink holds `path` made from the value of `fingerprint` (now, or by carrying it over).
    func keep(_ path: String, fingerprint: Fingerprint) throws(OutputFailure) -> Bool
    /// A rendered file, with where it shows the values of its slots (a content page's body, each page's text in
    /// `llms-full.txt`); a nil fingerprint says the value it was made from is not known (the next build that plans it
    /// makes it again).
    func write(_ path: String, _ data: Data, fingerprint: Fingerprint?, slots: MustacheSlots?) throws(OutputFailure)
    /// A file made a piece at a time by `body`, so that it need never be whole in memory (the glossary exports), which
    /// gives where the file shows its slots' values (each term's part of an export); otherwise as
    /// `write(_:_:fingerprint:slots:)`.
    func write(_ path: String, fingerprint: Fingerprint?, streaming body: (inout StreamedFile) -> MustacheSlots?) throws(OutputFailure)
    /// A file copied as it is (a theme asset, a content file), `fingerprint` being its bytes'.
    func copy(_ path: String, from source: URL, fingerprint: Fingerprint) throws(OutputFailure)
    /// Called once every planned file is in: whatever else the sink holds goes. Returns the paths it wrote or
    /// removed in this build.
    func finish(paths: Set<String>) throws(OutputFailure) -> Set<String>
}

extension OutputSink {
    /// Made whole in memory, for a sink that keeps files there.
    public func write(_ path: String, fingerprint: Fingerprint?, streaming body: (inout StreamedFile) -> MustacheSlots?) throws(OutputFailure) {
        var file = StreamedFile()
        let slots = body(&file)
        try write(path, file.data(), fingerprint: fingerprint, slots: slots)
    }
}
