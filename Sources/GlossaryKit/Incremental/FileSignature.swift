import Foundation

/// What `stat` says about a file: enough to notice any write, rename or replacement.
public struct FileSignature: Hashable, Sendable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    public var modifiedSeconds: Int
    public var modifiedNanoseconds: Int
    public var changedSeconds: Int
    public var changedNanoseconds: Int

    public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modifiedSeconds = info.st_mtim.tv_sec
        modifiedNanoseconds = info.st_mtim.tv_nsec
        changedSeconds = info.st_ctim.tv_sec
        changedNanoseconds = info.st_ctim.tv_nsec
    }

    init(device: UInt64, inode: UInt64, size: Int64, modifiedSeconds: Int, modifiedNanoseconds: Int, changedSeconds: Int, changedNanoseconds: Int) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modifiedSeconds = modifiedSeconds
        self.modifiedNanoseconds = modifiedNanoseconds
        self.changedSeconds = changedSeconds
        self.changedNanoseconds = changedNanoseconds
    }

    /// Whether this is the same file, untouched since `other` was taken, leaving out the change time: the
    /// build's own output files gain hard links (which touch the change time) and are never edited by it.
    public func isUnmodified(since other: FileSignature) -> Bool {
        device == other.device && inode == other.inode && size == other.size && modifiedSeconds == other.modifiedSeconds
            && modifiedNanoseconds == other.modifiedNanoseconds
    }

    /// Which file it is, whatever its contents: a replaced file (or folder) has another identity.
    public struct Identity: Hashable, Sendable {
        public var device: UInt64
        public var inode: UInt64
    }

    public var identity: Identity { Identity(device: device, inode: inode) }

    /// The later of the modification and change times, in seconds since 1970.
    public var modified: Double {
        max(Double(modifiedSeconds) + Double(modifiedNanoseconds) / 1e9, Double(changedSeconds) + Double(changedNanoseconds) / 1e9)
    }

    /// Whether a file with this signature, seen unchanged when `verifiedAt`, can be trusted unread: it had not
    /// been touched for a second by then (git's rule for "racily clean" files: a write within the clock's
    /// granularity of the look could leave the signature as it was).
    public func isSettled(at verifiedAt: Double, after seconds: Double = 1) -> Bool { verifiedAt - modified > seconds }
}
