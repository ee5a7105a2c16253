import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Another user for a test running as root to run the binary as (root reads every folder, so a folder it can't read
/// needs someone else): `nobody`, through `runuser`. What it runs is copied first into a folder of its own in `/tmp`,
/// which any user can reach wherever the clone is (a private home folder too).
public struct OtherUser {
    public static let name = "nobody"

    /// Whether the tests run as root and there is another user to run as.
    public static var isAvailable: Bool {
        geteuid() == 0 && getpwnam(name) != nil && FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser")
    }

    /// The folder the other user works in.
    public let folder: URL

    public init() throws {
        folder = URL(fileURLWithPath: "/tmp", isDirectory: true).appendingPathComponent("glossary-other-user-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        chmod(folder.path, 0o777)
    }

    /// A copy of the folder `site` in the user's folder, every folder in it writable by the user.
    public func copy(_ site: URL) throws -> URL {
        let copy = folder.appendingPathComponent(site.lastPathComponent, isDirectory: true)
        try FileManager.default.copyItem(at: site, to: copy)
        chmod(copy.path, 0o777)
        let walk = FileManager.default.enumerator(at: copy, includingPropertiesForKeys: [.isDirectoryKey])
        while let url = walk?.nextObject() as? URL {
            let isFolder = (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true
            chmod(url.path, isFolder ? 0o777 : 0o666)
        }
        return copy
    }

    /// Runs a copy of `binary` as the user with `arguments` in `site` (HOME there too); returns its stderr.
    public func run(_ binary: URL, _ arguments: [String], in site: URL) throws -> String {
        let copy = folder.appendingPathComponent(binary.lastPathComponent)
        if !FileManager.default.fileExists(atPath: copy.path) { try FileManager.default.copyItem(at: binary, to: copy) }
        chmod(copy.path, 0o755)
        let process = Subprocess()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
        process.arguments = ["-u", Self.name, "--", copy.path] + arguments
        process.currentDirectoryURL = site
        process.environment = GlossaryBinary.environment(["HOME": site.path])
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Deletes the user's folder.
    public func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}
