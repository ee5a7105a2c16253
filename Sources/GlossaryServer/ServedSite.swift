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
    /// The path the site is served under: `/`, or `base_url`'s path (`/docs/`), decoded as request paths are.
    public let mount: String
    /// Every folder that holds a file of the site (`guide/`, `terms/kerning/`), for `/dir` → `/dir/`.
    let folders: Set<String>

    /// The site of a build whose files are `paths`; its folders are `previous`'s when it had the same files (most
    /// rebuilds change files, not which files there are).
    init(folder: URL, paths: Set<String>, buildID: String, mount: String, previous: ServedSite? = nil) {
        self.folder = folder
        self.paths = paths
        self.buildID = buildID
        self.mount = mount
        if let previous, previous.paths == paths {
            folders = previous.folders
        } else {
            folders = Self.folders(of: paths)
        }
    }

    /// Every folder on the way to each path, each as `a/b/`.
    static func folders(of paths: Set<String>) -> Set<String> {
        var folders = Set<String>()
        for path in paths {
            let utf8 = path.utf8
            var end = utf8.endIndex
            // From the deepest folder up: once one is known, so are those above it.
            while let slash = utf8[..<end].lastIndex(of: UInt8(ascii: "/")) {
                guard folders.insert(String(path[...slash])).inserted else { break }
                end = slash
            }
        }
        return folders
    }

    /// The file's bytes now (each good build swaps the folder whole).
    func contents(_ path: String) -> Data? {
        guard paths.contains(path), case .success(let data) = FileContents.read(folder.path + "/" + path) else { return nil }
        return data
    }
}
