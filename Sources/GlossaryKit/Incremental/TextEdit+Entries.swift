import Foundation

/// A text edit of glossary entries (see `TextEdit`): an entry whose record keeps its linkage (`StateFile.linkage`: the
/// same front matter, title, summary, headings, references and links) changed only its body, which its term page, the
/// three exports and `llms-full.txt` show and nothing else does. Its term page is its old bytes with the new body in
/// the body's slot; each export is its old bytes with the term's part (its slot, by the term's place among the
/// glossary's terms: `BuildState.PageKit.document`) holding the new definition where it held the old one, found there
/// exactly once as the export writes it; `llms-full.txt` its old bytes with the term's text in its slot. Anything else
/// (notes or sources in the text, a definition emptied or filled, a part holding the old value twice, a cut file the
/// edit may change the cut of) goes the long way.
extension TextEdit {
    /// An entry's definition as the exports show it: as text and as HTML, its URLs absolute.
    struct Exported: Equatable {
        var text: String
        var html: String
    }

    /// One entry remade: what the state keeps of it, its term page's path, new bytes and slots, its place among the
    /// glossary's terms, and its definition as the exports showed it and now show it.
    struct RemadeEntry {
        var page: BuildState.StoredPage
        var path: String
        var data: Data
        var slots: MustacheSlots
        var place: Int
        var old: Exported
        var new: Exported
    }

    func remakeEntry(_ file: SiteSource.File, config: SiteConfig, sink: SiteTransaction) -> RemadeEntry? {
        guard let signature = file.signature, let stored = state.pages[file.contentPath], let kit = stored.kit?.kit, let term = kit.term,
            let old = stored.record?.record(file: file.displayPath),
            let (_, record, document, wrappers) = reparsed(file, old: old, kit: kit, config: config),
            // Without a summary, `llms.txt` shows the definition's text instead.
            StateFile.canStore(record), record.summaryHTML != nil
        else { return nil }
        let body = document.renderBody(destinations: kit.destinations)
        let html = body.filled(with: wrappers)
        // The old body is where the term page shows it as it is.
        let path = term + "index.html"
        guard let output = state.outputs[path], let slots = output.slots, let bytes = sink.bytes(path, as: output),
            let shown = slots.written.first(where: { $0.slot == 0 && !$0.escaped }), shown.start + shown.length <= bytes.count,
            let (page, moved) = slots.refilled(bytes, with: [html])
        else { return nil }
        let start = bytes.startIndex + shown.start
        let oldHTML = String(decoding: bytes[start..<(start + shown.length)], as: UTF8.self)
        // As `GlossaryExport.definition` makes a team entry's.
        let exportPage = URLPath.encoded(state.report.rootPath + term)
        let origin = config.address?.origin ?? ""
        func exported(_ html: String) -> Exported {
            let absolute = ExportHTML.absolutized(html, page: exportPage, origin: origin)
            return Exported(text: ExportHTML.plainText(absolute), html: absolute)
        }
        let kept = BuildState.StoredPage(
            signature: signature, hash: record.contentHash, record: .parsed(record), kit: stored.kit, body: .made(body, destinations: kit.destinations))
        return RemadeEntry(page: kept, path: path, data: page, slots: moved, place: kit.document, old: exported(oldHTML), new: exported(html))
    }

    /// The export `kind` with each edited entry's part (`edits`, by the term's place) showing its new definition; nil
    /// when that can't be told from the file alone.
    static func patchedExport(
        _ kind: SiteExport, _ edits: [Int: (old: Exported, new: Exported)], state: BuildState, sink: SiteTransaction
    ) -> (ReadOnlyFile, MustacheSlots.Patch)? {
        guard let output = state.outputs[kind.path], let slots = output.slots, let file = sink.file(kind.path, as: output) else { return nil }
        var parts: [Int: String] = [:]
        for written in slots.written {
            guard let edit = edits[written.slot], written.start + written.length <= file.count else { continue }
            let bytes = file.bytes(written.start..<(written.start + written.length))
            guard bytes.count == written.length, let patched = patchedPart(String(decoding: bytes, as: UTF8.self), kind, old: edit.old, new: edit.new)
            else { return nil }
            parts[written.slot] = patched
        }
        guard parts.count == edits.count, let patch = slots.patch(count: file.count, with: { parts[$0] }) else { return nil }
        return (file, patch)
    }

