import CGumbo

/// What `glossary annotate` needs to know of an HTML file, found by an HTML5 parser (libgumbo, the only file that
/// imports it): the byte ranges of the text it may link in, and where the card stylesheet and script go.
///
/// Offsets are libgumbo's, into the bytes as given, so an edit there leaves every other byte as it was.
struct HTMLSource {
    /// Text outside code, headings, links, buttons, navigation, scripts and `[data-glossary-skip]` (only the text
    /// holding `[[` unless every text was asked for), as byte ranges of the source (still with its character
    /// references).
    var texts: [Range<Int>] = []
    /// Elements marked `data-term="word"` by hand (outside the same places), with explicit start and end tags and no
    /// glossary link inside yet: where their content starts and ends, and the word.
    var marked: [(content: Range<Int>, word: String)] = []
    /// The words of the glossary links the page has already (`a[data-glossary-term]`): a term linked on a page.
    var linkedWords: [String] = []
    /// Where the stylesheet and script go: before `</head>`, else before `<body`, else at the end; nil when the page
    /// has both.
    var insertion: Int?
    /// Whether the page has the stylesheet link and the script `annotate` adds (a page annotated before `embed.css`
    /// existed has only the script).
    var hasStylesheet = false
    var hasScript = false

    /// Elements whose text is never linked.
    static let skipped: Set<UInt32> = Set(
        [
            GUMBO_TAG_CODE, GUMBO_TAG_PRE, GUMBO_TAG_KBD, GUMBO_TAG_SAMP, GUMBO_TAG_SCRIPT, GUMBO_TAG_STYLE, GUMBO_TAG_TEXTAREA,
            GUMBO_TAG_A, GUMBO_TAG_BUTTON, GUMBO_TAG_NAV, GUMBO_TAG_H1, GUMBO_TAG_H2, GUMBO_TAG_H3, GUMBO_TAG_H4, GUMBO_TAG_H5,
            GUMBO_TAG_H6, GUMBO_TAG_TITLE, GUMBO_TAG_TEMPLATE, GUMBO_TAG_NOSCRIPT, GUMBO_TAG_SELECT, GUMBO_TAG_OPTION, GUMBO_TAG_SVG,
            GUMBO_TAG_MATH, GUMBO_TAG_IFRAME,
        ].map(\.rawValue))

    /// The attribute that marks the stylesheet link and script `annotate` adds, so a second run knows the page has them.
    static let marker = "data-glossary-embed"

    init(_ bytes: UnsafeBufferPointer<UInt8>, everyText: Bool = false) {
        guard let base = bytes.baseAddress else {
            insertion = 0
            return
        }
        // Parse errors are not wanted: recording them (every one, by default) costs as much as a good part of the parse.
        var options = kGumboDefaultOptions
        options.max_errors = 0
        let output = base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { chars in
            withUnsafePointer(to: options) { gumbo_parse_with_options($0, chars, bytes.count) }
        }
        guard let output else { return }
        defer { withUnsafePointer(to: options) { gumbo_destroy_output($0, output) } }
        var headEnd: Int?
        var bodyStart: Int?
        // Depth first, by hand: a page may nest deeper than the stack allows recursion.
        var stack: [(node: UnsafeMutablePointer<GumboNode>, skipped: Bool)] = [(output.pointee.root, false)]
        while let (node, skipped) = stack.popLast() {
            switch node.pointee.type {
            case GUMBO_NODE_TEXT:
                guard !skipped else { continue }
                let text = node.pointee.v.text
                let start = Int(text.start_pos.offset)
                let end = start + text.original_text.length
                guard end <= bytes.count, everyText || Self.holdsReference(bytes, start..<end) else { continue }
                texts.append(start..<end)
            case GUMBO_NODE_ELEMENT, GUMBO_NODE_TEMPLATE:
                let tag = node.pointee.v.element.tag
                let explicit = node.pointee.v.element.original_tag.length > 0
                if tag == GUMBO_TAG_HEAD && node.pointee.v.element.original_end_tag.length > 0 {
                    headEnd = Int(node.pointee.v.element.end_pos.offset)
                } else if tag == GUMBO_TAG_BODY && explicit {
                    bodyStart = Int(node.pointee.v.element.start_pos.offset)
                }
                let skippedHere = Self.has(node, "data-glossary-skip")
                if tag == GUMBO_TAG_SCRIPT && Self.has(node, Self.marker) { hasScript = true }
                if tag == GUMBO_TAG_LINK && Self.has(node, Self.marker) { hasStylesheet = true }
                if tag == GUMBO_TAG_A, let word = Self.value(node, "data-glossary-term") { linkedWords.append(word) }
                var skipsChildren = skipped || skippedHere || Self.skipped.contains(tag.rawValue)
                // A marked element's text is its link's: nothing inside it is linked again.
                if !skipsChildren, let word = Self.value(node, "data-term") {
                    if let content = Self.content(node) { marked.append((content, word)) }
                    skipsChildren = true
                }
                let children = node.pointee.v.element.children
                for index in (0..<Int(children.length)).reversed() {
                    if let child = children.data[index]?.assumingMemoryBound(to: GumboNode.self) { stack.append((child, skipsChildren)) }
                }
            default:
                continue
            }
        }
        texts.sort { $0.lowerBound < $1.lowerBound }
        marked.sort { $0.content.lowerBound < $1.content.lowerBound }
        if !(hasScript && hasStylesheet) { insertion = headEnd ?? bodyStart ?? bytes.count }
    }

    private static func has(_ node: UnsafeMutablePointer<GumboNode>, _ attribute: String) -> Bool {
        gumbo_get_attribute(&node.pointee.v.element.attributes, attribute) != nil
    }

    private static func value(_ node: UnsafeMutablePointer<GumboNode>, _ attribute: String) -> String? {
        guard let found = gumbo_get_attribute(&node.pointee.v.element.attributes, attribute), let value = found.pointee.value else { return nil }
        return String(cString: value)
    }

    /// Between an element's start and end tags, both written, when no child is a glossary link already.
    private static func content(_ node: UnsafeMutablePointer<GumboNode>) -> Range<Int>? {
        let element = node.pointee.v.element
        guard element.original_tag.length > 0, element.original_end_tag.length > 0 else { return nil }
        let children = element.children
        for index in 0..<Int(children.length) {
            guard let child = children.data[index]?.assumingMemoryBound(to: GumboNode.self), child.pointee.type == GUMBO_NODE_ELEMENT else { continue }
            if has(child, "data-glossary-term") { return nil }
        }
        let start = Int(element.start_pos.offset) + element.original_tag.length
        let end = Int(element.end_pos.offset)
        return start <= end ? start..<end : nil
    }

    private static func holdsReference(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        var previous: UInt8 = 0
        for index in range {
            if bytes[index] == UInt8(ascii: "[") && previous == UInt8(ascii: "[") { return true }
            previous = bytes[index]
        }
        return false
    }
}
