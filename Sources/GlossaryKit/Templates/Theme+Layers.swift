import Foundation

extension Theme {
    /// The layers of theme `name`, the most specific first, and the problems found on the way.
    ///
    /// `NAME` means the site's `themes/NAME/`. Its `theme.yml` may say `extends: OTHER`, and `OTHER` is looked
    /// up the same way, and so on. `default` means the site's `themes/default/` the first time and the built-in
    /// theme after that, or when the site has none: so a site's `themes/default/` (with no `theme.yml`, or one
    /// saying `extends: default`) holds only the files it overrides. Any other folder without `extends` is a
    /// whole theme. Each folder is visited at most once, so a chain is at most as long as `themes/` has
    /// folders; naming one twice is a `theme-cycle` error at the `extends` that closes the cycle, naming every
    /// `theme.yml` in it.
    ///
    /// `location` is where glossary.yml names the theme.
    static func layers(
        name: String, siteRoot: URL, location: SourceLocation? = nil, displayPath: (URL) -> String
    ) -> (layers: [ThemeLayer], diagnostics: [Diagnostic]) {
        var layers: [ThemeLayer] = []
        var diagnostics: [Diagnostic] = []
        var manifests: [String: String] = [:]
        // The name to look up, where it was asked for (nil: glossary.yml's `theme:`) and by which theme.
        var next: (name: String, location: SourceLocation?, by: String?)? = (name, nil, nil)
        while let wanted = next {
            next = nil
            let folder = siteRoot.appendingPathComponent("themes/\(wanted.name)", isDirectory: true)
            var isDirectory: ObjCBool = false
            let visited = layers.contains { $0.name == wanted.name }
            if !visited, FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue {
                layers.append(ThemeLayer(name: wanted.name, source: .folder(folder)))
                let manifestURL = folder.appendingPathComponent(ThemeManifest.fileName)
                var manifest = ThemeManifest()
                if let data = FileManager.default.contents(atPath: manifestURL.path) {
                    let file = displayPath(manifestURL)
                    manifests[wanted.name] = file
                    let (read, problems) = ThemeManifest.load(yaml: String(decoding: data, as: UTF8.self), file: file)
                    manifest = read
                    diagnostics += problems
                }
                if let extends = manifest.extends {
                    next = (extends.name, extends.location, wanted.name)
                } else if wanted.name == BuiltInTheme.name {
                    next = (BuiltInTheme.name, nil, wanted.name)
                }
            } else if wanted.name == BuiltInTheme.name {
                layers.append(ThemeLayer(name: BuiltInTheme.name, source: .builtIn))
            } else if visited, let location = wanted.location, let by = wanted.by {
                let cycle = (layers.drop { $0.name != wanted.name }.map(\.name) + [wanted.name]).joined(separator: " → ")
                let files = layers.drop { $0.name != wanted.name }.compactMap { manifests[$0.name] }.joined(separator: ", ")
                diagnostics.append(Diagnostic(.themeCycle(theme: by, extends: wanted.name, chain: cycle, files: files), at: location))
            } else if let location = wanted.location, let by = wanted.by {
                diagnostics.append(Diagnostic(.themeExtendsMissing(theme: by, extends: wanted.name), at: location))
            } else {
                diagnostics.append(Diagnostic(.themeMissing(name: wanted.name), at: location ?? .start(of: "glossary.yml")))
            }
        }
        return (layers, diagnostics)
    }
}
