/// The items of a glossary entry's `see_also:`: names of terms, or links written as paths or URLs
/// (`/guide/intro/`, `../guide/intro.md#setup`, `https://example.org/`), which the term page links as written
/// (following `base_url`) and `glossary check` follows like any other link.
public enum SeeAlso {
    /// Whether `item` is a link rather than the name of a term: it starts with `/`, `./` or `../`, names a
    /// markdown file, or is an http(s) or mailto URL. Term names may hold `/` and `:` (`TCP/IP`, `re:Invent`).
    public static func isLink(_ item: String) -> Bool {
        if item.hasPrefix("/") || item.hasPrefix("./") || item.hasPrefix("../") { return true }
        let lowered = item.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || lowered.hasPrefix("mailto:") { return true }
        let path = item.prefix { $0 != "#" && $0 != "?" }
        return path.hasSuffix(".md") && !path.contains(" ")
    }
}
