/// The version `glossary --version` prints and the generator meta tag names.
public enum GlossaryVersion {
    public static let current = "0.1.0"
}
