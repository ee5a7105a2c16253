import Foundation

/// A theme: Mustache templates (`templates/*.mustache`, each usable as a partial or parent by its name) and
/// `assets/`, copied to `site/assets/`.
public struct Theme: Sendable {
    public var name: String
    public var directory: URL
    public var templates: MustachePartials
    /// Asset paths relative to `assets/`.
    public var assetFiles: [String]
    /// Each template's source as parsed, by name: what the preview server's memo compares between builds.
    public var templateSources: [String: String] = [:]

    /// The templates every theme must provide.
    public static let requiredTemplates = ["page", "term", "terms", "search", "404"]

    /// Where to find a theme: the site's own `themes/<name>/`, else the themes installed beside the binary.
    public static func locate(name: String, siteRoot: URL) -> URL? {
        var candidates = [siteRoot.appendingPathComponent("themes/\(name)", isDirectory: true)]
        if let environment = ProcessInfo.processInfo.environment["GLOSSARY_THEMES"] {
            candidates.append(URL(fileURLWithPath: environment).appendingPathComponent(name, isDirectory: true))
        }
        // Installed layout (PREFIX/bin/glossary → PREFIX/share/glossary/themes) and the repository's own
        // layout (.build/<config>/glossary → themes/ three levels up).
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath().deletingLastPathComponent()
        candidates.append(executable.appendingPathComponent("../share/glossary/themes/\(name)", isDirectory: true).standardizedFileURL)
        var folder = executable
        for _ in 0..<4 {
            candidates.append(folder.appendingPathComponent("themes/\(name)", isDirectory: true))
            folder = folder.deletingLastPathComponent()
        }
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("templates").path) }
    }

    /// Loads and parses every template; problems are reported at the template's file, line and column.
    ///
    /// - Parameter location: where glossary.yml names the theme, for the error when it doesn't exist.
    public static func load(name: String, siteRoot: URL, location: SourceLocation?, displayPath: (URL) -> String) -> (Theme?, [Diagnostic]) {
        guard let directory = locate(name: name, siteRoot: siteRoot) else {
            return (nil, [Diagnostic(.themeMissing(name: name), at: location ?? .start(of: "glossary.yml"))])
        }
        let templatesFolder = directory.appendingPathComponent("templates", isDirectory: true)
        var sources: [String: String] = [:]
        for file in SiteSource.listFiles(in: templatesFolder) where file.hasSuffix(".mustache") {
            if let data = FileManager.default.contents(atPath: templatesFolder.appendingPathComponent(file).path) {
                sources[String(file.dropLast(".mustache".count))] = String(decoding: data, as: UTF8.self)
            }
        }
        var diagnostics: [Diagnostic] = []
        var templates = MustachePartials()
        for (templateName, source) in sources.sorted(by: { $0.key < $1.key }) {
            let path = displayPath(templatesFolder.appendingPathComponent(templateName + ".mustache"))
            do {
                templates.add(try MustacheTemplate(source, name: path), named: templateName)
            } catch {
                diagnostics.append(Diagnostic(.templateSyntax(detail: error.message), at: SourceLocation(file: path, line: error.line, column: error.column)))
            }
        }
        for required in requiredTemplates where sources[required] == nil {
            diagnostics.append(Diagnostic(.templateMissing(theme: name, template: required), at: .start(of: displayPath(templatesFolder))))
        }
        let assets = SiteSource.listFiles(in: directory.appendingPathComponent("assets", isDirectory: true))
        return (Theme(name: name, directory: directory, templates: templates, assetFiles: assets, templateSources: sources), diagnostics)
    }

    public func render(_ template: String, _ context: MustacheValue) -> String {
        templates[template]?.render(context, partials: templates) ?? ""
    }
}
