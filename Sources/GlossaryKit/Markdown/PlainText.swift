import CCmark
import Foundation

/// The text of a cmark tree without its markup: a heading's or a summary's one line, the text a search finds a page by.
enum PlainText {
    /// The text and code spans of `node`'s subtree, a line break read as a space.
    static func of(_ node: OpaquePointer) -> String {
        var text = ""
        let iterator = cmark_iter_new(node)
        defer { cmark_iter_free(iterator) }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard event == CMARK_EVENT_ENTER, let current = cmark_iter_get_node(iterator) else { continue }
            switch cmark_node_get_type(current) {
            case CMARK_NODE_TEXT, CMARK_NODE_CODE:
                if let literal = cmark_node_get_literal(current) { text += String(cString: literal) }
            case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK:
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
    static func searchable(_ nodes: some Sequence<OpaquePointer>) -> String {
        // Bytes, made a string once: a string grown a text node at a time cost a copy of each node's text more.
        var text: [UInt8] = []
        /// Whether the text ends a line: it ends with a LF that is a character of its own (not CR LF, one character).
        func endsLine() -> Bool {
            text.last == UInt8(ascii: "\n") && (text.count < 2 || text[text.count - 2] != UInt8(ascii: "\r"))
        }
        for subtree in nodes {
            let iterator = cmark_iter_new(subtree)
            defer { cmark_iter_free(iterator) }
            while true {
                let event = cmark_iter_next(iterator)
                if event == CMARK_EVENT_DONE { break }
                guard let node = cmark_iter_get_node(iterator) else { continue }
                switch cmark_node_get_type(node) {
                case CMARK_NODE_TEXT, CMARK_NODE_CODE:
                    if event == CMARK_EVENT_ENTER, let literal = cmark_node_get_literal(node) {
                        text.append(contentsOf: UnsafeRawBufferPointer(start: literal, count: strlen(literal)))
                    }
                case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK:
                    if event == CMARK_EVENT_ENTER { text.append(UInt8(ascii: " ")) }
                case CMARK_NODE_PARAGRAPH:
                    if event == CMARK_EVENT_EXIT { text.append(UInt8(ascii: "\n")) }
                case CMARK_NODE_CUSTOM_BLOCK:
                    // A table row (or a callout) ends a line; its cells, custom inlines in it, are apart.
                    if event == CMARK_EVENT_EXIT, !text.isEmpty, !endsLine() { text.append(UInt8(ascii: "\n")) }
                case CMARK_NODE_CUSTOM_INLINE:
                    if event == CMARK_EVENT_EXIT, let parent = cmark_node_parent(node), cmark_node_get_type(parent) == CMARK_NODE_CUSTOM_BLOCK {
                        text.append(UInt8(ascii: " "))
                    }
                default:
                    break
                }
            }
        }
        return String(decoding: text, as: UTF8.self)
    }
}