    /// A term's part of an export with `new` where it shows `old`; nil when it doesn't show it exactly once as the export
    /// writes it, or the definition would change shape there (notes and sources, which the CSV and TBX exports show
    /// apart, an empty definition, which TBX leaves out).
    static func patchedPart(_ part: String, _ kind: SiteExport, old: Exported, new: Exported) -> String? {
        let apart = [ImportedEntry.notePrefix, ImportedEntry.sourcePrefix]
        guard ![old.text, new.text].contains(where: { GlossaryExport.Term.hasLine(startingWith: apart, in: $0) }) else { return nil }
        switch kind {
        case .json:
            func field(_ name: String, _ value: String) -> String { "\"\(name)\": " + JSONWriter.quoted(value, htmlSafe: false) }
            return replacingOnce(in: part, field("html", old.html), field("html", new.html)).flatMap {
                replacingOnce(in: $0, field("text", old.text), field("text", new.text))
            }
        case .csv:
            guard let column = GlossaryCSVExport.columns.firstIndex(of: "definition"), var cells = csvCells(part),
                cells.count == GlossaryCSVExport.columns.count, cells[column].utf8.elementsEqual(GlossaryCSVExport.cell(old.text).utf8)
            else { return nil }
            cells[column] = GlossaryCSVExport.cell(new.text)
            return cells.joined(separator: ",") + "\r\n"
        case .tbx:
            guard !old.text.isEmpty, !new.text.isEmpty else { return nil }
            func descrip(_ text: String) -> String { "<descrip type=\"definition\">\(XMLText.escaped(text))</descrip>" }
            return replacingOnce(in: part, descrip(old.text), descrip(new.text))
        default:
            return nil
        }
    }

    /// `text` with its one `target` replaced; nil when it holds `target` other than once (compared as written, not as
    /// equivalent Unicode).
    static func replacingOnce(in text: String, _ target: String, _ replacement: String) -> String? {
        guard let found = text.range(of: target, options: .literal),
            text.range(of: target, options: .literal, range: text.index(after: found.lowerBound)..<text.endIndex) == nil
        else { return nil }
        return text.replacingCharacters(in: found, with: replacement)
    }

    /// A row of the CSV export split into its cells as written (each quoted, `""` for a quote); nil when it isn't one.
    static func csvCells(_ row: String) -> [String]? {
        let bytes = Array(row.utf8)
        guard bytes.count >= 2, bytes.suffix(2) == [UInt8(ascii: "\r"), UInt8(ascii: "\n")] else { return nil }
        let quote = UInt8(ascii: "\"")
        var cells: [String] = []
        var index = 0
        let end = bytes.count - 2
        while true {
            guard index < end, bytes[index] == quote else { return nil }
            let start = index
            index += 1
            while true {
                guard index < end else { return nil }
                if bytes[index] == quote {
                    if index + 1 < end && bytes[index + 1] == quote {
                        index += 2
                        continue
                    }
                    index += 1
                    break
                }
                index += 1
            }
            cells.append(String(decoding: bytes[start..<index], as: UTF8.self))
            if index == end { return cells }
            guard bytes[index] == UInt8(ascii: ",") else { return nil }
            index += 1
        }
    }

    /// Whether what `llms-full.txt` (`file`, its `slots`) holds with each edited entry's text (`texts`, by the term's
    /// place) in its slot can be told from it: whether it is cut, or nil. Uncut, it must still fit (the caller checks).
    /// Cut, an entry in it must not change (what fits would), and one left out must not be the first left out (it might
    /// now fit), unless the cut is among the pages.
    static func entriesFit(_ texts: [Int: String], slots: MustacheSlots, file: ReadOnlyFile) -> Bool? {
        let pages = slots.shown.count
        let terms = slots.written.filter { $0.slot >= pages }
        let note = Array(LLMsText.cutNote.utf8)
        let lastEnd = slots.written.last.map { $0.start + $0.length + 2 } ?? 0
        guard lastEnd <= file.count else { return nil }
        let cut = file.bytes(lastEnd..<min(lastEnd + note.count, file.count)) == note
        var lengths: [Int: Int] = [:]
        for slot in terms { lengths[slot.slot - pages] = slot.length }
        for (place, text) in texts {
            if let length = lengths[place] {
                guard !cut || text.utf8.count == length else { return nil }
            } else {
                let pagesCut = slots.written.count { $0.slot < pages } < pages
                guard cut, pagesCut || place > (terms.last.map { $0.slot - pages } ?? -1) + 1 else { return nil }
            }
        }
        return cut
    }
}
