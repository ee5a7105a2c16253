/// A paragraph that holds a pipe table, in the parts cmark-gfm makes of it: the text before the header row
/// stays a paragraph, then the table, then whatever lines it did not take as rows.
public struct PipeTableSplit: Hashable, Sendable {
    /// The lines before the header row, to render as a paragraph of inline markdown: trimmed, lines joined with
    /// `\n` and, as cmark-gfm does, with `\|` un-escaped (even in code spans). Nil when the header row is the
    /// paragraph's first line.
    public var leading: SourceText?
    public var table: PipeTable
    /// The paragraph's lines after the table that cmark-gfm does not take as rows: from the first lazy line,
    /// line indented by four or more columns, lone `|`, or line that starts a list item or an HTML block after a
    /// table (though not after a paragraph line). cmark-gfm parses them afresh as blocks (an indented code block,
    /// a list…; a paragraph that may hold another table). Empty when the table runs to the paragraph's end.
    public var trailing: [ParagraphLine]

    public init(leading: SourceText?, table: PipeTable, trailing: [ParagraphLine]) {
        self.leading = leading
        self.table = table
        self.trailing = trailing
    }

    /// `trailing` as markdown to parse as blocks: each line from its content column, joined with `\n`. The
    /// indentation after the container prefix is kept, as spaces: tab stops move when the prefix is cut off (and
    /// a prefix may have taken part of a tab). Line `k` of it is file line `trailing[k].number`.
    public var trailingMarkdown: String {
        trailing.map { line in
            let (start, indent) = line.firstNonSpace
            return String(repeating: " ", count: indent) + String(decoding: line.bytes[start...], as: UTF8.self)
        }.joined(separator: "\n")
    }
}
