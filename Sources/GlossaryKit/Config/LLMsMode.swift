/// Which files for language models a build writes (`llms:` in glossary.yml).
public enum LLMsMode: String, Sendable, Equatable, CaseIterable {
    /// None.
    case off
    /// `llms.txt` and `llms-full.txt`.
    case files
    /// Those, and every page as markdown at `…/index.md` beside its `index.html`.
    case pages

    /// The mode a value of `llms:` names, at `node`: true, false or pages; a `config-value` error for anything else.
    static func read(_ node: YAMLNode, name: String) throws(Diagnostic) -> LLMsMode {
        if node.isPlain, let value = node.scalarValue {
            if YAMLNode.trueWords.contains(value) { return .files }
            if YAMLNode.falseWords.contains(value) { return .off }
            if value == "pages" { return .pages }
        }
        throw node.valueError(name, "must be true, false or pages")
    }
}
