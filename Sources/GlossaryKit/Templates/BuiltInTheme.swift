import Foundation

/// The default theme built into the binary: `themes/default/` of this repository as it was when the binary was
/// built (the EmbedFiles plugin embeds it, see `Sources/GlossaryKit/EmbeddedFiles.txt`).
public enum BuiltInTheme {
    /// The theme name that means this theme.
    public static let name = "default"

    /// Every file by its path below the theme's folder (`templates/page.mustache`, `assets/glossary.css`).
    public static var files: [String: Data] { EmbeddedFiles.defaultTheme }

    /// How diagnostics name the theme's files, which are nowhere on disk.
    public static let displayFolder = "(built-in theme default)"
}
