import Foundation

/// The files for language models (llmstxt.org): `llms.txt`, a map of the site in markdown — its title, its
/// description as a blockquote, then a section listing every page and one listing every term, each a link with a
/// one-line summary — and `llms-full.txt`, every page's markdown and every term's definition in one file, cut at
/// `llms_full_max_bytes` with a note saying what was left out (`cutNote`).
///
/// URLs are absolute when the site's address is known (`site:`, or a full `base_url`), site-absolute otherwise,
/// like the other exports. With `llms: pages`, pages are linked by their markdown (`…/index.md`).
enum LLMsText {
    /// The longest one-line summary, in characters; a longer one ends with `…`.
    static let summaryLength = 200

    static func index(site: BuiltSite, definitions: [TermDefinition], termIndexes: [String: TermIndexPages], model: GlossaryExport) -> String {
        let root = site.exportRoot
        var text = header(site.config)
        text += "The full text of every page and every definition is in [llms-full.txt](\(site.exportURL(SiteExport.llmsFull.path, root: root))).\n\n"
        let pages = contentPages(site).map(\.record)
        let sections = site.navigation.generatedSections.compactMap { node -> (String, String)? in
            site.navigation.nodes[node].urlPath.map { (site.navigation.nodes[node].title, $0) }
        }
        if !pages.isEmpty || !sections.isEmpty {
            text += "## Pages\n\n"
            for record in pages {
                let path = site.config.llms == .pages ? record.page.markdownPath : record.page.urlPath
                text += item(record.title, site.exportURL(path, root: root), summary: record.page.metadata.description ?? record.firstParagraph)
            }
            for (title, path) in sections { text += item(title, site.exportURL(path, root: root), summary: nil) }
            text += "\n"
        }
        text += "## Glossary\n\n"
        // Each language's index (named by its language on a site in several) and its letter pages.
        let languages = site.config.siteLanguages
        for code in languages.codes {
            let name = languages.isMultilingual ? "Glossary index (\(SiteLanguages.name(of: code)))" : "Glossary index"
            text += item(name, site.exportURL(languages.termsFolder(code), root: root), summary: "Every term of the glossary, A to Z.")
            guard let index = termIndexes[code] else { continue }
            for (number, page) in index.pages.enumerated() {
                let title = "\(name): \(page.letter)" + (page.number == 1 ? "" : ", page \(page.number)")
                text += item(title, site.exportURL(page.urlPath, root: root), summary: "Terms from “\(index.prefix(ofPage: number))…”.")
            }
        }
        for (definition, term) in zip(definitions, model.terms) {
            let summary = definition.summaryHTML.map(ExportHTML.plainText) ?? term.summary ?? term.definitionText
            text += item(definition.title, term.url, summary: summary)
        }
        return text
    }

    /// `llms-full.txt`: the header, every page (`markdown` gives a page's portable text, by its place among the content
    /// pages, nil when it can't be read; it is asked only for the pages that may fit), then every term's definition, while they fit in `llms_full_max_bytes`; and where each page's text
    /// is in it, slot by page (its place among the site's content pages), as a text edit refills it (`TextEdit`).
    static func full(
        site: BuiltSite, definitions: [TermDefinition], model: GlossaryExport, markdown: (PageRecord, Int) -> String?
    ) -> (data: Data, slots: MustacheSlots) {
        let root = site.exportRoot
        let limit = site.config.llmsFullMaxBytes
        // Room for the whole file from the start (pages the text never reaches are never touched): grown by doubling,
        // the old and the new block would be held together, half as much again as the file at the end.
        var text = GrowingBytes(capacity: min(limit, 64 << 20) + 4096)
        text.append(header(site.config))
        var left = (pages: 0, terms: 0)
        var full = false
        var written: [MustacheSlots.Written] = []
        let pages = contentPages(site)
        for (document, record) in pages {
            guard !full else {
                left.pages += 1
                continue
            }
            let trimmed = (markdown(record, document) ?? "").trimmingWhitespace
            let (part, start) = pagePart(record, url: site.exportURL(record.page.urlPath, root: root), text: trimmed)
            if text.count + part.utf8.count > limit {
                full = true
                left.pages += 1
            } else {
                written.append(.init(slot: document, escaped: false, start: text.count + start, length: trimmed.utf8.count))
                text.append(part)
            }
        }
        if !full && !model.terms.isEmpty { text.append("---\n\n# Glossary\n\n") }
        for (place, (definition, term)) in zip(definitions, model.terms).enumerated() {
            guard !full else {
                left.terms += 1
                continue
            }
            let heading = "## \(oneLine(definition.title, length: .max))\n\nURL: \(term.url)\n\n"
            let trimmed = term.definitionText.trimmingWhitespace
            if text.count + heading.utf8.count + trimmed.utf8.count + 2 > limit {
                full = true
                left.terms += 1
            } else {
                written.append(.init(slot: pages.count + place, escaped: false, start: text.count + heading.utf8.count, length: trimmed.utf8.count))
                text.append(heading)
                text.append(trimmed)
                text.append("\n\n")
            }
        }
        // Slots: each page's text by its place, then each term's by `pages.count` + its place. Every page's text is
        // shown (a text edit doesn't test its emptiness: `MustacheSlots.replaced`).
        let slots = MustacheSlots(written: written, shown: Array(repeating: true, count: pages.count))
        if full {
            func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
            text.append(
                cutNote + "\(limit) bytes (llms_full_max_bytes): \(count(left.pages, "page")) and \(count(left.terms, "term")) are left out. "
                    + "[llms.txt](\(site.exportURL(SiteExport.llms.path, root: root))) links to every one.\n")
        }
        return (text.data(), slots)
    }

