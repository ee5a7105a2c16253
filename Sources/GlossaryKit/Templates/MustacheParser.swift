/// Turns template source into a node tree, applying the spec's standalone-line and indentation rules.
///
/// Three passes over the scanner's tokens: pair opening and closing tags, decide which lines are standalone
/// (and so disappear), then build the tree, marking every surviving line start so indentation can be added
/// at render time without re-parsing.
struct MustacheParser {
    /// How a tag sits on its line, decided before the tree is built.
    private struct Layout {
        /// The tag's whole line disappears. For a block inside a parent tag: the line break after the
        /// opening tag belongs to the tag, so the body starts on the next line.
        var standalone = false
        /// Partials, parents and blocks: the indentation they add, nil when they sit inside a line.
        /// Blocks inside a parent tag: the indentation to remove from their body.
        var indentation: String?
    }

    private let bytes: [UInt8]
    private let templateName: String
    private let tokens: [MustacheToken]
    /// For opening and closing tags, the index of the other tag of the pair.
    private var partner: [Int]
    /// The index of the innermost opening tag around each token, or -1 at the top level.
    private var container: [Int]
    private var layout: [Layout]
    /// Text swallowed by standalone tags.
    private var removed: [Bool]
    /// The next node to be added begins a line, so indentation goes before it.
    private var pendingLineStart = true

    private init(bytes: [UInt8], templateName: String) throws(MustacheError) {
        self.bytes = bytes
        self.templateName = templateName
        tokens = try MustacheScanner.tokens(in: bytes, templateName: templateName)
        partner = Array(repeating: -1, count: tokens.count)
        container = Array(repeating: -1, count: tokens.count)
        layout = Array(repeating: Layout(), count: tokens.count)
        removed = Array(repeating: false, count: tokens.count)
    }

    /// Sections, parents and blocks nested deeper than this are an error: the tree is built and rendered by
    /// recursion, and a hostile template nesting thousands of them would exhaust the stack.
    static let maximumNesting = 100

    static func parse(_ source: String, templateName: String) throws(MustacheError) -> [MustacheNode] {
        var parser = try MustacheParser(bytes: Array(source.utf8), templateName: templateName)
        try parser.pairTags()
        parser.layOutLines()
        return parser.buildNodes(from: 0, to: parser.tokens.count)
    }

    // MARK: - Pairing

    private mutating func pairTags() throws(MustacheError) {
        var open: [Int] = []
        for (index, token) in tokens.enumerated() {
            container[index] = open.last ?? -1
            switch token.kind {
            case .section, .invertedSection, .parent, .block:
                open.append(index)
                if open.count > Self.maximumNesting {
                    throw error("sections are nested more than \(Self.maximumNesting) levels deep", at: index)
                }
            case .closing:
                guard let opening = open.popLast() else {
                    throw error("closing tag '\(token.content)' has no open section", at: index)
                }
                guard tokens[opening].content == token.content else {
                    let position = MustacheError("", at: tokens[opening].offset, in: bytes, templateName: templateName)
                    throw error(
                        "closing tag '\(token.content)' does not match '\(tokens[opening].content)' "
                            + "opened at \(position.line):\(position.column)", at: index)
                }
                partner[opening] = index
                partner[index] = opening
                container[index] = container[opening]
            default:
                break
            }
        }
        if let unclosed = open.last {
            let what =
                switch tokens[unclosed].kind {
                case .parent: "parent"
                case .block: "block"
                default: "section"
                }
            throw error("\(what) '\(tokens[unclosed].content)' is never closed", at: unclosed)
        }
    }

    private func error(_ message: String, at tokenIndex: Int) -> MustacheError {
        MustacheError(message, at: tokens[tokenIndex].offset, in: bytes, templateName: templateName)
    }

    // MARK: - Standalone lines

    private mutating func layOutLines() {
        for index in tokens.indices {
            switch tokens[index].kind {
            case .text, .variable, .unescapedVariable:
                continue
            case .parent:
                // Everything between a parent's tags except blocks is ignored, so the pair acts as one tag.
                let closing = partner[index]
                if clearsLeft(index), clearsRight(closing) {
                    layout[index] = Layout(standalone: true, indentation: indentation(before: index))
                    layout[closing].standalone = true
                    removeIndentation(before: index)
                    removeLineEnd(after: closing)
                }
            case .block where isArgument(index):
                // What precedes the tag is ignored parent content; only the line break after it matters.
                if clearsRight(index) {
                    layout[index] = Layout(standalone: true, indentation: indentation(ofLineAfter: index))
                    removeLineEnd(after: index)
                }
            case .closing where isArgument(partner[index]):
                // What follows is ignored parent content; only whitespace before it on its line matters.
                if clearsLeft(index) { removeIndentation(before: index) }
            case .closing where tokens[partner[index]].kind == .parent:
                continue
            case .block:
                if clearsLeft(index), clearsRight(index) {
                    // The body's first line, not the tag, shows how deep the block is indented.
                    layout[index] = Layout(standalone: true, indentation: indentation(ofLineAfter: index))
                    removeIndentation(before: index)
                    removeLineEnd(after: index)
                } else if clearsLeft(index) {
                    layout[index].indentation = indentation(before: index)
                }
            case .section, .invertedSection, .closing, .comment, .partial, .setDelimiters:
                if clearsLeft(index), clearsRight(index) {
                    layout[index] = Layout(standalone: true, indentation: indentation(before: index))
                    removeIndentation(before: index)
                    removeLineEnd(after: index)
                }
            }
        }
    }

