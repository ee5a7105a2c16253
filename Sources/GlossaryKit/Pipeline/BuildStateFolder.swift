import Foundation

/// `.glossary/build/`, where `glossary build` keeps the state of each output folder it writes: the manifest, the
/// outputs file and the snapshot (`name-<id>`, the id a hash of the folder's path; a 10,000-page site's come to about
/// 20 MB), and a note of the folder an id stands for (`output-<id>`, its path as text).
///
/// With the note, the next build removes the state of an output folder that no longer exists — a `--output` tried
/// once, a folder deleted — instead of leaving it there for good. Were the folder only away for a while (a drive
/// unmounted), its next build is a full one, as it would be anyway with the folder's files gone. State files without a
/// note (made before notes were kept) are left alone.
enum BuildStateFolder {
    /// The per-output state files, by name.
    static let stateNames = ["manifest", "outputs", "snapshot"]
    static let noteName = "output"

    /// Notes that `output`'s state files are that folder's (written when missing or different).
    static func register(folder: URL, output: URL) {
        let note = BuildManifest.stateFile(noteName, folder: folder, output: output)
        let path = Data(output.standardizedFileURL.path.utf8)
        guard FileManager.default.contents(atPath: note.path) != path else { return }
        try? path.write(to: note, options: .atomic)
    }

    /// Removes the state files of every noted output folder, other than `output`, that is no longer a folder.
    static func prune(folder: URL, keeping output: URL) {
        let kept = BuildManifest.stateFile(noteName, folder: folder, output: output).lastPathComponent
        let prefix = noteName + "-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(prefix) && name != kept {
            let note = folder.appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: note.path), let path = String(data: data, encoding: .utf8), !path.isEmpty
            else { continue }
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue { continue }
            let id = String(name.dropFirst(prefix.count))
            for state in stateNames { try? FileManager.default.removeItem(at: folder.appendingPathComponent("\(state)-\(id)")) }
            try? FileManager.default.removeItem(at: note)
        }
    }
}