    /// A page's part of `llms-full.txt`: its URL, its title when its text doesn't begin with it, and its text
    /// (trimmed); with where the text begins in it.
    static func pagePart(_ record: PageRecord, url: String, text trimmed: String) -> (part: String, textStart: Int) {
        var part = "---\n\nURL: \(url)\n\n"
        if !record.startsWithTitleHeading { part += "# \(oneLine(record.title, length: .max))\n\n" }
        let start = part.utf8.count
        part += trimmed + "\n\n"
        return (part, start)
    }

    /// How the note of a cut `llms-full.txt` begins, right after the last page's text that fits.
    static let cutNote = "---\n\nThis file is cut at "

    /// A page's markdown for `…/index.md`: its title as a heading when the text has none, then the text.
    static func page(_ record: PageRecord, markdown: String) -> String {
        let body = markdown.trimmingWhitespace + "\n"
        return record.startsWithTitleHeading ? body : "# \(oneLine(record.title, length: .max))\n\n" + body
    }

    /// Where a page's links into the site and its written references lead, as these files write them: what
    /// `portable` needs of the site besides the page's text (a text edit has it from the state, `BuildState.PageKit`).
    struct Targets: Sendable, Equatable {
        /// Each link's URL, its fragment kept, index-aligned with the record's links (nil: it leads outside the site and
        /// is kept as written).
        var links: [String?]
        /// The URL of each referenced term's page, by the record's referenced keys in order of first reference (nil: no
        /// definition).
        var terms: [String?]
    }

    /// The page's `Targets` in `site`, `root` being its `exportRoot`.
    static func targets(_ record: PageRecord, site: BuiltSite, root: String) -> Targets {
        let links = record.links.map { link -> String? in
            let written = link.destination
            guard let target = site.links.internalTarget(written, from: record.page) else { return nil }
            let suffix = LinkRewriter.queryOrFragmentStart(written).map { String(written[$0...]) } ?? ""
            return site.exportURL(target, root: root) + suffix
        }
        let terms = record.references.map(\.key).uniqued().map { key -> String? in
            let definition = site.definition(for: key) ?? site.forms[key].flatMap(site.definition(for:))
            return definition.map { site.exportURL(site.config.siteLanguages.termPath($0.key), root: root) }
        }
        return Targets(links: links, terms: terms)
    }

