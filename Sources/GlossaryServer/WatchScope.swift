import Foundation
import GlossaryKit

/// What a watcher watches: some paths below a site's root — a folder with everything in it, a file by itself —
/// and the names every watcher ignores.
///
/// A watched path may lie deep (`.glossary/cache`); the folders on the way to it are watched only for it
/// appearing, vanishing or being replaced. Below a watched path, the names the build skips too (`IgnoredNames`:
/// version control's, editors' droppings) are ignored.
public struct WatchScope: Sendable, Equatable {
    /// What a site's build reads: `content/`, `themes/` and `glossary.yml`.
    public static let sitePaths = ["content", "themes", "glossary.yml"]

    public let root: URL
    /// The watched paths relative to `root`: without `.` or empty components, none inside another. A path
    /// with a `..` component is left out: it would lie outside the site.
    public let paths: [String]
    /// Every folder holding a watched path at any depth (the root is `""`) → the names in it on the way to one.
    let parents: [String: Set<String>]

    public init(root: URL, paths: [String] = WatchScope.sitePaths) {
        self.root = root.standardizedFileURL
        var normalised: [String] = []
        for path in paths {
            let components = path.split(separator: "/").filter { $0 != "." }
            guard !components.isEmpty, !components.contains("..") else { continue }
            normalised.append(components.joined(separator: "/"))
        }
        // A path inside another watched path is already watched.
        let kept = Set(normalised).filter { path in !normalised.contains { path.hasPrefix($0 + "/") } }
        self.paths = kept.sorted()
        var parents: [String: Set<String>] = [:]
        for path in self.paths {
            var folder = ""
            for component in path.split(separator: "/") {
                parents[folder, default: []].insert(String(component))
                folder = folder.isEmpty ? String(component) : folder + "/" + component
            }
        }
        self.parents = parents
    }

    /// Whether a change at `path` (relative to the root) matters: a watched path, a folder on the way to one,
    /// or anything below a watched path with no ignored name after it.
    public func contains(_ path: String) -> Bool {
        if parents[path] != nil { return true }
        guard let base = paths.first(where: { path == $0 || path.hasPrefix($0 + "/") }) else { return false }
        return !path.dropFirst(base.count).split(separator: "/").contains { IgnoredNames.contains(String($0)) }
    }

    /// `path` relative to the root as a file URL.
    func url(_ path: String) -> URL {
        path.isEmpty ? root : root.appendingPathComponent(path)
    }
}
