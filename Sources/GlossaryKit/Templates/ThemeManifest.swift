import Foundation

/// A theme's `theme.yml`: today only `extends: NAME`, the theme whose templates and assets fill in every file
/// this one lacks.
struct ThemeManifest: Sendable {
    static let fileName = "theme.yml"
    static let keys = ["extends"]

    /// The extended theme's name and where `theme.yml` says it.
    var extends: (name: String, location: SourceLocation)?

    /// Reads `theme.yml`; a problem is a diagnostic at its line and column, and leaves `extends` unset.
    ///
    /// Diagnostics: `yaml-syntax`, `unknown-key` and `duplicate-key` warnings, `config-type` (not a mapping,
    /// `extends` not a string) and `config-value` (`extends` not a folder name).
    static func load(yaml: String, file: String) -> (ThemeManifest, [Diagnostic]) {
        var manifest = ThemeManifest()
        let root: YAMLNode?
        do {
            root = try YAMLNode.parse(yaml, file: file)
        } catch {
            return (manifest, [error])
        }
        guard let root else { return (manifest, []) }
        guard let pairs = root.pairs else {
            return (manifest, [Diagnostic(.fileNotMapping(file: file, found: root.foundDescription), at: root.location)])
        }
        var fields = KeyedMapping(pairs, known: keys, context: "in \(file)")
        if let name = fields.string("extends"), let node = fields["extends"] {
            if Theme.isValidName(name) {
                manifest.extends = (name, node.location)
            } else {
                fields.report(node.valueError("extends", "must be the name of a folder in themes/"))
            }
        }
        return (manifest, fields.diagnostics.inDocumentOrder())
    }
}
