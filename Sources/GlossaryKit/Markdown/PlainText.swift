/// The text of a cmark tree without its markup: a heading's or a summary's one line, the text a search finds a page by.
enum PlainText {
    /// The text and code spans of `node`'s subtree, a line break read as a space.
    static func of(_ node: CMarkNode) -> String {
        var text = ""
        for (current, entering) in node.events where entering {
            switch current.kind {
            case .text, .code:
                if let literal = current.literal { text += literal }
            case .softBreak, .lineBreak:
                text += " "
            default:
                break
            }
        }
        return text
    }

    /// The text a search finds a page by, from `nodes`' subtrees one after another: its paragraphs, lists, quotes,
    /// table rows and code spans, one block a line (headings, taken out of the tree, are a field of their own; code
    /// blocks and raw HTML are left out).
    static func searchable(_ nodes: some Sequence<CMarkNode>) -> String {
        // Bytes, made a string once: a string grown a text node at a time cost a copy of each node's text more.
        var text: [UInt8] = []
        /// Whether the text ends a line: it ends with a LF that is a character of its own (not CR LF, one character).
        func endsLine() -> Bool {
            text.last == UInt8(ascii: "\n") && (text.count < 2 || text[text.count - 2] != UInt8(ascii: "\r"))
        }
        for subtree in nodes {
            for (node, entering) in subtree.events {
                switch node.kind {
                case .text, .code:
                    if entering, let literal = node.literalBytes { text.append(contentsOf: literal) }
                case .softBreak, .lineBreak:
                    if entering { text.append(UInt8(ascii: " ")) }
                case .paragraph:
                    if !entering { text.append(UInt8(ascii: "\n")) }
                case .customBlock:
                    // A table row (or a callout) ends a line; its cells, custom inlines in it, are apart.
                    if !entering, !text.isEmpty, !endsLine() { text.append(UInt8(ascii: "\n")) }
                case .customInline:
                    if !entering, let parent = node.parent, parent.kind == .customBlock { text.append(UInt8(ascii: " ")) }
                default:
                    break
                }
            }
        }
        return String(decoding: text, as: UTF8.self)
    }
}
