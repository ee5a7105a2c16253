import Foundation

/// A theme: Mustache templates (`templates/*.mustache`, each usable as a partial or parent by its name) and
/// `assets/`, written to `site/assets/`.
///
/// A theme is made of layers (see `Theme+Layers.swift`): the site's `themes/<name>/`, the themes it extends
/// through `theme.yml`, and for `default` the theme built into the binary. Each template and asset comes from
/// the first layer that has it, so a site's theme holds only the files it changes.
public struct Theme: Sendable {
    public var name: String
    /// Where the files come from, the most specific first.
    public var layers: [ThemeLayer]
    public var templates: MustachePartials
    /// Assets by path below `assets/`.
    public var assets: [String: ThemeAsset]
    /// The words the templates show, by language (`i18n/<lang>.yml`).
    public var strings = ThemeStrings()
    /// Each template's source as parsed, by name: what the preview server's memo compares between builds.
    public var templateSources: [String: String] = [:]

    /// The templates every theme must provide.
    public static let requiredTemplates = ["page", "term", "terms", "search", "404"]

    /// Whether `name` can name a folder in `themes/` (it must not climb out of it).
    public static func isValidName(_ name: String) -> Bool {
        !(name.isEmpty || name == "." || name == ".." || name.contains("/") || name.contains("\\"))
    }

    /// The folders of the site that hold assets of theme `name`: what the preview server may copy from.
    public static func assetFolders(name: String, siteRoot: URL) -> [URL] {
        layers(name: name, siteRoot: siteRoot, displayPath: \.path).layers.compactMap { layer in
            guard case .folder(let folder) = layer.source else { return nil }
            return folder.appendingPathComponent("assets", isDirectory: true)
        }
    }

    /// Finds the theme's layers, then loads and parses the templates it uses; problems are reported at the
    /// file, line and column (`theme-missing`, `theme-cycle`, `template-syntax`, `template-recursion`,
    /// `template-missing`, and those of `theme.yml`).
    ///
    /// - Parameter location: where glossary.yml names the theme, for the error when it doesn't exist.
    public static func load(name: String, siteRoot: URL, location: SourceLocation? = nil, displayPath: (URL) -> String) -> (Theme?, [Diagnostic]) {
        let (layers, initial) = layers(name: name, siteRoot: siteRoot, location: location, displayPath: displayPath)
        var diagnostics = initial
        guard !layers.isEmpty, !diagnostics.contains(where: { $0.code == .themeMissing || $0.code == .themeCycle }) else {
            return (nil, diagnostics)
        }
        var sources: [String: (source: String, path: String)] = [:]
        var assets: [String: ThemeAsset] = [:]
        var strings: [String: [String: String]] = [:]
        for layer in layers {
            for (language, own) in layer.strings(displayPath: displayPath, problems: &diagnostics) {
                strings[language, default: [:]].merge(own) { mine, _ in mine }
            }
            sources.merge(layer.templates(displayPath: displayPath, problems: &diagnostics)) { mine, _ in mine }
            assets.merge(layer.assets(displayPath: displayPath, problems: &diagnostics)) { mine, _ in mine }
        }
        var templates = MustachePartials()
        for (templateName, template) in sources.sorted(by: { $0.key < $1.key }) {
            do {
                templates.add(try MustacheTemplate(template.source, name: template.path), named: templateName)
            } catch {
                diagnostics.append(
                    Diagnostic(.templateSyntax(detail: error.message), at: SourceLocation(file: template.path, line: error.line, column: error.column)))
            }
        }
        for cycle in templates.unconditionalCycles() {
            // At the tag in the first template of the chain that includes the next.
            let (first, second) = (cycle[0], cycle[1])
            let path = sources[first]?.path ?? first
            let (line, column) = sources[first].flatMap { Self.position(ofTag: second, in: $0.source) } ?? (1, 1)
            diagnostics.append(Diagnostic(.templateRecursion(chain: cycle), at: SourceLocation(file: path, line: line, column: column)))
        }
        let extended = layers.dropFirst().map(\.name)
        for required in requiredTemplates where sources[required] == nil {
            diagnostics.append(
                Diagnostic(
                    .templateMissing(theme: name, template: required, extended: extended), at: .start(of: layers[0].templatesFolder(displayPath: displayPath))))
        }
        var theme = Theme(name: name, layers: layers, templates: templates, assets: assets, templateSources: sources.mapValues(\.source))
        theme.strings = ThemeStrings(byLanguage: strings)
        return (theme, diagnostics)
    }

    /// The line and column of the first `{{>name}}` or `{{<name}}` tag in `source` (with the default delimiters).
    static func position(ofTag name: String, in source: String) -> (line: Int, column: Int)? {
        var line = 1
        var column = 1
        var rest = Substring(source)
        while !rest.isEmpty {
            if rest.hasPrefix("{{") {
                let inside = rest.dropFirst(2).drop { $0 == " " }
                if let sigil = inside.first, sigil == ">" || sigil == "<", inside.dropFirst().drop(while: { $0 == " " }).hasPrefix(name) {
                    let after = inside.dropFirst().drop { $0 == " " }.dropFirst(name.count).drop { $0 == " " }
                    if after.hasPrefix("}}") { return (line, column) }
                }
            }
            let character = rest.removeFirst()
            if character == "\n" {
                line += 1
                column = 1
            } else {
                column += character.unicodeScalars.count
            }
        }
        return nil
    }

    public func render(_ template: String, _ context: MustacheValue) -> String {
        let own = templates.forThisThread()
        return own[template]?.render(context, partials: own) ?? ""
    }

    /// `render(_:_:)` as UTF-8 bytes.
    /// (From the calling thread's own copy of the templates: see `MustachePartials.forThisThread`.)
    func renderData(_ template: String, _ context: MustacheValue) -> Data {
        let own = templates.forThisThread()
        return own[template]?.renderData(context, partials: own) ?? Data()
    }

    /// `renderData`, with `slots` as the values of the context's `.slot`s (see `MustacheSlots`).
    func renderData(_ template: String, _ context: MustacheValue, slots: [String]) -> (Data, MustacheSlots?) {
        let own = templates.forThisThread()
        return own[template]?.renderData(context, partials: own, slots: slots) ?? (Data(), nil)
    }
}
