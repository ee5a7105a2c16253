/// The version `glossary --version` prints and the generator meta tag names.
///
/// The one place it is written: the Makefile reads it from this line for the Debian package's name and Version.
public enum GlossaryVersion {
    public static let current = "0.1.0"
}
