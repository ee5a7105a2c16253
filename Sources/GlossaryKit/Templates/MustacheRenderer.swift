/// Renders a node tree into one string buffer.
struct MustacheRenderer {
    /// Deeper nesting of partials and parents than this is taken to be runaway recursion, and renders nothing.
    static let maximumDepth = 100
    /// More partial and parent expansions than this in one render are taken to be runaway recursion too:
    /// a partial including itself twice doubles the work at every level, long before the depth limit.
    static let maximumExpansions = 1_000_000
    /// More section bodies than this in one render are runaway too: a list's section nested in itself multiplies
    /// the work by the list's length at every level. A page listing 10,000 terms renders about 100,000.
    static let maximumSectionRenders = 1_000_000
    /// Output stops growing here: no page comes near it, and a template whose output multiplies would otherwise
    /// exhaust memory before any other limit is reached.
    static let maximumOutputBytes = 256 << 20

    /// Where one render stops: the maximums above, lower in tests and the fuzz target, which meet runaway
    /// templates all the time.
    struct Limits: Sendable {
        var sectionRenders = MustacheRenderer.maximumSectionRenders
        var outputBytes = MustacheRenderer.maximumOutputBytes
    }

    private(set) var output = ""
    private let partials: MustachePartials
    private var contextStack: [MustacheValue]
    /// Blocks passed by the parent tags being rendered, outermost first: the outermost caller wins.
    private var overrideStack: [[String: MustacheOverride]] = []
    /// Overrides being rendered, by stack level and name: inside its own body a block of the same name
    /// gets the next caller's override or its default, never the same body again (which would not end).
    private var activeOverrides: [(level: Int, name: String)] = []
    /// Written at every line start: the indentation of the standalone partials, parents and blocks around.
    private var indentation = ""
    /// The next line start continues a line begun elsewhere (a block overridden mid-line), so gets no indentation.
    private var suppressNextIndentation = false
    private var depth = 0
    private var expansions = 0
    private var sectionRenders = 0
    /// Set once a limit is reached: from then on nothing more is rendered.
    private var stopped = false

    private let limits: Limits

    init(context: MustacheValue, partials: MustachePartials, expectedLength: Int, limits: Limits = Limits()) {
        self.partials = partials
        self.limits = limits
        contextStack = [context]
        output.reserveCapacity(expectedLength)
    }

    mutating func render(_ nodes: [MustacheNode]) {
        for node in nodes {
            guard !stopped else { return }
            render(node)
            if output.utf8.count > limits.outputBytes { stopped = true }
        }
    }

    private mutating func render(_ node: MustacheNode) {
        switch node {
        case .text(let text):
            write(text)
        case .variable(let name, let escaped):
            suppressNextIndentation = false
            write(lookUp(name), escaped: escaped)
        case .section(let name, let inverted, let body):
            renderSection(lookUp(name), inverted: inverted, body: body)
        case .partial(let name, let partialIndentation):
            guard let template = partials[name], mayExpand() else { return }
            renderNested(template.nodes, indentation: partialIndentation.map { indentation + $0 } ?? "")
        case .parent(let name, let parentIndentation, let overrides):
            guard let template = partials[name], mayExpand() else { return }
            overrideStack.append(overrides)
            renderNested(template.nodes, indentation: parentIndentation.map { indentation + $0 } ?? "")
            overrideStack.removeLast()
        case .block(let block):
            renderBlock(block)
        }
    }

    private mutating func renderSection(_ value: MustacheValue, inverted: Bool, body: [MustacheNode]) {
        if inverted {
            if !value.isTruthy { render(body) }
        } else if case .array(let items) = value {
            for item in items {
                guard mayRenderSection() else { return }
                contextStack.append(item)
                render(body)
                contextStack.removeLast()
            }
        } else if value.isTruthy, mayRenderSection() {
            contextStack.append(value)
            render(body)
            contextStack.removeLast()
        }
    }