    /// A block tag directly inside a parent tag: an argument passed to the parent.
    private func isArgument(_ index: Int) -> Bool {
        tokens[index].kind == .block && container[index] >= 0 && tokens[container[index]].kind == .parent
    }

    /// Only spaces and tabs lie between the start of the line and the tag.
    private func clearsLeft(_ index: Int) -> Bool {
        var previous = index - 1
        if previous >= 0, !tokens[previous].endsLine {
            guard tokens[previous].isIndentation else { return false }
            previous -= 1
        }
        return previous < 0 || tokens[previous].endsLine
    }

    /// Only whitespace lies between the tag and the end of its line (or of the template).
    private func clearsRight(_ index: Int) -> Bool {
        let next = index + 1
        guard next < tokens.count else { return true }
        guard tokens[next].isBlankLineRest else { return false }
        return tokens[next].endsLine || next + 1 == tokens.count
    }

    private func indentation(before index: Int) -> String {
        index > 0 && tokens[index - 1].isIndentation ? tokens[index - 1].content : ""
    }

    private func indentation(ofLineAfter index: Int) -> String {
        let next = index + 1
        guard next < tokens.count, tokens[next].endsLine, next + 1 < tokens.count else { return "" }
        return tokens[next + 1].leadingIndentation
    }

    private mutating func removeIndentation(before index: Int) {
        if index > 0, tokens[index - 1].isIndentation { removed[index - 1] = true }
    }

    private mutating func removeLineEnd(after index: Int) {
        if index + 1 < tokens.count, tokens[index + 1].kind == .text { removed[index + 1] = true }
    }

    // MARK: - Tree

    /// Builds the nodes of tokens `start..<end`, where `end` is the closing tag of the enclosing pair or
    /// the token count.
    private mutating func buildNodes(from start: Int, to end: Int) -> [MustacheNode] {
        var list = MustacheNodeList()
        var index = start
        while index < end {
            let token = tokens[index]
            switch token.kind {
            case .text:
                if !removed[index] {
                    if pendingLineStart { list.appendLineStart() }
                    list.appendText(token.content)
                    pendingLineStart = token.endsLine
                }
            case .variable, .unescapedVariable:
                startInlineTag(at: index, in: &list)
                list.append(.variable(MustacheName(token.content), escaped: token.kind == .variable))
            case .comment, .setDelimiters:
                startInlineTag(at: index, in: &list)
            case .partial:
                startInlineTag(at: index, in: &list)
                list.append(.partial(name: token.content, indentation: layout[index].indentation))
            case .section, .invertedSection:
                startInlineTag(at: index, in: &list)
                let body = buildNodes(from: index + 1, to: partner[index])
                list.append(.section(MustacheName(token.content), inverted: token.kind == .invertedSection, body: body))
                index = partner[index]
            case .block:
                startInlineTag(at: index, in: &list)
                let body = buildNodes(from: index + 1, to: partner[index])
                list.append(
                    .block(
                        MustacheBlock(
                            name: token.content, defaultBody: body,
                            indentation: layout[index].indentation, standalone: layout[index].standalone)))
                index = partner[index]
            case .parent:
                startInlineTag(at: index, in: &list)
                let lineStartAfter = pendingLineStart
                let overrides = buildArguments(from: index + 1, to: partner[index])
                list.append(.parent(name: token.content, indentation: layout[index].indentation, overrides: overrides))
                pendingLineStart = lineStartAfter
                index = partner[index]
            case .closing:
                assertionFailure("closing tags end the range they close")
            }
            index += 1
        }
        // A closing tag sharing its line with content still has that line start (and its indentation)
        // inside the section: the indentation shows only when the section does.
        if end < tokens.count, !isArgument(partner[end]) {
            startInlineTag(at: end, in: &list)
        }
        return list.finish()
    }

    /// A tag that keeps its line: a pending line start goes before it.
    private mutating func startInlineTag(at index: Int, in list: inout MustacheNodeList) {
        guard !layout[index].standalone else { return }
        if pendingLineStart { list.appendLineStart() }
        pendingLineStart = false
    }

    /// Collects the blocks directly inside a parent tag; all else there is ignored.
    private mutating func buildArguments(from start: Int, to end: Int) -> [String: MustacheOverride] {
        var overrides: [String: MustacheOverride] = [:]
        var index = start
        while index < end {
            switch tokens[index].kind {
            case .block:
                let startsLine = layout[index].standalone
                pendingLineStart = startsLine
                var body = buildNodes(from: index + 1, to: partner[index])
                if let indentation = layout[index].indentation, !indentation.isEmpty {
                    body = body.removingIndentation(indentation)
                }
                overrides[tokens[index].content] = MustacheOverride(body: body, startsLine: startsLine)
                index = partner[index] + 1
            case .section, .invertedSection, .parent:
                index = partner[index] + 1
            default:
                index += 1
            }
        }
        return overrides
    }
}
