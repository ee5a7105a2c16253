import Foundation

/// The words a theme shows (buttons, labels, headings), by language: `i18n/<lang>.yml` of each of the theme's layers,
/// a flat mapping of names to strings. A layer's string wins over a later layer's, so a site's
/// `themes/default/i18n/fr.yml` holds only the strings it changes; a string a language lacks is its English one.
public struct ThemeStrings: Sendable, Equatable {
    /// The language every other falls back to.
    public static let fallback = "en"

    /// Strings by language, then by name.
    public var byLanguage: [String: [String: String]] = [:]

    public init(byLanguage: [String: [String: String]] = [:]) {
        self.byLanguage = byLanguage
    }

    /// `language`'s strings, each missing one its English one.
    public func strings(for language: String) -> [String: String] {
        let english = byLanguage[Self.fallback] ?? [:]
        guard language != Self.fallback else { return english }
        return english.merging(byLanguage[language] ?? byLanguage[Self.base(of: language)] ?? [:]) { _, own in own }
    }

    /// The names of English strings `language` lacks, in name order.
    public func missing(in language: String) -> [String] {
        guard language != Self.fallback else { return [] }
        let own = byLanguage[language] ?? byLanguage[Self.base(of: language)] ?? [:]
        return (byLanguage[Self.fallback] ?? [:]).keys.filter { own[$0] == nil }.sorted()
    }

    /// Whether the theme has a locale file for `language` (or its base language).
    public func has(_ language: String) -> Bool { byLanguage[language] != nil || byLanguage[Self.base(of: language)] != nil }

    /// The `missing-translation` warnings for `languages`: a theme with no strings at all has none.
    func missingDiagnostics(_ languages: [String], at location: SourceLocation?) -> [Diagnostic] {
        guard byLanguage[Self.fallback] != nil else { return [] }
        return languages.compactMap { language in
            if !has(language) { return Diagnostic(.missingTranslation(language: language, names: []), at: location) }
            let missing = missing(in: language)
            return missing.isEmpty ? nil : Diagnostic(.missingTranslation(language: language, names: missing), at: location)
        }
    }

    /// `pt` for `pt-BR`.
    static func base(of language: String) -> String {
        String(language.split(separator: "-").first ?? Substring(language))
    }

    /// Reads one locale file: its strings, and its problems (`yaml-syntax`, `config-type` for what isn't a mapping of
    /// names to strings).
    static func read(yaml: String, file: String) -> ([String: String], [Diagnostic]) {
        let root: YAMLNode?
        do {
            root = try YAMLNode.parse(yaml, file: file)
        } catch {
            return ([:], [error])
        }
        guard let root else { return ([:], []) }
        guard let pairs = root.pairs else {
            return ([:], [Diagnostic(.fileNotMapping(file: file, found: root.foundDescription), at: root.location)])
        }
        var strings: [String: String] = [:]
        var diagnostics: [Diagnostic] = []
        for pair in pairs {
            guard let name = pair.key.scalarValue else { continue }
            if let value = pair.value.scalarValue {
                strings[name] = value
            } else {
                diagnostics.append(pair.value.valueError(name, "must be a string"))
            }
        }
        return (strings, diagnostics)
    }
}