    private mutating func mayRenderSection() -> Bool {
        sectionRenders += 1
        if sectionRenders > limits.sectionRenders { stopped = true }
        return !stopped
    }

    private mutating func mayExpand() -> Bool {
        guard depth < Self.maximumDepth, expansions < Self.maximumExpansions else { return false }
        expansions += 1
        return true
    }

    private mutating func renderBlock(_ block: MustacheBlock) {
        guard let (level, override) = override(named: block.name) else {
            render(block.defaultBody)
            return
        }
        let siteIndentation = block.indentation.map { indentation + $0 } ?? ""
        if block.standalone {
            // The block's line was removed, so the body must start its own line.
            if !override.startsLine { writeLineStart(siteIndentation) }
        } else if override.startsLine {
            // The block sits mid-line: the body's first line continues that line.
            suppressNextIndentation = true
        }
        activeOverrides.append((level, block.name))
        renderNested(override.body, indentation: siteIndentation)
        activeOverrides.removeLast()
        suppressNextIndentation = false
    }

    private func override(named name: String) -> (level: Int, override: MustacheOverride)? {
        for (level, overrides) in overrideStack.enumerated() {
            if let override = overrides[name], !activeOverrides.contains(where: { $0 == (level, name) }) {
                return (level, override)
            }
        }
        return nil
    }

    private mutating func renderNested(_ nodes: [MustacheNode], indentation nestedIndentation: String) {
        let savedIndentation = indentation
        indentation = nestedIndentation
        depth += 1
        render(nodes)
        depth -= 1
        indentation = savedIndentation
    }

    private mutating func write(_ text: MustacheText) {
        if indentation.isEmpty {
            output += text.value
            suppressNextIndentation = false
            return
        }
        for (index, piece) in text.pieces.enumerated() {
            if text.startsLine(at: index) {
                writeLineStart(indentation)
            } else {
                suppressNextIndentation = false
            }
            output += piece
            // Indentation nested a hundred partials deep, on every line of a long text, adds up within one node.
            if output.utf8.count > limits.outputBytes {
                stopped = true
                return
            }
        }
    }

    private mutating func writeLineStart(_ lineIndentation: String) {
        if suppressNextIndentation {
            suppressNextIndentation = false
        } else {
            output += lineIndentation
        }
    }

    private mutating func write(_ value: MustacheValue, escaped: Bool) {
        switch value {
        case .string(let text):
            if escaped {
                appendEscaped(text)
            } else {
                output += text
            }
        case .int(let number):
            output += String(number)
        case .double(let number):
            output += number.description
        case .bool(let flag):
            output += flag ? "true" : "false"
        case .null, .array, .object:
            break
        }
    }

    /// Appends `text` with `& < > " '` escaped, copying runs without them in one go.
    private mutating func appendEscaped(_ text: String) {
        let utf8 = text.utf8
        var runStart = utf8.startIndex
        var index = utf8.startIndex
        while index < utf8.endIndex {
            let replacement: String? =
                switch utf8[index] {
                case UInt8(ascii: "&"): "&amp;"
                case UInt8(ascii: "<"): "&lt;"
                case UInt8(ascii: ">"): "&gt;"
                case UInt8(ascii: "\""): "&quot;"
                case UInt8(ascii: "'"): "&#39;"
                default: nil
                }
            if let replacement {
                output += text[runStart..<index]
                output += replacement
                runStart = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        output += text[runStart..<utf8.endIndex]
    }

    /// Finds a name: its first part in the innermost context that has it, later parts inside that value only.
    private func lookUp(_ name: MustacheName) -> MustacheValue {
        guard let first = name.parts.first else { return contextStack[contextStack.count - 1] }
        var value: MustacheValue?
        for context in contextStack.reversed() {
            if case .object(let object) = context, let found = object[first] {
                value = found
                break
            }
        }
        guard var current = value else { return .null }
        for part in name.parts.dropFirst() {
            guard case .object(let object) = current, let next = object[part] else { return .null }
            current = next
        }
        return current
    }
}
