/// A GitHub-flavoured markdown pipe table, as cmark-gfm's table extension reads it from a paragraph's lines:
/// a header row, a delimiter row giving each column's alignment, and body rows.
///
/// Cells hold their raw inline markdown (`\|` already un-escaped to `|`, surrounding whitespace trimmed) with
/// their file positions; `PipeTable.split` finds tables, `html(renderingCell:)` renders one.
public struct PipeTable: Hashable, Sendable {
    /// A column's alignment, from the colons of its delimiter cell (`:--`, `:-:`, `--:`; `---` has none).
    public enum Alignment: Hashable, Sendable {
        case none
        case left
        case center
        case right
    }

    /// One per column; the header and every body row have exactly this many cells.
    public var alignments: [Alignment]
    public var header: [SourceText]
    /// Body rows, short ones padded with empty cells (located at the end of their line), extra cells dropped.
    public var rows: [[SourceText]]
    /// The file lines of the header row through the last body row.
    public var lines: ClosedRange<Int>

    /// Whether cmark-gfm counts the table as ending in a blank line when it decides whether a list is tight: a
    /// table without body rows does (its delimiter row leaves the flag set; a body row clears it). So a list item
    /// whose header-only table is followed by another block in the item, or by another item, makes the list loose
    /// (`<p>` around its paragraphs), as would a blank line there.
    public var countsAsEndingInBlankLine: Bool { rows.isEmpty }

    public init(alignments: [Alignment], header: [SourceText], rows: [[SourceText]], lines: ClosedRange<Int>) {
        self.alignments = alignments
        self.header = header
        self.rows = rows
        self.lines = lines
    }
}
