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

    init(parts: [MustacheKey]) {
        self.parts = parts
    }
}

/// Literal template text, split where the lines that partial and block indentation applies to begin.
///
/// Line starts are found once, at parse time, so indenting a partial costs nothing extra per render. A class: rendering
/// reads a text node by taking one reference to it, not one to each of its strings.
final class MustacheText: Sendable {
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

// MARK: Copies of a thread's own

/// Every piece of a template made anew: no array, box or string shared with the original. Rendering reads nodes
/// by copying their payloads, which counts references on their storage; two cores counting on the same storage take
/// turns for the cache line it sits in, so each rendering thread reads a copy of its own (`MustachePartials.forThisThread`).
extension MustacheNode {
    var privateCopy: MustacheNode {
        switch self {
        case .text(let text): .text(MustacheText(pieces: text.pieces.map(\.privateCopy), startsLine: text.startsLine))
        case .variable(let name, let escaped): .variable(name.privateCopy, escaped: escaped)
        case .section(let name, let inverted, let body): .section(name.privateCopy, inverted: inverted, body: body.map(\.privateCopy))
        case .partial(let name, let indentation): .partial(name: name.privateCopy, indentation: indentation?.privateCopy)
        case .parent(let name, let indentation, let overrides):
            .parent(
                name: name.privateCopy, indentation: indentation?.privateCopy,
                overrides: Dictionary(
                    uniqueKeysWithValues: overrides.map {
                        ($0.key.privateCopy, MustacheOverride(body: $0.value.body.map(\.privateCopy), startsLine: $0.value.startsLine))
                    }
                ))
        case .block(let block):
            .block(
                MustacheBlock(
                    name: block.name.privateCopy, defaultBody: block.defaultBody.map(\.privateCopy), indentation: block.indentation?.privateCopy,
                    standalone: block.standalone))
        }
    }
}

extension MustacheName {
    var privateCopy: MustacheName { MustacheName(parts: parts.map { MustacheKey($0.text.privateCopy) }) }
}

extension String {
    /// The same text in storage of its own (a short string is stored inline, and is its own already).
    var privateCopy: String { String(decoding: Array(utf8), as: UTF8.self) }
}