    /// A page's text as it reads outside the site: its written references as markdown links to their terms' pages
    /// (`[[shown|word]]` → `[shown](URL)`; a reference without a definition becomes its text), and its links into the
    /// site (`../guide/intro.md#setup`, `/about/`) as the URLs they lead to (`targets`). Only the words of the
    /// references the page's record found are linked, so a `[[` in code stays as written; a link's destination is
    /// replaced wherever it is written as one (`](destination)`, `](destination "`, `](<destination>`,
    /// `]: destination` at the end of a line), in code too.
    static func portable(_ body: String, record: PageRecord, targets: Targets) -> String {
        var replacements: [(written: [UInt8], url: String)] = []
        for (link, url) in zip(record.links, targets.links) {
            guard let url, link.destination != url else { continue }
            replacements.append((Array(link.destination.utf8), url))
        }
        var urls: [TermKey: String?] = [:]
        for (key, url) in zip(record.references.map(\.key).uniqued(), targets.terms) { urls[key] = url }
        let written = Set(record.references.filter { !$0.isAutomatic }.map(\.key))
        guard !replacements.isEmpty || !written.isEmpty else { return body }
        var body = body
        return body.withUTF8 { bytes in
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count + bytes.count / 8)
            var copied = 0
            var index = 0
            func emit(upTo end: Int, _ text: String) {
                output.append(contentsOf: bytes[copied..<end])
                output.append(contentsOf: text.utf8)
            }
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "]"), !replacements.isEmpty, let (start, length, url) = link(in: bytes, at: index, replacements) {
                    emit(upTo: start, url)
                    copied = start + length
                    index = copied
                } else if !written.isEmpty, byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "["),
                    let (end, first, second) = reference(in: bytes, at: byte == UInt8(ascii: "\\") ? index + 1 : index)
                {
                    // `\[[` is a literal `[[`.
                    if byte == UInt8(ascii: "["), let key = TermKey(second ?? first)?.inLanguage(record.page.language), written.contains(key) {
                        if let url = urls[key] ?? nil { emit(upTo: index, "[\(first)](\(url))") } else { emit(upTo: index, first) }
                        copied = end
                    }
                    index = end
                } else {
                    index += 1
                }
            }
            output.append(contentsOf: bytes[copied...])
            return String(decoding: output, as: UTF8.self)
        }
    }

    /// The link destination written at `index` (a `]`) as one of `replacements`: where the destination starts, its
    /// length and its URL.
    private static func link(
        in bytes: UnsafeBufferPointer<UInt8>, at index: Int, _ replacements: [(written: [UInt8], url: String)]
    ) -> (Int, Int, String)? {
        let forms: [(open: String, close: String)] = [("](", ")"), ("](", " \""), ("](<", ">"), ("]: ", "\n")]
        for (open, close) in forms where matches(bytes, at: index, open) {
            let start = index + open.utf8.count
            for (written, url) in replacements where matches(bytes, at: start, written) && matches(bytes, at: start + written.count, close) {
                return (start, written.count, url)
            }
        }
        return nil
    }

    /// The reference `[[first]]` or `[[first|second]]` at `index`, if one starts there: where it ends and its parts.
    private static func reference(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (Int, String, String?)? {
        guard matches(bytes, at: index, "[[") else { return nil }
        func part(from start: Int, stoppingAtBar: Bool) -> Int {
            var end = start
            while end < bytes.count {
                let byte = bytes[end]
                if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "\n") || stoppingAtBar && byte == UInt8(ascii: "|") { break }
                end += 1
            }
            return end
        }
        let firstEnd = part(from: index + 2, stoppingAtBar: true)
        guard firstEnd > index + 2, firstEnd < bytes.count else { return nil }
        let first = String(decoding: UnsafeBufferPointer(rebasing: bytes[(index + 2)..<firstEnd]), as: UTF8.self)
        var second: String?
        var close = firstEnd
        if bytes[firstEnd] == UInt8(ascii: "|") {
            close = part(from: firstEnd + 1, stoppingAtBar: false)
            guard close > firstEnd + 1 else { return nil }
            second = String(decoding: UnsafeBufferPointer(rebasing: bytes[(firstEnd + 1)..<close]), as: UTF8.self)
        }
        guard matches(bytes, at: close, "]]") else { return nil }
        return (close + 2, first, second)
    }

    private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, _ text: some Sequence<UInt8>) -> Bool {
        var position = index
        for byte in text {
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
        }
        return true
    }

    private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, _ text: String) -> Bool {
        matches(bytes, at: index, text.utf8)
    }

    /// The site's content pages, the home page first, then in path order, each with its place among the content
    /// pages in the site's order (the slot of its text in `llms-full.txt`, and its kit's `document`).
    static func contentPages(_ site: BuiltSite) -> [(document: Int, record: PageRecord)] {
        let pages = site.pages.filter { $0.page.kind == .page }.enumerated().map { ($0.offset, $0.element) }
        return pages.filter { $0.1.page.urlPath.isEmpty } + pages.filter { !$0.1.page.urlPath.isEmpty }
    }

    private static func header(_ config: SiteConfig) -> String {
        var text = "# \(oneLine(config.title, length: .max))\n\n"
        if let description = config.description, !description.isBlank { text += "> \(oneLine(description, length: .max))\n\n" }
        return text
    }

    private static func item(_ title: String, _ url: String, summary: String?) -> String {
        var name = oneLine(title, length: .max)
        if name.utf8.contains(where: { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "]") }) {
            name = name.replacingOccurrences(of: "[", with: "\\[").replacingOccurrences(of: "]", with: "\\]")
        }
        let line = summary.map { oneLine($0, length: summaryLength) } ?? ""
        return "- [\(name)](\(url))" + (line.isEmpty ? "" : ": \(line)") + "\n"
    }

    /// `text` on one line, whitespace collapsed, at most `length` characters.
    static func oneLine(_ text: String, length: Int) -> String {
        if let line = asciiLine(text, length: length) { return line }
        let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard words.count > length else { return words }
        return String(words.prefix(length - 1)).trimmingWhitespace + "…"
    }

    /// `oneLine` of an all-ASCII text (where a character is a byte); nil for any other text.
    private static func asciiLine(_ text: String, length: Int) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for byte in text.utf8 {
            guard byte < 0x80 else { return nil }
            if (0x09...0x0D).contains(byte) || byte == 0x20 {
                pendingSpace = !bytes.isEmpty
            } else {
                if pendingSpace { bytes.append(0x20) }
                pendingSpace = false
                bytes.append(byte)
            }
        }
        guard bytes.count > length else { return String(decoding: bytes, as: UTF8.self) }
        var end = length - 1
        while end > 0 && bytes[end - 1] == 0x20 { end -= 1 }
        return String(decoding: bytes[..<end], as: UTF8.self) + "…"
    }
}
