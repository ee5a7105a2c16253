import Foundation

/// The files for language models (llmstxt.org): `llms.txt`, a map of the site in markdown — its title, its
/// description as a blockquote, then a section listing every page and one listing every term, each a link with a
/// one-line summary — and `llms-full.txt`, every page's markdown and every term's definition in one file, cut at
/// `llms_full_max_bytes` with a note saying what was left out.
///
/// URLs are absolute when the site's address is known (`site:`, or a full `base_url`), site-absolute otherwise,
/// like the other exports. With `llms: pages`, pages are linked by their markdown (`…/index.md`).
enum LLMsText {
    /// The longest one-line summary, in characters; a longer one ends with `…`.
    static let summaryLength = 200

    static func index(site: BuiltSite, definitions: [TermDefinition], model: GlossaryExport) -> String {
        let root = site.exportRoot
        var text = header(site.config)
        text += "The full text of every page and every definition is in [llms-full.txt](\(site.exportURL(SiteExport.llmsFull.path, root: root))).\n\n"
        let pages = contentPages(site)
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
        text += item("Glossary index", site.exportURL("terms/", root: root), summary: "Every term of the glossary, A to Z.")
        for (definition, term) in zip(definitions, model.terms) {
            let summary = definition.summaryHTML.map(ExportHTML.plainText) ?? term.summary ?? term.definitionText
            text += item(definition.title, term.url, summary: summary)
        }
        return text
    }

    /// `llms-full.txt`: the header, every page (`markdown` gives its text, nil when it can't be read), then every
    /// term's definition, while they fit in `llms_full_max_bytes`.
    static func full(site: BuiltSite, definitions: [TermDefinition], model: GlossaryExport, markdown: (PageRecord) -> String?) -> String {
        let root = site.exportRoot
        let limit = site.config.llmsFullMaxBytes
        var text = header(site.config)
        var left = (pages: 0, terms: 0)
        let pages = contentPages(site)
        var full = false
        for record in pages {
            guard !full else {
                left.pages += 1
                continue
            }
            let body = markdown(record) ?? ""
            var part = "---\n\nURL: \(site.exportURL(record.page.urlPath, root: root))\n\n"
            if !record.startsWithTitleHeading { part += "# \(oneLine(record.title, length: .max))\n\n" }
            part += body.trimmingWhitespace + "\n\n"
            if text.utf8.count + part.utf8.count > limit {
                full = true
                left.pages += 1
            } else {
                text += part
            }
        }
        if !full && !model.terms.isEmpty { text += "---\n\n# Glossary\n\n" }
        for (definition, term) in zip(definitions, model.terms) {
            guard !full else {
                left.terms += 1
                continue
            }
            let part = "## \(oneLine(definition.title, length: .max))\n\nURL: \(term.url)\n\n\(term.definitionText.trimmingWhitespace)\n\n"
            if text.utf8.count + part.utf8.count > limit {
                full = true
                left.terms += 1
            } else {
                text += part
            }
        }
        if full {
            func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
            text +=
                "---\n\nThis file is cut at \(limit) bytes (llms_full_max_bytes): \(count(left.pages, "page")) and \(count(left.terms, "term")) are left out. "
                + "[llms.txt](\(site.exportURL(SiteExport.llms.path, root: root))) links to every one.\n"
        }
        return text
    }

    /// A page's markdown for `…/index.md`: its title as a heading when the text has none, then the text.
    static func page(_ record: PageRecord, markdown: String) -> String {
        let body = markdown.trimmingWhitespace + "\n"
        return record.startsWithTitleHeading ? body : "# \(oneLine(record.title, length: .max))\n\n" + body
    }

    /// A page's text as it reads outside the site: its written references as markdown links to their terms' pages
    /// (`[[shown|word]]` → `[shown](URL)`; a reference without a definition becomes its text), and its links into the
    /// site (`../guide/intro.md#setup`, `/about/`) as the URLs they lead to. Only the words of the references the
    /// page's record found are linked, so a `[[` in code stays as written; a link's destination is replaced wherever
    /// it is written as one (`](destination)`), in code too.
    static func portable(_ body: String, record: PageRecord, site: BuiltSite, root: String) -> String {
        var text = body
        for (written, url) in linkTargets(record, site: site, root: root) where written != url {
            for (open, close) in [("](", ")"), ("](", " \""), ("](<", ">"), ("]: ", "\n")] {
                text = text.replacingOccurrences(of: open + written + close, with: open + url + close)
            }
        }
        let written = Set(record.references.filter { !$0.isAutomatic }.map(\.key))
        guard !written.isEmpty else { return text }
        let pattern = #/(\\?)\[\[([^\[\]|\n]+)(?:\|([^\[\]\n]+))?\]\]/#
        return text.replacing(pattern) { match -> String in
            let (whole, escape, first, second) = match.output
            // `\[[` is a literal `[[`.
            guard escape.isEmpty, let key = TermKey(String(second ?? first)), written.contains(key) else { return String(whole) }
            let shown = String(first)
            guard let definition = site.definition(for: key) ?? site.forms[key].flatMap(site.definition(for:)) else { return shown }
            return "[\(shown)](\(site.exportURL("terms/\(definition.slug)/", root: root)))"
        }
    }

    /// Each link of the page into the site, as written and as the URL it leads to (its fragment kept).
    static func linkTargets(_ record: PageRecord, site: BuiltSite, root: String) -> [(written: String, url: String)] {
        record.links.compactMap { link in
            let written = link.destination
            guard let target = site.links.internalTarget(written, from: record.page) else { return nil }
            let suffix = LinkRewriter.queryOrFragmentStart(written).map { String(written[$0...]) } ?? ""
            return (written, site.exportURL(target, root: root) + suffix)
        }
    }

    /// The written references of `portable`'s pages; each one's slug (or nil) goes into the fingerprint.
    static func referenceSlugs(_ record: PageRecord, site: BuiltSite) -> [String?] {
        record.references.filter { !$0.isAutomatic }.map { reference in
            (site.definition(for: reference.key) ?? site.forms[reference.key].flatMap(site.definition(for:)))?.slug
        }
    }

    /// The site's content pages, the home page first, then in path order.
    private static func contentPages(_ site: BuiltSite) -> [PageRecord] {
        let pages = site.pages.filter { $0.page.kind == .page }
        return pages.filter { $0.page.urlPath.isEmpty } + pages.filter { !$0.page.urlPath.isEmpty }
    }

    private static func header(_ config: SiteConfig) -> String {
        var text = "# \(oneLine(config.title, length: .max))\n\n"
        if let description = config.description, !description.isBlank { text += "> \(oneLine(description, length: .max))\n\n" }
        return text
    }

    private static func item(_ title: String, _ url: String, summary: String?) -> String {
        let name = oneLine(title, length: .max).replacingOccurrences(of: "[", with: "\\[").replacingOccurrences(of: "]", with: "\\]")
        let line = summary.map { oneLine($0, length: summaryLength) } ?? ""
        return "- [\(name)](\(url))" + (line.isEmpty ? "" : ": \(line)") + "\n"
    }

    /// `text` on one line, whitespace collapsed, at most `length` characters.
    static func oneLine(_ text: String, length: Int) -> String {
        let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard words.count > length else { return words }
        return String(words.prefix(length - 1)).trimmingWhitespace + "…"
    }
}
