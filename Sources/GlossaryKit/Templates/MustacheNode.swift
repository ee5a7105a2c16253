/// One piece of a parsed template.
indirect enum MustacheNode: Sendable {
    case text(MustacheText)
    case variable(MustacheName, escaped: Bool)
    case section(MustacheName, inverted: Bool, body: [MustacheNode])
    /// `{{>name}}`; `indentation` is the whitespace before a standalone tag, added to the current
    /// indentation, or nil for a tag inside a line, whose template is not indented at all.
    case partial(name: String, indentation: String?)
    /// `{{<name}}…{{/name}}`, with the blocks it passes to the parent template; indented like a partial.
    case parent(name: String, indentation: String?, overrides: [String: MustacheOverride])
    /// `{{$name}}…{{/name}}` outside a parent tag: a place a parent's caller may fill.
    case block(MustacheBlock)
}

/// A dotted name such as `person.name`; no parts means the implicit iterator `.`.
struct MustacheName: Sendable {
    let parts: [MustacheKey]

    init(_ name: String) {
        parts = name == "." ? [] : name.split(separator: ".", omittingEmptySubsequences: false).map { MustacheKey(String($0)) }
    }
}

/// Literal template text, split where the lines that partial and block indentation applies to begin.
///
/// Line starts are found once, at parse time, so indenting a partial costs nothing extra per render.
struct MustacheText: Sendable {
    /// The whole text, written as is when there is no indentation.
    let value: String
    /// `value` cut at line starts: every piece after the first starts a line.
    let pieces: [String]
    /// Whether the first piece starts a line too.
    let startsLine: Bool

    init(pieces: [String], startsLine: Bool) {
        self.value = pieces.joined()
        self.pieces = pieces
        self.startsLine = startsLine
    }

    func startsLine(at index: Int) -> Bool { index > 0 || startsLine }
}

/// A block tag outside a parent tag, with what it renders when no caller overrides it.
struct MustacheBlock: Sendable {
    let name: String
    let defaultBody: [MustacheNode]
    /// Added to the current indentation for an overriding body: the block's own indentation at this site,
    /// or nil when other text precedes the tag on its line, so the body is not indented at all.
    let indentation: String?
    /// Whether the opening tag had a line of its own (so the overriding body starts on a fresh line).
    let standalone: Bool
}

/// The body a parent tag passes for one block name, with its own indentation already removed.
struct MustacheOverride: Sendable {
    let body: [MustacheNode]
    /// Whether the body starts on the line after its opening tag rather than right after the tag.
    let startsLine: Bool
}
