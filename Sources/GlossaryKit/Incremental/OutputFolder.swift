import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A look at an output folder against what a state says it holds: a build may trust the folder only where it is as
/// the last build left it, since anything may change it between builds (a deploy script, `rm`, a `git pull`).
enum OutputFolder {
    /// The paths of the output folder `folder` that are not as `state` says (see the next).
    static func tampered(_ folder: URL, state: BuildState, jobs: Int) -> Set<String> {
        tampered(folder, files: state.outputs, folders: state.folders, signatures: true, jobs: jobs)
    }

    /// The paths below `folder` that are not as `files` and `folders` say: files added, files gone and folders added —
    /// found in the folders whose signatures changed (a file added to a folder, or taken from it, changes the folder's)
    /// — and, with `signatures`, files changed in place. The folder's own top-level dotfiles, which every build keeps,
    /// are left out. Empty when the folder is as the state says.
    static func tampered(
        _ folder: URL, files: [String: BuildState.StoredOutput], folders: [String: FileSignature], signatures: Bool, jobs: Int
    ) -> Set<String> {
        look(folder, files: files, folders: folders, signatures: signatures, keepingFolders: false, jobs: jobs).tampered
    }

    /// `tampered(_:files:folders:signatures:jobs:)`, with the signatures the folders of `folders` were found with (those
    /// that are there; none unless `keepingFolders`).
    static func look(
        _ folder: URL, files: [String: BuildState.StoredOutput], folders: [String: FileSignature], signatures: Bool, keepingFolders: Bool = true,
        jobs: Int
    ) -> (tampered: Set<String>, folders: [String: FileSignature]) {
        let root = folder.standardizedFileURL.path
        var tampered = Set<String>()
        if signatures {
            let entries = Array(files.indices)
            let same = Self.signatures(
                of: folder, entries, path: { files[$0].key }, jobs: jobs,
                then: { entry, signature in files[entry].value.signature.map { signature?.isUnmodified(since: $0) == true } ?? false })
            for (entry, same) in zip(entries, same) where !same { tampered.insert(files[entry].key) }
        }
        let listed = Array(folders.indices)
        let found = Self.signatures(
            of: folder, listed, path: { folders[$0].key }, jobs: jobs,
            then: { entry, signature in (signature: keepingFolders ? signature : nil, same: signature?.isUnmodified(since: folders[entry].value) == true) })
        var seen: [String: FileSignature] = [:]
        if keepingFolders { seen.reserveCapacity(listed.count) }
        var changed: [String] = []
        for (entry, found) in zip(listed, found) {
            if let signature = found.signature { seen[folders[entry].key] = signature }
            if !found.same { changed.append(folders[entry].key) }
        }
        guard !changed.isEmpty else { return (tampered, seen) }
        // What each changed folder should hold, by name.
        let watched = Set(changed)
        var expected: [String: Set<String>] = [:]
        for path in Array(files.keys) + Array(folders.keys) where !path.isEmpty {
            let cut = path.utf8.lastIndex(of: UInt8(ascii: "/"))
            let parent = cut.map { String(path.utf8[..<$0])! } ?? ""
            guard watched.contains(parent) else { continue }
            expected[parent, default: []].insert(cut.map { String(path.utf8[path.utf8.index(after: $0)...])! } ?? path)
        }
        for name in changed {
            let prefix = name.isEmpty ? "" : name + "/"
            let listed = (try? FileManager.default.contentsOfDirectory(atPath: name.isEmpty ? root : root + "/" + name)) ?? []
            let wanted = expected[name] ?? []
            for entry in listed where !wanted.contains(entry) && !(name.isEmpty && entry.hasPrefix(".")) { tampered.insert(prefix + entry) }
            for entry in wanted.subtracting(listed) { tampered.insert(prefix + entry) }
        }
        return (tampered, seen)
    }

    /// The signatures of `paths` below `root` (nil where there is nothing), stat'ed on `jobs` cores from the root's
    /// descriptor (each path walked from there, not from `/`).
    static func signatures(of root: URL, _ paths: [String], jobs: Int) -> [FileSignature?] {
        signatures(of: root, paths, path: { $0 }, jobs: jobs, then: { $1 })
    }

    /// `body` of each element and the signature of its `path` below `root` (nil where there is nothing), made on
    /// `jobs` cores: `signatures(of:_:jobs:)`, for what is compared there and then.
    static func signatures<Element: Sendable, Result: Sendable>(
        of root: URL, _ elements: [Element], path: @Sendable (Element) -> String, jobs: Int, then body: @Sendable (Element, FileSignature?) -> Result
    ) -> [Result] {
        let rootPath = root.standardizedFileURL.path
        let descriptor = open(rootPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { if descriptor >= 0 { close(descriptor) } }
        guard descriptor >= 0 else { return elements.map { body($0, nil) } }
        return elements.parallelMap(jobs: jobs) { element in
            let path = path(element)
            var info = stat()
            return body(element, fstatat(descriptor, path.isEmpty ? "." : path, &info, AT_SYMLINK_NOFOLLOW) == 0 ? FileSignature(info) : nil)
        }
    }
}
