extension PipeTable {
    /// The table's HTML, byte for byte as `cmark-gfm -e table` writes it (`align` attributes, no `<tbody>` for a
    /// table without body rows), ending in a newline. `renderingCell` turns one cell's inline markdown into HTML;
    /// it is not called for empty cells.
    public func html(renderingCell: (SourceText) -> String) -> String {
        var html = "<table>\n<thead>\n<tr>\n"
        appendRow(header, tag: "th", to: &html, renderingCell)
        html += "</tr>\n</thead>\n"
        if !rows.isEmpty {
            html += "<tbody>\n"
            for row in rows {
                html += "<tr>\n"
                appendRow(row, tag: "td", to: &html, renderingCell)
                html += "</tr>\n"
            }
            html += "</tbody>\n"
        }
        html += "</table>\n"
        return html
    }

    private func appendRow(_ cells: [SourceText], tag: String, to html: inout String, _ renderingCell: (SourceText) -> String) {
        for (cell, alignment) in zip(cells, alignments) {
            html += Self.openingTag(tag, alignment)
            if !cell.text.isEmpty { html += renderingCell(cell) }
            html += "</" + tag + ">\n"
        }
    }

    /// A cell's opening tag, `<td>` or `<th>`, with the column's `align` attribute as cmark-gfm writes it.
    private static func openingTag(_ tag: String, _ alignment: Alignment) -> String {
        switch alignment {
        case .none: "<\(tag)>"
        case .left: "<\(tag) align=\"left\">"
        case .center: "<\(tag) align=\"center\">"
        case .right: "<\(tag) align=\"right\">"
        }
    }
}
