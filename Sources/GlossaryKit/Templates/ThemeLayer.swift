import Foundation

/// One place a theme's files come from: a folder of the site (`themes/<name>/`) or the built-in theme.
///
/// A theme is a list of layers, the most specific first; each template and asset comes from the first layer
/// that has it.
public struct ThemeLayer: Sendable, Equatable {
    public enum Source: Sendable, Equatable {
        case folder(URL)
        case builtIn
    }

    public var name: String
    public var source: Source

    public init(name: String, source: Source) {
        self.name = name
        self.source = source
    }

    /// Template sources by template name (the path below `templates/` without `.mustache`), with the path
    /// diagnostics show for each; what the folder has that can't be used is added to `problems`, as in `content/`.
    func templates(displayPath: (URL) -> String, problems: inout [Diagnostic]) -> [String: (source: String, path: String)] {
        var result: [String: (source: String, path: String)] = [:]
        switch source {
        case .folder(let folder):
            let templatesFolder = folder.appendingPathComponent("templates", isDirectory: true)
            for file in Self.list(templatesFolder, displayPath: displayPath, problems: &problems) where file.hasSuffix(".mustache") {
                let url = templatesFolder.appendingPathComponent(file)
                if let data = FileManager.default.contents(atPath: url.path) {
                    result[String(file.dropLast(".mustache".count))] = (String(decoding: data, as: UTF8.self), displayPath(url))
                }
            }
        case .builtIn:
            for (path, data) in BuiltInTheme.files where path.hasPrefix("templates/") && path.hasSuffix(".mustache") {
                let name = String(path.dropFirst("templates/".count).dropLast(".mustache".count))
                result[name] = (String(decoding: data, as: UTF8.self), BuiltInTheme.displayFolder + "/" + path)
            }
        }
        return result
    }

    /// The strings of each locale file (`i18n/<lang>.yml`), by language; problems go to `problems`.
    func strings(displayPath: (URL) -> String, problems: inout [Diagnostic]) -> [String: [String: String]] {
        var files: [(language: String, text: String, path: String)] = []
        switch source {
        case .folder(let folder):
            let i18nFolder = folder.appendingPathComponent("i18n", isDirectory: true)
            for file in Self.list(i18nFolder, displayPath: displayPath, problems: &problems) where file.hasSuffix(".yml") && !file.contains("/") {
                let url = i18nFolder.appendingPathComponent(file)
                if let data = FileManager.default.contents(atPath: url.path) {
                    files.append((String(file.dropLast(".yml".count)), String(decoding: data, as: UTF8.self), displayPath(url)))
                }
            }
        case .builtIn:
            for (path, data) in BuiltInTheme.files where path.hasPrefix("i18n/") && path.hasSuffix(".yml") {
                let language = String(path.dropFirst("i18n/".count).dropLast(".yml".count))
                files.append((language, String(decoding: data, as: UTF8.self), BuiltInTheme.displayFolder + "/" + path))
            }
        }
        var result: [String: [String: String]] = [:]
        for file in files.sorted(by: { $0.path < $1.path }) {
            let (strings, fileProblems) = ThemeStrings.read(yaml: file.text, file: file.path)
            result[file.language] = strings
            problems += fileProblems
        }
        return result
    }

    /// Assets by path below `assets/`; what the folder has that can't be used is added to `problems`.
    func assets(displayPath: (URL) -> String, problems: inout [Diagnostic]) -> [String: ThemeAsset] {
        switch source {
        case .folder(let folder):
            let assetsFolder = folder.appendingPathComponent("assets", isDirectory: true)
            return Dictionary(
                uniqueKeysWithValues: Self.list(assetsFolder, displayPath: displayPath, problems: &problems).map {
                    ($0, ThemeAsset.file(assetsFolder.appendingPathComponent($0)))
                })
        case .builtIn:
            var result: [String: ThemeAsset] = [:]
            for (path, data) in BuiltInTheme.files where path.hasPrefix("assets/") {
                result[String(path.dropFirst("assets/".count))] = .data(data)
            }
            return result
        }
    }

    /// The files below `folder` (`SiteSource.listFiles`: a link out of it, a FIFO… left out), each left out a problem
    /// at its path. A folder that doesn't exist holds nothing.
    private static func list(_ folder: URL, displayPath: (URL) -> String, problems: inout [Diagnostic]) -> [String] {
        guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
        var skipped: [Diagnostic] = []
        let files = SiteSource.listFiles(in: folder) { path, reason in
            skipped.append(Diagnostic(reason.problem(in: displayPath(folder)), at: .start(of: displayPath(folder.appendingPathComponent(path)))))
        }
        problems += skipped
        return files
    }

    /// Where diagnostics say a missing template should go.
    func templatesFolder(displayPath: (URL) -> String) -> String {
        switch source {
        case .folder(let folder): displayPath(folder.appendingPathComponent("templates", isDirectory: true))
        case .builtIn: BuiltInTheme.displayFolder + "/templates"
        }
    }
}
