import Foundation
import GlossaryKit

/// One good build as the server serves it, immutable: the whole value is replaced after each good build.
public final class ServedSite: Sendable {
    /// Validators of a rendered file: they change only when the file's bytes change.
    struct Version: Sendable {
        var etag: String
        var lastModified: Date
        /// `lastModified` as the header shows it, formatted once.
        var lastModifiedText: String

        init(etag: String, lastModified: Date) {
            self.etag = etag
            self.lastModified = lastModified
            self.lastModifiedText = HTTPDate.format(lastModified)
        }
    }

    public let output: SiteOutput
    public let buildID: String
    /// The path the site is served under: `/`, or `base_url`'s path (`/docs/`).
    public let mount: String
    let versions: [String: Version]
    /// Every folder that holds a file of the site (`guide/`, `terms/kerning/`), for `/dir` → `/dir/`.
    let folders: Set<String>
    /// Real paths (with a trailing `/`) that copied files must resolve into: content/ and the theme's assets/.
    let copyRoots: [String]

    init(output: SiteOutput, buildID: String, mount: String, versions: [String: Version], copyRoots: [URL]) {
        self.output = output
        self.buildID = buildID
        self.mount = mount
        self.versions = versions
        var folders = Set<String>()
        for path in output.paths {
            var folder = Substring(path)
            while let slash = folder.lastIndex(of: "/") {
                folder = folder[..<slash]
                guard folders.insert(folder + "/").inserted else { break }
            }
        }
        self.folders = folders
        self.copyRoots = copyRoots.compactMap { url in
            guard let real = realpath(url.path, nil) else { return nil }
            defer { free(real) }
            let path = String(cString: real)
            return path.hasSuffix("/") ? path : path + "/"
        }
    }

    /// The next site: validators carried over for files whose bytes did not change, new ones for the rest.
    func next(output: SiteOutput, buildID: String, mount: String, changed: Set<String>, copyRoots: [URL], now: Date = Date()) -> ServedSite {
        let modified = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let fresh = Version(etag: "\"\(buildID)\"", lastModified: modified)
        var versions: [String: Version] = [:]
        versions.reserveCapacity(output.files.count)
        for path in output.files.keys {
            if !changed.contains(path), let version = self.versions[path] {
                versions[path] = version
            } else {
                versions[path] = fresh
            }
        }
        return ServedSite(output: output, buildID: buildID, mount: mount, versions: versions, copyRoots: copyRoots)
    }

    static func first(output: SiteOutput, buildID: String, mount: String, copyRoots: [URL], now: Date = Date()) -> ServedSite {
        let modified = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let fresh = Version(etag: "\"\(buildID)\"", lastModified: modified)
        let versions = output.files.keys.reduce(into: [String: Version]()) { $0[$1] = fresh }
        return ServedSite(output: output, buildID: buildID, mount: mount, versions: versions, copyRoots: copyRoots)
    }

    /// The real path of a copied file, or nil when it resolves (through symlinks) outside the allowed folders.
    func safeCopyPath(_ path: String) -> String? {
        guard let source = output.copies[path], let real = realpath(source.path, nil) else { return nil }
        defer { free(real) }
        let resolved = String(cString: real)
        return copyRoots.contains(where: { resolved.hasPrefix($0) }) ? resolved : nil
    }
}
