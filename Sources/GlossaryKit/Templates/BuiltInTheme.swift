import Foundation

/// The default theme built into the binary: `themes/default/` of this repository as it was when the binary was
/// built (the EmbedFiles plugin embeds it, see `Sources/GlossaryKit/EmbeddedFiles.txt`).
public enum BuiltInTheme {
    /// The theme name that means this theme.
    public static let name = "default"

    /// Every file by its path below the theme's folder (`templates/page.mustache`, `assets/glossary.css`).
    public static let files: [String: Data] = EmbeddedFiles.defaultTheme.merging(vendorFiles) { theme, _ in theme }

    /// Third-party scripts the theme loads when a page needs them, taken from Debian's packages when the binary
    /// was built (so a site never asks a CDN, and the binary needs no package where it runs):
    /// highlight.js 9.18 (`libjs-highlight.js`, BSD-3-Clause) for code blocks, lunr 2.3.9 (`libjs-lunr`, MIT)
    /// for the site search. Their licences are in `assets/vendor/LICENSES.txt`.
    public static let vendorFiles: [String: Data] = [
        "assets/vendor/highlight.min.js": EmbeddedFiles.highlightJS,
        "assets/vendor/lunr.min.js": EmbeddedFiles.lunrJS,
    ]

    /// The English strings of the theme (`i18n/en.yml`): the words its scripts have of their own.
    public static let englishStrings: [String: String] = {
        let text = String(decoding: files["i18n/en.yml"] ?? Data(), as: UTF8.self)
        return ThemeStrings.read(yaml: text, file: displayFolder + "/i18n/en.yml").0
    }()

    /// How diagnostics name the theme's files, which are nowhere on disk.
    public static let displayFolder = "(built-in theme default)"
}
