import Foundation
import GlossaryKit

/// One good build as the server serves it, immutable: the files of the build's folder, the build's id and the
/// path it is mounted under. Replaced whole after each good build.
public final class ServedSite: Sendable {
    /// The folder the build wrote (the preview server's own, never `site/`).
    public let folder: URL
    /// Every file of the build, by path below the site root.
    public let paths: Set<String>
    public let buildID: String
    /// The path the site is served under: `/`, or `base_url`'s path (`/docs/`).
    public let mount: String
    /// Every folder that holds a file of the site (`guide/`, `terms/kerning/`), for `/dir` → `/dir/`.
    let folders: Set<String>

    init(folder: URL, paths: Set<String>, buildID: String, mount: String) {
        self.folder = folder
        self.paths = paths
        self.buildID = buildID
        self.mount = mount
        var folders = Set<String>()
        for path in paths {
            var folder = Substring(path)
            while let slash = folder.lastIndex(of: "/") {
                folder = folder[..<slash]
                guard folders.insert(folder + "/").inserted else { break }
            }
        }
        self.folders = folders
    }

    /// The file's bytes now (the folder is the build's, written file by file with renames).
    func contents(_ path: String) -> Data? {
        guard paths.contains(path), case .success(let data) = FileContents.read(folder.path + "/" + path) else { return nil }
        return data
    }
}
