import Foundation

/// Renders a node tree into one block of UTF-8 bytes, which becomes the page's `Data` without a copy (a site's
/// pages are hundreds of megabytes, appended a piece at a time).
struct MustacheRenderer: ~Copyable {
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

    private var output: GrowingBytes
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
    private(set) var stopped = false
    /// The values of the context's slots, and where they were written, in output order.
    private let slotValues: [String]
    private(set) var written: [MustacheSlots.Written] = []

    private let limits: Limits

    init(
        context: MustacheValue, partials: MustachePartials, expectedLength: Int, limits: Limits = Limits(), slots: [String] = []
    ) {
        self.partials = partials
        self.limits = limits
        slotValues = slots
        contextStack = [context]
        output = GrowingBytes(capacity: expectedLength)
    }

    /// What was rendered, as bytes.
    consuming func data() -> Data { output.data() }

    mutating func render(_ nodes: [MustacheNode]) {
        // By index: an array's iterator hands out a copy of each node (a retain of every payload), the subscript
        // lends it in place.
        for index in nodes.indices {
            guard !stopped else { return }
            render(nodes[index])
            if output.count > limits.outputBytes { stopped = true }
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
        // A slot is as truthy as its value; shown, it stays the context (`{{.}}` inside writes the slot again).
        let truthy = if case .slot(let index) = value { slotValues.indices.contains(index) && !slotValues[index].isEmpty } else { value.isTruthy }
        if inverted {
            if !truthy { render(body) }
        } else if case .array(let items) = value {
            // By index: an iterator would hand out a copy of each item, then the stack take another.
            for index in items.indices {
                guard mayRenderSection() else { return }
                contextStack.append(items[index])
                render(body)
                contextStack.removeLast()
            }
        } else if truthy, mayRenderSection() {
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
            output.append(text.value)
            suppressNextIndentation = false
            return
        }
        for (index, piece) in text.pieces.enumerated() {
            if text.startsLine(at: index) {
                writeLineStart(indentation)
            } else {
                suppressNextIndentation = false
            }
            output.append(piece)
            // Indentation nested a hundred partials deep, on every line of a long text, adds up within one node.
            if output.count > limits.outputBytes {
                stopped = true
                return
            }
        }
    }

    private mutating func writeLineStart(_ lineIndentation: String) {
        if suppressNextIndentation {
            suppressNextIndentation = false
        } else {
            output.append(lineIndentation)
        }
    }

    private mutating func write(_ value: MustacheValue, escaped: Bool) {
        switch value {
        case .string(let text):
            appendText(text, escaped: escaped)
        case .int(let number):
            output.append(String(number))
        case .double(let number):
            output.append(number.description)
        case .bool(let flag):
            output.append(flag ? "true" : "false")
        case .slot(let index):
            guard slotValues.indices.contains(index) else { return }
            let start = output.count
            appendText(slotValues[index], escaped: escaped)
            written.append(MustacheSlots.Written(slot: index, escaped: escaped, start: start, length: output.count - start))
        case .null, .array, .object:
            break
        }
    }

    /// Appends `text`'s bytes, escaped or not, read in place (a bridged string is made contiguous first).
    private mutating func appendText(_ text: String, escaped: Bool) {
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
            if escaped { Self.appendEscaped(bytes, to: &output) } else { output.append(bytes) }
        }
        guard done == nil else { return }
        var text = text
        text.withUTF8 { bytes in
            if escaped { Self.appendEscaped(bytes, to: &output) } else { output.append(bytes) }
        }
    }

    /// Appends `bytes` with `& < > " '` escaped and the characters HTML must not show (`HTML.isHidden`) made U+FFFD,
    /// copying runs without them in one go (also what `MustacheSlots` escapes a slot's new value with, so the two
    /// write the same bytes).
    static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout GrowingBytes) {
        var runStart = 0
        var index = 0
        while index < bytes.count {
            let replacement: StaticString
            var width = 1
            switch bytes[index] {
            case UInt8(ascii: "&"): replacement = "&amp;"
            case UInt8(ascii: "<"): replacement = "&lt;"
            case UInt8(ascii: ">"): replacement = "&gt;"
            case UInt8(ascii: "\""): replacement = "&quot;"
            case UInt8(ascii: "'"): replacement = "&#39;"
            case 0x00...0x08, 0x0B, 0x0C, 0x0E...0x1F, 0x7F: replacement = "\u{FFFD}"
            case 0xC2, 0xE2:
                width = HTML.hiddenWidth(bytes, at: index)
                guard width > 0 else {
                    index += 1
                    continue
                }
                replacement = "\u{FFFD}"
            default:
                index += 1
                continue
            }
            output.append(UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            output.append(UnsafeBufferPointer(start: replacement.utf8Start, count: replacement.utf8CodeUnitCount))
            index += width
            runStart = index
        }
        output.append(UnsafeBufferPointer(rebasing: bytes[runStart...]))
    }

    /// Finds a name: its first part in the innermost context that has it, later parts inside that value only.
    private func lookUp(_ name: MustacheName) -> MustacheValue {
        let parts = name.parts
        guard !parts.isEmpty else { return contextStack[contextStack.count - 1] }
        var value: MustacheValue?
        // Innermost first; every part and context read in place, by index (as `render` reads nodes).
        for level in contextStack.indices.reversed() {
            if let found = contextStack[level].member(parts[0]) {
                value = found
                break
            }
        }
        guard var current = value else { return .null }
        for index in parts.indices.dropFirst() {
            guard let next = current.member(parts[index]) else { return .null }
            current = next
        }
        return current
    }
}
