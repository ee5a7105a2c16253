/// Which plain occurrences of the glossary's terms become term links: none, each term's first on a page, or all.
public enum AutolinkMode: String, Sendable, Equatable, CaseIterable {
    case off
    case first
    case all

    /// The mode a value of `autolink:` names, at `node`; a `config-value` error for anything else.
    static func read(_ node: YAMLNode, name: String) throws(Diagnostic) -> AutolinkMode {
        let text = try node.string(named: name)
        // YAML 1.1 reads a plain `off` as false: accept the boolean spellings for off too.
        if ["false", "no"].contains(text) { return .off }
        guard let mode = AutolinkMode(rawValue: text) else { throw node.valueError(name, "must be off, first or all") }
        return mode
    }
}
