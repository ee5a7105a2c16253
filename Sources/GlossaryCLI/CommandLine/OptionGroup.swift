/// Options that several commands share, declared once.
enum OptionGroup {
    static let source = Option.value("--source", "DIR", "The site's folder, holding glossary.yml (default: current folder)", completion: .directory)
    static let offline = Option.flag("--offline", "Never contact the dictionary API; use the team's entries, the cache and WordNet")
    static let apiURL = Option.value("--api-url", "TEMPLATE", "Dictionary API URL with {lang} and {word} (also GLOSSARY_API_URL)")
    /// Every command's `--help` (also spelt `-h`), which the parser handles before the command's own options.
    static let help = Option.flag("--help", "Show this help")

    /// How problems are printed, for every command that reports them.
    static let noSourceLines = Option.flag("--no-source-lines", "Print diagnostics without the source line and caret under them")
    static let format = Option.value(
        "--format", "FORMAT", "How to print problems: text (default), json (one object per line, on stdout) or github (workflow annotations)",
        completion: .words(DiagnosticFormat.allCases.map(\.rawValue)))

    /// What every command that builds the site takes: where it is and how to reach the dictionary.
    static let site: [Option] = [source, offline, apiURL]
    static let diagnostics: [Option] = [noSourceLines, format]
}
