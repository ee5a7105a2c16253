import Foundation
import PackagePlugin

/// Builds files into a module: reads the target's `EmbeddedFiles.txt` and runs the `EmbedFiles` tool, which
/// writes `EmbeddedFiles.swift` with their bytes.
///
/// Each line of `EmbeddedFiles.txt` is `NAME PATH [PACKAGE]` (`#` starts a comment), the path relative to the
/// package root: a folder embeds every file below it (names starting with `.` or ending with `~` left out, as a
/// site's theme folder is read), a file its bytes. An absolute path takes a file of the system at build time
/// (a Debian package's, like the C libraries' headers); PACKAGE names the package that provides it, for the
/// error when it is missing. Every embedded file and folder is an input of the build command, so editing,
/// adding or removing one (or upgrading the package) regenerates the source.
@main
struct EmbedFilesPlugin: BuildToolPlugin {
    static let manifestName = "EmbeddedFiles.txt"

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let manifest = target.directoryURL.appendingPathComponent(Self.manifestName)
        guard let text = FileManager.default.contents(atPath: manifest.path).map({ String(decoding: $0, as: UTF8.self) }) else {
            throw PluginError("\(target.name) applies EmbedFilesPlugin but has no \(Self.manifestName)")
        }
        let packageRoot = context.package.directoryURL
        let manifestPath = "Sources/\(target.name)/\(Self.manifestName)"
        var arguments: [String] = []
        var inputs = [manifest]
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let words = line.prefix { $0 != "#" }.split(whereSeparator: \.isWhitespace).map(String.init)
            if words.isEmpty { continue }
            guard words.count == 2 || words.count == 3 else { throw PluginError("\(manifestPath):\(index + 1): expected NAME PATH [PACKAGE]") }
            let (name, path) = (words[0], words[1].hasSuffix("/") ? String(words[1].dropLast()) : words[1])
            let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : packageRoot.appendingPathComponent(path)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                let install = words.count == 3 ? "; install Debian's \(words[2]) (apt-get install \(words[2]))" : ""
                throw PluginError("\(manifestPath):\(index + 1): \(path) does not exist\(install)")
            }
            if isDirectory.boolValue {
                let (files, folders) = Self.contents(of: url)
                arguments += ["--folder", name, path]
                inputs += [url] + folders + files
            } else {
                arguments += ["--file", name, path]
                inputs.append(url)
            }
        }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("EmbeddedFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding the files of \(manifestPath)",
                executable: try context.tool(named: "EmbedFiles").url,
                arguments: [output.path, manifestPath, packageRoot.path] + arguments,
                inputFiles: inputs,
                outputFiles: [output])
        ]
    }

    /// The files below `folder`, sorted, and the folders inside it (whose listing changes when a file is added).
    static func contents(of folder: URL) -> (files: [URL], folders: [URL]) {
        var files: [URL] = []
        var folders: [URL] = []
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names.sorted() where !name.hasPrefix(".") && !name.hasSuffix("~") {
            let child = folder.appendingPathComponent(name)
            let values = try? child.resourceValues(forKeys: [.isDirectoryKey, .isRegularFileKey, .isSymbolicLinkKey])
            if values?.isDirectory == true && values?.isSymbolicLink != true {
                let (innerFiles, innerFolders) = contents(of: child)
                folders.append(child)
                folders += innerFolders
                files += innerFiles
            } else if (try? child.resolvingSymlinksInPath().resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
                files.append(child)
            }
        }
        return (files, folders)
    }
}

struct PluginError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
