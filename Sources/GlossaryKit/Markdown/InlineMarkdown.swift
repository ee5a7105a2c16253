import CCmark
import Foundation

/// Renders inline markdown (a table cell, the paragraph text before a table) to HTML with libcmark, the way
/// cmark-gfm renders a cell's inlines.
///
/// Besides `MarkdownDocument.swift`, this is the one file that touches cmark: the rule is relaxed for this helper,
/// which the build may fold into `MarkdownDocument` later.
enum InlineMarkdown {
    /// No-break space, in front of the text so cmark reads it as one paragraph's inlines, never as a block
    /// (`# x`, `- x`, `[x]: /url` in a cell are text in cmark-gfm). cmark counts it as whitespace when it decides
    /// what a delimiter run can do, exactly like the start of a line, and renders it as itself, so it comes off.
    private static let guardPrefix = "\u{A0}"

    /// The HTML of `text`'s inlines, without the `<p>` around them.
    static func html(_ text: String) -> String {
        var source = guardPrefix + text
        let root = source.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { cmark_parse_document($0.baseAddress, $0.count, CMARK_OPT_DEFAULT) }
        }
        guard let root else { return HTML.escape(text) }
        defer { cmark_node_free(root) }
        guard let paragraph = cmark_node_first_child(root), cmark_node_get_type(paragraph) == CMARK_NODE_PARAGRAPH,
            cmark_node_next(paragraph) == nil, let rendered = cmark_render_html(paragraph, CMARK_OPT_DEFAULT)
        else { return HTML.escape(text) }
        defer { free(rendered) }
        // Bytes, not characters: the no-break space may combine with a mark that follows it into one character.
        let html = UnsafeBufferPointer(start: rendered, count: strlen(rendered)).map { UInt8(bitPattern: $0) }
        let prefix = Array(("<p>" + guardPrefix).utf8)
        let suffix = Array("</p>\n".utf8)
        guard html.starts(with: prefix), html.count >= prefix.count + suffix.count, html.suffix(suffix.count).elementsEqual(suffix)
        else { return HTML.escape(text) }
        return String(decoding: html[prefix.count..<(html.count - suffix.count)], as: UTF8.self)
    }
}
