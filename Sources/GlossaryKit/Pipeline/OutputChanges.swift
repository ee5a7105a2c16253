/// The files of a built site, and those a build wrote or removed.
public struct OutputChanges: Sendable {
    /// Every file of the site, by path below its root.
    public var paths: Set<String>
    /// Files this build wrote (new or changed) or removed.
    public var changed: Set<String>
}
